// The training lab's own rule (issue 26, item 7): the reader's vocabulary, a length, and a rule —
// picked from a list and written out as example pairs, or typed as pairs — turned into the core's
// "pairs" task (core/tasks.hpp): a table of up to 12 input → output sequences the batches are drawn
// from. Pure: no DOM, no engine.
//
// The limits (at most 12 tokens, 12 pairs, the pairs' lengths, every token in the vocabulary) are
// the core's, checked once there: a word not in the vocabulary is handed over as the token one past
// its end, so that the core refuses it naming the pair, the side and the position.

import { oneOf, refusedAlone } from '../../fields.js';

/** The rules the lab offers; 'typed' is the reader's own pairs. */
export const OWN_RULES = Object.freeze(['reverse', 'shift', 'first', 'max', 'parity', 'typed']);
/** The lengths the lab offers (the core takes 2 … 12). */
export const OWN_LENGTHS = Object.freeze([2, 3, 4, 5, 6]);
/** How many example pairs a listed rule is written out as: the core's most. */
export const OWN_PAIRS = 12;
/** The held-out accuracy that counts as learned, and how long it may stay still before the page says it stalled. */
export const OWN_VERDICT = Object.freeze({ learned: 0.9, stallSteps: 100, gain: 0.01 });

// The separators of the link's text: words by ",", a pair's sides by ">", pairs by ";".
const SEPARATORS = /[,;>\s]/;

/**
 * A vocabulary as typed: words separated by commas or spaces ("甲 乙 丙 丁", "cat, dog"), or, with
 * neither, one word per character ("甲乙丙丁"). Returns the words, or undefined when one repeats.
 */
export function readVocabulary(text) {
  const trimmed = String(text).trim();
  if (trimmed === '') return undefined;
  const words = /[,\s]/.test(trimmed) ? trimmed.split(/[,\s]+/).filter((w) => w !== '') : [...trimmed];
  return new Set(words).size === words.length && words.every((w) => !SEPARATORS.test(w)) ? words : undefined;
}

/** One side of a typed pair: words separated by commas or spaces, or with neither one per character. */
const readSide = (text) => {
  const trimmed = text.trim();
  return /[,\s]/.test(trimmed) ? trimmed.split(/[,\s]+/).filter((w) => w !== '') : [...trimmed];
};

/**
 * Pairs as typed, one a line, "甲乙丙丁 → 丁丙乙甲" (or "->", ">"): [{ input, output }] of words, or
 * { line } (1-based) of the first line that is not two sides around an arrow. Blank lines are skipped.
 */
export function readPairs(text) {
  const pairs = [];
  const lines = String(text).split('\n');
  for (let l = 0; l < lines.length; l++) {
    if (lines[l].trim() === '') continue;
    const sides = lines[l].split(/→|->|>/);
    if (sides.length !== 2 || sides[0].trim() === '' || sides[1].trim() === '') return { line: l + 1 };
    pairs.push({ input: readSide(sides[0]), output: readSide(sides[1]) });
  }
  return pairs;
}

/** Pairs of words as the lines a reader types (the inverse of readPairs). */
export const pairsText = (pairs) => pairs.map((p) => `${p.input.join(' ')} → ${p.output.join(' ')}`).join('\n');

/** A listed rule's output for input tokens x (indices into the vocabulary), n = x.length. */
const RULES = {
  reverse: (x) => x.map((_, i) => x[x.length - 1 - i]), // y_i = x_{n−1−i}
  shift: (x) => x.map((_, i) => x[(i + x.length - 1) % x.length]), // y_i = x_{(i−1) mod n}, the core's shift by 1
  first: (x) => x.map(() => x[0]), // every y_i = x_0
  max: (x) => x.map(() => Math.max(...x)), // every y_i = the latest word of the vocabulary present
  // every y_i = word 1 when word 0 occurs an odd number of times, else word 0: a count across the sequence
  parity: (x) => x.map(() => x.filter((t) => t === 0).length % 2),
};

/**
 * The first `count` distinct sequences of `length` tokens below `size` from a fixed stream (all of
 * them when there are fewer): a listed rule's example inputs, the same for the same vocabulary size
 * and length everywhere.
 */
export function exampleInputs(size, length, count = OWN_PAIRS) {
  const total = size ** length;
  const seen = new Set();
  const out = [];
  let state = 0x2545f491;
  while (out.length < Math.min(count, total)) {
    // xorshift32: a fixed stream, not the run's seed (the seed draws the batches from the table)
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    let code = state % total;
    while (seen.has(code)) code = (code + 1) % total;
    seen.add(code);
    out.push(Array.from({ length }, (_, i) => Math.floor(code / size ** i) % size));
  }
  return out;
}

