// The training lab's own-rule fields (issue 26, item 7; own-rule.js): the reader's vocabulary,
// the length, the rule from a list, and the pairs the batches are drawn from — a listed rule's
// written out, or the reader's own. Each change is a setState of the hash's fields; a text that
// cannot be read is refused beside its field, and the core's refusal of the table is worded here too.

import { h, setText } from '../../views/dom.js';
import { OWN_RULES, OWN_LENGTHS, readVocabulary, readPairs, pairsText, ownPairs } from './own-rule.js';

/** The core's refusal of the own rule's table, worded for the reader; null for another refusal. */
export function ownRefusal(error, state, t) {
  if (!error || !['pairs', 'symbols', 'length'].includes(error.argument)) return null;
  const p = error.params ?? {};
  if (error.argument === 'symbols') return t('train.own.refused.symbols', { got: p.got, max: p.max });
  if (error.argument === 'length') return t('train.own.refused.length', { got: p.got, max: p.max });
  if (p.index === undefined) return t('train.own.refused.count', { got: p.got, max: p.max });
  const pair = ownPairs(state)[p.index];
  const side = t(`train.own.side.${p.side === 0 ? 'input' : 'output'}`);
  if (error.code === 'wrong_length')
    return t('train.own.refused.pairLength', { pair: p.index + 1, side, got: p.got, need: p.need });
  const words = p.side === 0 ? pair?.input : pair?.output;
  return t('train.own.refused.word', { pair: p.index + 1, side, position: p.position + 1, word: words?.[p.position] });
}

/** A text field's refusal beside it: its error line and aria-invalid, or both cleared when `text` is null. */
function showRefusal(input, error, text) {
  input.setAttribute('aria-invalid', text ? 'true' : 'false');
  error.hidden = !text;
  setText(error, text ?? '');
}

/** The vocabulary as typed (readVocabulary): read when changed, refused beside the field when it cannot be. */
function vocabularyField(setState) {
  const error = h('p', { class: 'train-error', id: 'train-vocab-error', hidden: true });
  const input = h('input', {
    id: 'train-vocab',
    type: 'text',
    autocomplete: 'off',
    'aria-describedby': 'train-vocab-error',
    onchange: () => {
      const words = readVocabulary(input.value);
      showRefusal(input, error, words ? null : input.dataset.refusal);
      if (words) setState({ trainvocab: words });
    },
  });
  return { input, error };
}

/** The pairs as typed, one a line (readPairs): read when changed, the first line that cannot be named beside the field. */
function pairsField(setState) {
  const error = h('p', { class: 'train-error', id: 'train-pairs-error', hidden: true, role: 'alert' });
  const input = h('textarea', {
    id: 'train-pairs',
    rows: 6,
    cols: 32,
    spellcheck: 'false',
    'aria-describedby': 'train-pairs-error',
    onchange: () => {
      const read = readPairs(input.value);
      showRefusal(input, error, Array.isArray(read) ? null : input.dataset.refusal.replace('{line}', read.line));
      if (Array.isArray(read)) setState({ trainrule: 'typed', trainpairs: read });
    },
  });
  return { input, error };
}

/** { el, update({ state, t, error }) }: the fields, shown only for traintask=own. */
export function createOwnRuleFields({ setState }) {
  let state = null;
  const { input: vocab, error: vocabError } = vocabularyField(setState);
  const { input: pairs, error: pairsError } = pairsField(setState);
  const length = h(
    'select',
    { id: 'train-len', onchange: () => setState({ trainlen: Number(length.value) }) },
    OWN_LENGTHS.map((n) => h('option', { value: String(n) }, String(n))),
  );
  // Typing pairs starts from the listed rule's, written out: the reader edits an example.
  const rule = h(
    'select',
    {
      id: 'train-rule',
      onchange: () =>
        setState(
          rule.value === 'typed' ? { trainrule: 'typed', trainpairs: ownPairs(state) } : { trainrule: rule.value },
        ),
    },
    OWN_RULES.map((r) => h('option', { value: r })),
  );
  const labels = {
    vocab: h('label', { for: 'train-vocab' }),
    len: h('label', { for: 'train-len' }),
    rule: h('label', { for: 'train-rule' }),
    pairs: h('label', { for: 'train-pairs' }),
  };
  const hint = h('p', { class: 'train-own-hint' });
  const legend = h('legend');
  const el = h(
    'fieldset',
    { class: 'train-own', hidden: true },
    legend,
    h('div', { class: 'train-field' }, labels.vocab, vocab),
    vocabError,
    h('div', { class: 'train-field' }, labels.len, length),
    h('div', { class: 'train-field' }, labels.rule, rule),
    h('div', { class: 'train-field train-own-pairs' }, labels.pairs, pairs),
    hint,
    pairsError,
  );

  function update({ state: now, t, error }) {
    state = now;
    el.hidden = now.traintask !== 'own';
    if (el.hidden) return;
    setText(legend, t('train.task.own'));
    for (const [name, label] of Object.entries(labels)) setText(label, t(`train.own.${name}.label`));
    OWN_RULES.forEach((r, i) => setText(rule.options[i], t(`train.own.rule.${r}`)));
    setText(hint, t('train.own.hint'));
    vocab.dataset.refusal = t('train.own.vocab.error');
    pairs.dataset.refusal = t('train.own.pairs.error');
    // A field being fixed keeps its text; otherwise each shows the state.
    if (vocab.getAttribute('aria-invalid') !== 'true' && document.activeElement !== vocab)
      vocab.value = now.trainvocab.join(' ');
    length.value = String(now.trainlen);
    rule.value = now.trainrule;
    if (pairs.getAttribute('aria-invalid') !== 'true' && document.activeElement !== pairs)
      pairs.value = pairsText(ownPairs(now));
    const refusal = ownRefusal(error, now, t);
    if (pairs.getAttribute('aria-invalid') !== 'true') {
      pairsError.hidden = !refusal;
      setText(pairsError, refusal ?? '');
    }
  }
  return { el, update };
}
