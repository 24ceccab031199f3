// The one number, next to its cell (views/explain.js, views/popover.js): hovering or focusing a
// score, weight or output cell expands it in a popover next to it (on a heatmap too); a click,
// Enter or a tap keeps it open, Escape or a click elsewhere closes it (Enter, Space and Escape are
// entries of controller/actions.js, which call openFromKey and closeFromKey). This part owns the
// popover's own state: which cell, whether it is pinned, whether every term is shown; other parts
// read cell() (the cell described, { i, j, kind } or null) and chosen() (the cell a click, a tap or
// Enter chose, or null), and follow(listener) hears of every change of the cell.

import { renderExplain, highlight, cellCols } from '../views/explain.js';
import { placePopover } from '../views/popover.js';
import { shownPane } from '../views/stage.js';
import { moveInGrid } from '../views/grid-keys.js';
import { listeners } from './listeners.js';

const PICKABLE = 'td.pick, canvas.heatmap.pick';
const cellOf = (td) => ({ i: Number(td.dataset.i), j: Number(td.dataset.j), kind: td.dataset.pick });
const sameCell = (a, b) => a && b && a.i === b.i && a.j === b.j && a.kind === b.kind;

/** The cell under a pointer event: a table cell, or the cell of a heatmap under the pointer. */
function cellAt(event) {
  const td = event.target.closest?.('td.pick');
  if (td) return cellOf(td);
  const canvas = event.target.closest?.('canvas.heatmap.pick');
  if (!canvas || event.offsetX === undefined) return null;
  const box = canvas.getBoundingClientRect();
  const rows = Number(canvas.dataset.rows);
  const cols = Number(canvas.dataset.cols);
  const i = Math.floor((event.offsetY / box.height) * rows);
  const j = Math.floor((event.offsetX / box.width) * cols);
  return i >= 0 && j >= 0 && i < rows && j < cols ? { i, j, kind: canvas.dataset.pick } : null;
}

/** Where the cells of the step on screen are, and which one the popover describes. */
function anchors(stage, ui) {
  /** The matrices of the step on screen (the stage keeps other steps' matrices, not drawn). */
  const shownMatrices = () => shownPane(stage) ?? stage;

  /** The element a cell is drawn in on this step: { td } or { canvas, i, j }, or null. */
  function anchorOf({ i, j, kind }) {
    const shown = shownMatrices();
    const td = shown.querySelector(`td.pick[data-pick="${kind}"][data-i="${i}"][data-j="${j}"]`);
    if (td) return { td };
    const canvas = shown.querySelector(`canvas.heatmap.pick[data-pick="${kind}"]`);
    return canvas ? { canvas, i, j } : null;
  }

  // The cell the popover describes, for screen readers: one at a time, remembered rather than
  // searched for (the stage holds every step's cells once seen, views/panes.js).
  function describeCell(td) {
    if (ui.described === td) return;
    ui.described?.removeAttribute('aria-describedby');
    td?.setAttribute('aria-describedby', 'cell-explain');
    ui.described = td;
  }
  return { shownMatrices, anchorOf, describeCell };
}

/** Whether a cell is beyond the matrices of a state (after a resize). */
const gone = (cell, state) => cell.i >= state.n || cell.j >= cellCols(cell.kind, state);

/**
 * Marks what the cell is made of; the parts that follow the cell hear of it (`followers`): the
 * step's formula shows its numbers (controller/filled-formula.js), a chosen score's q and k become
 * the arrows (controller/arrows.js).
 */
const marker = (page, ui, shownMatrices, followers) => () => {
  highlight(shownMatrices(), { cell: ui.cell, row: page.view.row });
  for (const follower of followers) follower();
};