/** A listed rule written out as pairs of words of `vocabulary`, `length` tokens each. */
export function ruleTable(rule, vocabulary, length) {
  const apply = RULES[rule];
  return exampleInputs(vocabulary.length, length).map((x) => ({
    input: x.map((t) => vocabulary[t]),
    output: apply(x).map((t) => vocabulary[t]),
  }));
}

/** The pairs the state asks for, as words: a listed rule's, or the typed ones. */
export const ownPairs = (state) =>
  state.trainrule === 'typed' ? state.trainpairs : ruleTable(state.trainrule, state.trainvocab, state.trainlen);

/**
 * createTrainer's task fields for the state's own rule: the pairs as tokens (a word not in the
 * vocabulary as the token one past its end, for the core to refuse by position).
 */
export function ownTask(state) {
  const vocabulary = state.trainvocab;
  const token = (word) => (vocabulary.includes(word) ? vocabulary.indexOf(word) : vocabulary.length);
  return {
    task: 'pairs',
    length: state.trainlen,
    symbols: vocabulary.length,
    pairs: ownPairs(state).map((p) => ({ input: p.input.map(token), output: p.output.map(token) })),
  };
}

/**
 * What the held-out accuracy of the snapshots ({ step, heldOut: { accuracy } }, in step order) says:
 * { kind: 'learned', step, accuracy } at the first snapshot at or above OWN_VERDICT.learned;
 * { kind: 'stalled', step, since, accuracy } when the last stallSteps steps brought no gain over
 * the best before them; otherwise { kind: 'learning' }.
 */
export function ownVerdict(snapshots) {
  const hit = snapshots.find((s) => s.heldOut.accuracy >= OWN_VERDICT.learned);
  if (hit) return { kind: 'learned', step: hit.step, accuracy: hit.heldOut.accuracy };
  const last = snapshots.at(-1);
  if (!last || last.step < OWN_VERDICT.stallSteps) return { kind: 'learning' };
  const before = snapshots.filter((s) => s.step <= last.step - OWN_VERDICT.stallSteps);
  const best = before.reduce((b, s) => (s.heldOut.accuracy > b.heldOut.accuracy ? s : b), before[0]);
  const recent = Math.max(...snapshots.filter((s) => s.step > best.step).map((s) => s.heldOut.accuracy));
  return recent > best.heldOut.accuracy + OWN_VERDICT.gain
    ? { kind: 'learning' }
    : { kind: 'stalled', step: last.step, since: best.step, accuracy: best.heldOut.accuracy };
}

// ---- The link's fields ----------------------------------------------------------------------

// A field the link may hold unreadable is refused alone, named in the 'linkTrain' notice (fields.js).
const named = (key, type) => refusedAlone(key, type, 'linkTrain');

/** The vocabulary in the link: words separated by commas (or one a character). */
export const vocabularyType = named('trainvocab', { parse: readVocabulary, format: (words) => words.join(',') });

/** The typed pairs in the link: "甲,乙>乙,甲;乙,乙>乙,乙" (words by ",", sides by ">", pairs by ";"). */
export const pairsType = named('trainpairs', {
  parse(s) {
    if (s === '') return [];
    const pairs = s.split(';').map((pair) => pair.split('>'));
    if (pairs.some((sides) => sides.length !== 2 || sides.some((side) => side === ''))) return undefined;
    return pairs.map(([input, output]) => ({ input: input.split(','), output: output.split(',') }));
  },
  format: (pairs) => pairs.map((p) => `${p.input.join(',')}>${p.output.join(',')}`).join(';'),
});

/** One of `values`, named when refused. */
export const namedChoice = (key, values) => named(key, oneOf(values));

/** The own rule's hash fields (train-lab.js adds them to the lab's), written only for traintask=own. */
export const OWN_RULE_FIELDS = Object.freeze(
  [
    { key: 'trainvocab', type: vocabularyType, initial: ['甲', '乙', '丙', '丁'] },
    { key: 'trainlen', type: namedChoice('trainlen', OWN_LENGTHS), initial: 4 },
    { key: 'trainrule', type: namedChoice('trainrule', OWN_RULES), initial: 'reverse' },
    { key: 'trainpairs', type: pairsType, initial: [] },
  ].map((field) => ({ ...field, only: (state) => state.traintask === 'own' })),
);
