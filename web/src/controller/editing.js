// Editing: everything the input panel (and the stage's copies of the switches) can ask for — a
// preset, the mode, an option, a size, the seed, the words, a cell, a pasted matrix — validated, then
// committed or shown why not next to its field. Also the panel itself and the errors in it.

import {
  SIZE_LIMIT,
  SIZE_NAMES,
  choosePreset,
  setOption,
  setCell,
  setMatrix,
  resize,
  switchMode,
  setWords,
} from '../state.js';
import { readWords } from '../words.js';
import { option } from '../options.js';
import { lossHandlers } from './loss.js';
import { parseNumber, parseMatrix, normalizeText } from '../parse-matrix.js';
import { toRows } from '../matrix.js';
import { formatNumber } from '../format.js';
import { describeEngineError } from '../engine-errors.js';
import { translator } from '../i18n/index.js';
import { LIMITS } from '../input-rules.js';
import { underflowsFloat32 } from '../../../wasm/vocabulary.mjs';
import { renderPanel, showErrors } from '../views/panel.js';
import { showStageErrors } from '../views/controls.js';
import { keepingFocus } from './keep-focus.js';
import { headHandlers } from './heads.js';

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

/** How an error object from the parser reads in the language of `t`. */
function describeParseError(t, error) {
  const message = t(`err.${error.key}`, error);
  return error.col ? t('err.cellIn', { row: error.row, col: error.col, message }) : message;
}

/**
 * undo: the undo part (a matrix's reset); engine: the engine calls (whether the core takes a
 * value); heads: the heads part (the panel's two heads fields).
 */
export function createEditing(page, { undo, engine, heads }) {
  const { errors } = page;
  let filled = null; // after a paste or resize: { name: [rows, cols] before } of the matrices it grew
  let pendingFilled = null; // …as found by growing(), taken over by the commit that follows
  const refused = keptRefusals(page, engine);
  const typed = typedWords(page, describeParseError);

  const describe = (error) => describeParseError(page.t, error);
  const resettable = (name) => undo.resettable(name);

  function refuse(key, message, { frame = true } = {}) {
    errors.set(key, message);
    page.render({ panel: false, frame });
  }

  /**
   * Size fields, the seed and options typed as numbers: validate the text, then commit or show
   * why not. Empty text gets the field's own rule, not "this cell is empty": a type=number field
   * hands over '' for letters it cannot read.
   */
  function numberField(key, text, check, apply) {
    const parsed = parseNumber(text);
    // A number beyond float32 (1e39, 400 digits) meets the field's own rule, which says why.
    const problem = parsed.ok
      ? check(parsed.value, text)
      : parsed.error.key === 'empty'
        ? check(NaN, text)
        : parsed.error.key === 'tooLarge'
          ? check(Number(normalizeText(text).trim()), text)
          : describe(parsed.error);
    if (problem) return refuse(key, problem);
    errors.delete(key);
    const next = apply(parsed.value);
    if (next.error) return refuse(key, describe(next.error));
    page.commit(next);
  }

  /**
   * A paste or a size change may grow matrices other than the one changed, and state.js fills
   * their new cells with seeded random numbers: remember their old shapes, so the panel can say
   * so and mark those cells (until the shapes change again). Returns `next` unchanged.
   */
  function growing(next, pasted = null) {
    if (next.error || next.preset === 'random') return next;
    const { state } = page;
    const grown = {};
    for (const [name, rows] of Object.entries(next.mats)) {
      const old = state.mode === next.mode ? state.mats[name] : null;
      if (!old || name === pasted) continue;
      if (rows.length > old.length || rows[0].length > old[0].length) grown[name] = [old.length, old[0].length];
    }
    pendingFilled = Object.keys(grown).length ? grown : null;
    return next;
  }

  const on = handlers(page, { numberField, growing, describe, refuse, refused, typed, undo, heads });

  return {
    on,
    committed(next, previous, { fromUrl }) {
      const reshaped =
        SIZE_NAMES.some((key) => next[key] !== previous[key]) ||
        next.mode !== previous.mode ||
        next.preset !== previous.preset;
      if (pendingFilled || reshaped) filled = pendingFilled;
      pendingFilled = null;
      refused.committed(next, { fromUrl });
      typed.committed(next, { fromUrl });
    },
    render({ panel }) {
      const { state, t } = page;
      const shown = !state.embed || state.panel;
      const ctx = { state, t, on, filled, typed: refused.typed, typedWords: typed.text(), resettable };
      if (panel && shown) keepingFocus(page.dom.document, () => renderPanel(page.$('panel'), ctx));
      showErrors(page.$('panel'), errors);
      showStageErrors(page.$('stage-body'), errors);
    },
    destroy() {},
  };
}

