// Undo and redo of the reader's edits, and "reset this matrix". Every change of the inputs — a
// cell, a paste, a size, a preset, an option, the heads — is one entry; typing into one cell is
// one entry however many keys it takes. Moving between steps and views, the language and the
// theme are not edits: they stay as they are when an edit is undone (Back and Forward move
// between steps). Ctrl+Z undoes and Ctrl+Shift+Z or Ctrl+Y redoes, outside a text field (where
// they undo the typing, as the browser does), and so do the two buttons at the top of the panel
// (their entries in controller/actions.js).
// A matrix's "reset" returns it to its values when its example was chosen (or the page opened).

import { serializeState, parseState, setMatrix } from '../state.js';
import { renderUndoBar } from '../views/undo-bar.js';

// Entries kept each way, each as its link's hash (a few kB at most, where a state's matrices as
// arrays of numbers would be tens): the history stays small however long a reader edits.
const LIMIT = 50;
// What a reader navigates or chooses for the page, not for the numbers: kept through an undo.
const KEPT = ['step', 'view', 'lang', 'theme', 'embed', 'panel', 'nav'];

// The fields that do not change the numbers, each set to one value before the inputs are compared.
const ASIDE_AS = { step: 1, view: 'steps', lang: 'zh-CN', theme: 'system' };
const ASIDE = Object.keys(ASIDE_AS);
/** The inputs of a state, as text: two states with the same text compute the same numbers. */
const inputsOf = (state) => serializeState({ ...state, ...ASIDE_AS });
/** True if a and b hold the very same values in every field but `besides` (no serialising: an edit's hot path). */
const sameBesides = (a, b, besides) =>
  Object.keys({ ...a, ...b }).every((key) => besides.includes(key) || Object.is(a[key], b[key]));

/** The one cell a typed edit changed ('name:i:j'), or null when it changed anything else too. */
function changedCell(previous, next) {
  const sameShapes =
    previous.mode === next.mode &&
    Object.entries(next.mats).every(
      ([name, rows]) => previous.mats[name]?.length === rows.length && previous.mats[name][0].length === rows[0].length,
    );
  const only = { ...previous, mats: next.mats, preset: next.preset };
  if (!sameShapes || !(sameBesides(only, next, ASIDE) || inputsOf(only) === inputsOf(next))) return null;
  const changed = [];
  for (const [name, rows] of Object.entries(next.mats))
    rows.forEach((row, i) =>
      row.forEach((value, j) => {
        if (!Object.is(previous.mats[name]?.[i]?.[j], value)) changed.push(`${name}:${i}:${j}`);
      }),
    );
  return changed.length === 1 ? changed[0] : null;
}

export function createUndo(page) {
  const past = [];
  const future = [];
  let typing = null; // the cell the last entry is typing into: further keys there join that entry
  let restoring = false;
  const resets = matrixResets(page);

  /**
   * Shows the inputs of `entry` (a state's hash) with the current view, language and theme, and the
   * current step by its identity where the entry has it (the commit's keepStep).
   */
  function restore(entry) {
    const { state } = page;
    const kept = Object.fromEntries(KEPT.map((key) => [key, state[key]]));
    const next = { ...parseState(entry).state, ...kept };
    restoring = true;
    page.errors.clear();
    const done = page.commit(next);
    restoring = false;
    typing = null;
    return done;
  }

  // The entries are moved before the commit, so that the buttons it draws say what can be undone
  // and redone after it (Redo was drawn disabled after an Undo); put back if the core refuses.
  function move(from, to) {
    if (!from.length) return;
    const target = from.pop();
    to.push(serializeState(page.state));
    if (restore(target)) return;
    to.pop();
    from.push(target);
    page.render({ panel: false, frame: false });
  }
  const undo = () => move(past, future);
  const redo = () => move(future, past);

  return {
    undo,
    redo,
    reset: resets.reset,
    resettable: resets.resettable,
    committed(next, previous, { edit, gesture }) {
      resets.committed(next);
      if (restoring || sameBesides(next, previous, ASIDE)) return;
      // One cell typed on, or one drag of an arrow (its `gesture`): one entry, which already holds
      // the state before the first key. Asked before the inputs are compared as text: each key
      // typed serialised the state twice for nothing (at n = 64, d_k = 64 a tenth of an edit).
      const cell = gesture ?? (edit ? changedCell(previous, next) : null);
      if (cell && cell === typing) return;
      if (inputsOf(next) === inputsOf(previous)) return;
      past.push(serializeState(previous));
      if (past.length > LIMIT) past.shift();
      future.length = 0;
      typing = cell;
    },
    render() {
      const { state } = page;
      if (state.view !== 'steps' || (state.embed && !state.panel)) return;
      renderUndoBar(page.$('panel'), { t: page.t, canUndo: past.length > 0, canRedo: future.length > 0 });
    },
    destroy() {},
  };
}

/** "Reset this matrix": each matrix back to its values when its example was last shown. */
function matrixResets(page) {
  let origin = page.state.mats; // each matrix as its example gave it
  const differ = (a, b) => a.some((row, i) => row.some((value, j) => !Object.is(value, b[i][j])));

  /** Whether matrix `name` can be reset: it has an origin of its shape, and differs from it. */
  function resettable(name) {
    const now = page.state.mats[name];
    const then = origin[name];
    return Boolean(now && then && then.length === now.length && then[0].length === now[0].length && differ(now, then));
  }

  return {
    resettable,
    reset(name) {
      if (!resettable(name)) return;
      page.errors.clear();
      page.commit(
        setMatrix(
          page.state,
          name,
          origin[name].map((row) => [...row]),
        ),
      );
    },
    committed(next) {
      if (next.preset !== 'custom') origin = next.mats; // an example's own matrices (a new seed too)
    },
  };
}
