// §3's two arrows on the scores step (views/arrows.js): which q_i and k_j they are (the chosen
// score's pair, or the choosers), and what dragging or moving a head does. A head moved edits row
// i of Q (or row j of K) through the editing part, as typing its two cells would: the core checks
// it, undo takes one drag (or one run of arrow keys) as one entry, the URL follows. When Q and K
// are computed from X·W the arrows are read-only (a drag would have to change X or a W): the
// picture says so and offers to switch to "Q, K, V directly", which keeps every number.

import { createArrows } from '../views/arrows.js';
import { arrowsMode, extentFor, vectorAt, nudged, rowOf } from '../arrows.js';
import { listeners } from './listeners.js';

/** explain: the popover's part (the score it chose); editing: the panel's requests (a row of Q or K). */
export function createArrowsPart(page, { explain, editing }) {
  const events = listeners();
  const ui = { view: null, pair: { i: 0, j: 1 }, drag: null, drags: 0, extent: 2 };

  /** The row of Q or K an arrow is; where its head is now. */
  const rowOfArrow = (which) => (which === 'q' ? ui.pair.i : ui.pair.j);
  const headOf = (which) => rowOf(page.model[which], rowOfArrow(which));

  /** Moves arrow `which` ('q' or 'k') to `vector`: its row of Q or K, edited. */
  function move(which, vector, gesture) {
    const current = headOf(which);
    if (current[0] === vector[0] && current[1] === vector[1]) return;
    editing.on.vector(which, rowOfArrow(which), vector, gesture);
  }

  /** Brings the picture up to date and returns its element (the stage's extra, views/stage.js). */
  function draw() {
    const { state, model, t } = page;
    if (!ui.view) {
      ui.view = createArrows({ t });
      listen(events, ui.view, { page, ui, move, draw, headOf, editing });
    }
    if (ui.pair.i >= state.n || ui.pair.j >= state.n) ui.pair = { i: 0, j: Math.min(1, state.n - 1) };
    const mode = arrowsMode(state, model);
    // The plane keeps its size during a drag: it must not rescale under the pointer.
    if (!ui.drag && mode !== 'needs2d') ui.extent = extentFor([headOf('q'), headOf('k')]);
    ui.view.update({ state, model, t, pair: ui.pair, mode, extent: ui.extent });
    return ui.view.element;
  }

  // A score chosen (clicked, tapped, Enter) on the stage: the arrows become its q_i and k_j.
  explain.follow(() => {
    const cell = explain.chosen();
    if (!cell || cell.kind !== 'score' || !ui.view?.element.isConnected) return;
    if (cell.i === ui.pair.i && cell.j === ui.pair.j) return;
    ui.pair = { i: cell.i, j: cell.j };
    draw();
  });

  return {
    draw,
    destroy: () => events.removeAll(),
    listeners: events,
  };
}

/** The arrows' numbers after a move, said in the page's one live region (once per key, once per drag). */
const say = (page, view) => {
  page.$('step-announce').textContent = view.parts.readout.textContent;
};

/**
 * The heads' pointer and keys, the choosers and the switch of mode. The arrow keys on a focused
 * head are the head's own (it moves as a slider's thumb does), not a page action of
 * controller/actions.js: a key they take is marked (preventDefault), and ←/→ does not change the step.
 */
function listen(events, view, { page, ui, move, draw, headOf, editing }) {
  const { svg, choosers } = view.parts;
  const handleOf = (event) => event.target.closest?.('.arrow-handle');
  const editable = () => arrowsMode(page.state, page.model) === 'edit';
  events.on(svg, 'pointerdown', (event) => {
    const handle = handleOf(event);
    if (!handle || !editable()) return;
    event.preventDefault();
    handle.setPointerCapture?.(event.pointerId);
    ui.drag = { which: handle.dataset.which, gesture: `arrow:${handle.dataset.which}:${++ui.drags}` };
    handle.focus?.();
  });
  events.on(svg, 'pointermove', (event) => {
    if (!ui.drag) return;
    // The pointer in the drawing's own units (its viewBox is the plane, y down).
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    move(ui.drag.which, vectorAt(point, ui.extent), ui.drag.gesture);
  });
  const end = () => {
    if (!ui.drag) return;
    ui.drag = null;
    draw(); // the plane may now grow or shrink to its arrows
    say(page, view);
  };
  events.on(svg, 'pointerup', end);
  events.on(svg, 'pointercancel', end);
  events.on(svg, 'keydown', (event) => {
    const handle = handleOf(event);
    if (!handle || !editable() || event.altKey || event.ctrlKey || event.metaKey) return;
    const which = handle.dataset.which;
    const next = nudged(headOf(which), event.key, { big: event.shiftKey });
    if (!next) return;
    event.preventDefault();
    move(which, next, `arrow-keys:${which}:${which === 'q' ? ui.pair.i : ui.pair.j}`);
    say(page, view);
  });
  for (const which of ['q', 'k'])
    events.on(choosers[which].select, 'change', (event) => {
      ui.pair = { ...ui.pair, [which === 'q' ? 'i' : 'j']: Number(event.target.value) };
      draw();
    });
  events.on(view.parts.switch, 'click', () => editing.on.mode('qkv'));
}