/** The panel's requests (views/panel.js and views/controls.js call on.*). */
function handlers(page, { numberField, growing, describe, refuse, refused, typed, undo, heads }) {
  const { errors } = page;
  return {
    ...headHandlers(heads),
    ...lossHandlers(page, describe),
    preset: (preset) => {
      errors.clear();
      refused.clear();
      page.commit(choosePreset(page.state, preset));
    },
    mode: (mode) => {
      errors.clear();
      refused.clear();
      const { q, k, v } = page.model;
      page.commit(switchMode(page.state, mode, { q: toRows(q), k: toRows(k), v: toRows(v) }));
    },
    option: (key, value) => page.commit(setOption(page.state, key, value)),
    // An option typed as a number (options.js), checked by the option's own rule.
    optionText: (key, text) =>
      numberField(
        key,
        text,
        (v, typed) => {
          const problem = option(key).validate(v);
          return problem ? option(key).message(problem, page.t, typed) : null;
        },
        (v) => setOption(page.state, key, v),
      ),
    size: (key, text) =>
      numberField(
        `size:${key}`,
        text,
        (v) => (isInt(v, 1, SIZE_LIMIT) ? null : page.t('err.size', { max: SIZE_LIMIT })),
        (v) => typed.fitting(growing(resize(page.state, { [key]: v }))),
      ),
    seed: (text) =>
      numberField(
        'size:seed',
        text,
        (v) => (isInt(v, 0, 2 ** 31 - 1) ? null : page.t('err.seed')),
        (v) => choosePreset(setOption(page.state, 'seed', v), 'random'),
      ),
    cell(name, i, j, text) {
      const key = `cell:${name}:${i}:${j}`;
      const parsed = parseNumber(text);
      if (!parsed.ok) return refuse(key, describe(parsed.error), { frame: false });
      // 1e-50 is taken, as float32 holds it: 0: said at the field, as a number too large is.
      if (underflowsFloat32(parsed.value))
        errors.set(key, page.t('err.underflow', { value: normalizeText(text).trim(), min: LIMITS.minPositive }));
      else errors.delete(key);
      refused.edit(name, i, j, text, parsed.value);
    },
    // Row i of Q or K at once (an arrow dragged or moved by keys, controller/arrows.js): one
    // commit, as a typed cell is; `gesture` names the drag, which undo takes as one entry.
    vector(name, i, values, gesture) {
      values.forEach((_, j) => errors.delete(`cell:${name}:${i}:${j}`));
      refused.forget(name);
      const next = values.reduce((state, value, j) => setCell(state, name, i, j, value), page.state);
      page.commit(next, { edit: true, gesture });
    },
    // The sentence's words: one per row, else said at the field, the reader's text and inputs kept.
    words(text) {
      const read = readWords(text, page.state.n);
      if (!read.ok) return refuse('words', typed.keep(text, read.error));
      typed.forget();
      page.commit(setWords(page.state, read.words));
    },
    reset: (name) => undo.reset(name),
    paste(name, text) {
      const key = `paste:${name}`;
      const parsed = parseMatrix(text);
      const next = parsed.ok ? growing(setMatrix(page.state, name, parsed.rows), name) : { error: parsed.error };
      if (next.error) return refuse(key, describe(next.error));
      for (const k of [...errors.keys()]) if (k.startsWith(`cell:${name}:`) || k === key) errors.delete(k);
      refused.forget(name);
      page.commit(next);
    },
  };
}