export function createExplain(page) {
  const { document, window } = page.dom;
  const events = listeners();
  const stage = page.$('stage-body');
  const popover = page.$('cell-explain');
  const ui = { cell: null, pinned: false, expanded: false, returning: false, described: null };
  const followers = [];

  const { shownMatrices, anchorOf, describeCell } = anchors(stage, ui);
  const mark = marker(page, ui, shownMatrices, followers);
  const shownCell = shownCellOf(shownMatrices);

  /** Fills the popover for the cell; `place` moves it next to the cell (not when only numbers changed). */
  function show({ place = true } = {}) {
    const { state, model, t } = page;
    renderExplain(popover, {
      state,
      model,
      t,
      cell: ui.cell,
      tokens: page.tokens(),
      expanded: ui.expanded,
      onExpand: () => {
        ui.expanded = true;
        ui.pinned = true;
        show();
        popover.querySelector('.popover-close')?.focus();
      },
      onClose: () => close({ refocus: true }),
    });
    popover.classList.toggle('pinned', ui.pinned);
    const anchor = anchorOf(ui.cell);
    describeCell(anchor.td ?? null);
    if (place || popover.hidden) placePopover(popover, anchor);
  }

  /** Expands `next` ({ i, j, kind }); `pin` keeps it open until closed. */
  function explain(next, { pin = false } = {}) {
    // A cell of another step (a kept, hidden pane, reached by a script or a stale event) has
    // nothing to show here: a no-op, as it is for a mouse, which cannot reach it.
    if (next && !anchorOf(next)) return;
    const same = sameCell(ui.cell, next);
    if (same && ui.pinned === (pin || ui.pinned)) return;
    if (!same) ui.expanded = false;
    ui.cell = next;
    ui.pinned = pin || (same && ui.pinned);
    show();
    mark();
  }

  function close({ refocus = false } = {}) {
    const was = ui.cell && anchorOf(ui.cell);
    Object.assign(ui, { cell: null, pinned: false, expanded: false });
    popover.hidden = true;
    describeCell(null);
    mark();
    if (!refocus || !was?.td) return;
    ui.returning = true; // back on its cell, the popover stays closed until the reader moves on
    was.td.focus();
    ui.returning = false;
  }

  listenOnStage(events, stage, { ui, explain, close, document, shownMatrices, shownCell });
  listenOnPage(events, { ui, close, show, document, window });

  return {
    close,
    /** Whether a cell is described (the popover is open). */
    isOpen: () => ui.cell !== null,
    /** Escape: closes it, back on its cell when the focus was in it or on a cell. */
    closeFromKey() {
      const inside = popover.contains(document.activeElement) || document.activeElement?.matches?.('td.pick');
      close({ refocus: inside });
    },
    /** The cell of this step's matrices `target` is in (a <td>), or null. */
    shownCell,
    /** Enter or Space on a cell: it is chosen, and the focus goes into the popover. */
    openFromKey(target) {
      explain(cellOf(shownCell(target)), { pin: true });
      popover.querySelector('button')?.focus();
    },
    /** `listener()` is called whenever the cell described changes, or the popover closes. */
    follow: (listener) => followers.push(listener),
    cell: () => ui.cell,
    chosen: () => (ui.pinned ? ui.cell : null),
    /** After a render: the popover follows its cell's new numbers, or closes when the step has none. */
    render() {
      if (ui.cell && !anchorOf(ui.cell)) close();
      else if (ui.cell) show({ place: false });
      mark();
    },
    committed(next) {
      if (ui.cell && gone(ui.cell, next)) ui.cell = null;
    },
    destroy: () => events.removeAll(),
    listeners: events,
  };
}

/** The <td> of a cell of the step on screen that `target` is in, or null (not one of a kept, hidden pane). */
const shownCellOf = (shownMatrices) => (target) => {
  const td = target?.closest?.('td.pick');
  return td && shownMatrices().contains(td) ? td : null;
};

/**
 * The stage's pointer and focus events that open, pin and close the popover, and the arrow keys
 * that move between a matrix's cells: the grid's own keys (views/grid-keys.js, a roving tab stop),
 * which stay with it.
 */
function listenOnStage(events, stage, { ui, explain, close, document, shownMatrices, shownCell }) {
  // Only this step's pane: a kept, hidden pane of another step (views/panes.js) answers nothing.
  const cellAtShown = (event) => (shownMatrices().contains(event.target) ? cellAt(event) : null);
  const follow = (event) => {
    if (ui.pinned) return;
    const next = cellAtShown(event);
    if (next) explain(next);
  };
  events.on(stage, 'mouseover', follow);
  events.on(stage, 'mousemove', (event) => {
    if (event.target.closest?.('canvas.heatmap.pick')) follow(event);
  });
  events.on(stage, 'mouseout', (event) => {
    if (ui.pinned || !ui.cell || event.relatedTarget?.closest?.(PICKABLE)) return;
    if (document.activeElement?.matches?.('td.pick')) return; // a cell focused from the keyboard keeps its popover
    close();
  });
  events.on(stage, 'focusin', (event) => {
    const td = shownCell(event.target);
    if (td && !ui.returning) explain(cellOf(td), { pin: ui.pinned });
  });
  events.on(stage, 'focusout', (event) => {
    if (ui.pinned || !ui.cell || !event.target.closest?.('td.pick')) return;
    if (event.relatedTarget?.closest?.('td.pick, #cell-explain')) return;
    close();
  });
  events.on(stage, 'click', (event) => {
    if (event.target.closest?.('.row-pick')) return; // a word: the stage part chooses its row
    const next = cellAtShown(event);
    if (next) explain(next, { pin: true });
  });
  events.on(stage, 'keydown', moveInGrid);
}

/** A click outside and a resized window. */
function listenOnPage(events, { ui, close, show, document, window }) {
  events.on(document, 'click', (event) => {
    if (ui.pinned && event.target.isConnected && !event.target.closest?.('#cell-explain, td.pick, canvas.heatmap.pick'))
      close();
  });
  events.on(window, 'resize', () => {
    if (ui.cell) show();
  });
}