/**
 * The words the reader typed while their count does not match n: kept in the field with the
 * message at it, until they fit (a change of n to their count takes them: fitting), another text
 * replaces them, or the example or the link changes.
 */
function typedWords(page, describeParseError) {
  let text = null;
  const forget = () => {
    text = null;
    page.errors.delete('words');
  };
  return {
    text: () => text,
    /** Keeps the reader's text; returns the field's message for `error`. */
    keep(typed, error) {
      text = typed;
      return describeParseError(page.t, error);
    },
    forget,
    /** `next` (n changed) with the kept words when they now fit its n. */
    fitting(next) {
      if (next.error || text === null) return next;
      const read = readWords(text, next.n);
      return read.ok ? setWords(next, read.words) : next;
    },
    /** After a commit: the kept text goes when it was taken or the example changed; else its message follows n. */
    committed(next, { fromUrl }) {
      if (text === null) return;
      const read = readWords(text, next.n);
      // (Choosing an example or a mode clears the errors: the text goes with its message.)
      if (read.ok || fromUrl || !page.errors.has('words')) return forget();
      page.errors.set('words', describeParseError(translator(next.lang), read.error));
    },
  };
}

/**
 * Cells whose value the core refused (3e38 in X, where X·W_Q overflows): the field keeps what the
 * reader typed and says, while other edits go on, that it is not computed and which value is. A
 * later edit is first tried with every kept value (it may make them computable: a smaller W_Q),
 * then alone. Keyed 'name:i:j' → { name, i, j, text, value, error (the core's refusal) }.
 */
function keptRefusals(page, engine) {
  const kept = new Map();
  const id = (name, i, j) => `${name}:${i}:${j}`;
  const withKept = (state) =>
    [...kept.values()].reduce((next, { name, i, j, value }) => setCell(next, name, i, j, value), state);
  return {
    /** The reader's value for a cell: committed with the kept ones if the core takes them all. */
    edit(name, i, j, text, value) {
      kept.delete(id(name, i, j));
      const { state } = page;
      const options = { panel: state.preset !== 'custom', edit: true };
      const edited = setCell(state, name, i, j, value);
      if (kept.size && !engine.refusal(withKept(edited))) {
        const all = withKept(edited);
        for (const key of kept.keys()) page.errors.delete(`cell:${key}`);
        kept.clear();
        page.commit(all, { ...options, panel: true });
      } else if (!page.commit(edited, options)) {
        kept.set(id(name, i, j), { name, i, j, text, value, error: engine.refusal(edited) });
      }
    },
    /** After a commit: each kept cell that still exists says so at its field; the others go. */
    committed(next, { fromUrl }) {
      for (const [key, cell] of kept) {
        const rows = next.mats[cell.name];
        if (!fromUrl && rows && cell.i < rows.length && cell.j < rows[0].length) continue;
        kept.delete(key);
        page.errors.delete(`cell:${key}`);
      }
      for (const { name, i, j, text, error } of kept.values()) {
        const message = describeEngineError(error, page.t, next);
        const used = formatNumber(next.mats[name][i][j], next.digits);
        page.errors.set(`cell:${name}:${i}:${j}`, page.t('err.kept', { typed: text, used, message }));
      }
    },
    /** What the reader typed into a kept cell, for the panel to show instead of the computed value. */
    typed: (name, i, j) => kept.get(id(name, i, j))?.text,
    forget(name) {
      for (const [key, cell] of kept) if (cell.name === name) kept.delete(key);
    },
    clear: () => kept.clear(),
  };
}
