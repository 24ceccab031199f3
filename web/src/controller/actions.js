// What a reader can ask of the page by a key or a button, in one table: each action is an entry
// with its name, its keys, where on the page its keys count, when they count, and what it does.
// One keydown listener on the document finds the entry a key asks for and performs it; one click
// listener performs the entry of a button (`clicks`: the buttons that ask for it). The parts hand
// in what the entries use (ctx: { page, nav, undo, explain, classroom, stage }).
//
// The entries are tried in the table's order, in three layers: the open popover's Escape first,
// then the classroom mode's keys (in the mode only), then the page's. Within a layer a key asks
// for one action; a key of an upper layer that does not count where it was pressed, or not now,
// goes on to the layers below (→ on a matrix cell is not the classroom's next step).
//
// Keys: 'ArrowRight', ' ', 'P' (a key without Ctrl, Alt or Meta is matched by the key it types,
// which already says whether Shift was down), 'Mod+z' (Ctrl, or ⌘ on a Mac; Shift is part of
// such a key: Mod+z is not Mod+Shift+z).
//
// Keys that stay with their widget, as its own keyboard model: the arrows that move between the
// cells of a matrix (views/grid-keys.js, a roving tab stop: controller/explain.js on the stage, the
// training lab's grid), the arrows that move §3's arrow heads (controller/arrows.js, on the focused
// head), Enter in the exercise's answer field, and in the efficiency lab its steppers' arrows, Home
// and End (on their own group) and its popover's Escape (its own popover, open only in that lab).
// tests/web/actions.test.mjs checks that no other file listens for keys.

import { inClassroom } from '../classroom.js';
import { listeners } from './listeners.js';

/** Where a key is pressed: what it is inside. */
const PLACES = {
  field: 'input, textarea, select, [contenteditable]',
  cell: 'td.pick',
  button: 'button, a, summary',
  dialog: 'dialog',
};
const at = (event, place) => Boolean(event.target?.closest?.(PLACES[place]));

/**
 * The classroom mode's keys: a field keeps its keys (but Escape leaves), a button's Space and
 * Enter press it, a matrix cell's arrows, Space and Enter are the popover's.
 */
function classroomKeyCounts(event) {
  const { key } = event;
  if (at(event, 'field')) return key === 'Escape';
  if ((key === ' ' || key === 'Enter') && (at(event, 'cell') || at(event, 'button'))) return false;
  return !(key.startsWith('Arrow') && at(event, 'cell'));
}

/** ←/→ move between steps, except while typing, moving inside a matrix, or in a dialog. */
const stepKeyCounts = (event) =>
  !event.defaultPrevented && !at(event, 'field') && !at(event, 'cell') && !at(event, 'dialog');

/** Undo and redo outside a text field (where Ctrl+Z undoes the typing, as the browser does). */
const editKeyCounts = (event) => !event.defaultPrevented && !at(event, 'field');

/** A classroom entry: the mode's action `action`, its keys, and the bar's button that asks for it too. */
const classroom = (action, keys, clicks, { when = () => true } = {}) => ({
  name: `classroom-${action}`,
  layer: 'classroom',
  keys,
  where: classroomKeyCounts,
  // In a lab only full screen, blank and leave are the mode's (its page keys scroll it), but any
  // of them brings a blanked lab back (controller/classroom.js act).
  when: (ctx) => inClassroom(ctx.page.state) && ctx.classroom.takes(action) && when(ctx),
  prevent: true,
  clicks,
  perform: (ctx) => ctx.classroom.act(action),
});

/** Every action, in the order the keys are tried. */
export const ACTIONS = Object.freeze([
  {
    name: 'close-popover',
    layer: 'popover',
    keys: ['Escape'],
    anyModifiers: true, // as Escape closes a dialog: whatever else is held
    when: (ctx) => ctx.explain.isOpen(),
    perform: (ctx) => ctx.explain.closeFromKey(),
  },
  classroom('next', ['ArrowRight', 'PageDown', ' ', 'Enter'], '#classroom-next'),
  classroom('previous', ['ArrowLeft', 'PageUp'], '#classroom-prev'),
  classroom('first', ['Home']),
  classroom('last', ['End']),
  classroom('play', ['p', 'P'], '#classroom-play'),
  classroom('fullscreen', ['f', 'F'], '#classroom-fullscreen'),
  classroom('blank', ['b', 'B', '.']),
  // Escape closes an open popover first (the layer above); in full screen it leaves full screen first.
  classroom('leave', ['Escape'], '#classroom-leave', { when: (ctx) => ctx.page.$('cell-explain').hidden }),
  {
    name: 'classroom-enter',
    layer: 'page',
    clicks: '#classroom-button',
    perform: (ctx) => ctx.classroom.enter(),
  },
  {
    name: 'classroom-copy',
    layer: 'page',
    clicks: '#classroom-copy',
    perform: (ctx) => ctx.classroom.copyLink(),
  },
  {
    name: 'next-step',
    layer: 'page',
    keys: ['ArrowRight'],
    where: stepKeyCounts,
    // Not in the labs, nor in an embed fixed to its step (no nav=1).
    when: (ctx) => ctx.page.state.view === 'steps' && ctx.nav.shown(),
    clicks: '#nav #next',
    perform: (ctx) => ctx.nav.go(ctx.page.state.step + 1),
  },
  {
    name: 'previous-step',
    layer: 'page',
    keys: ['ArrowLeft'],
    where: stepKeyCounts,
    when: (ctx) => ctx.page.state.view === 'steps' && ctx.nav.shown(),
    clicks: '#nav #prev',
    perform: (ctx) => ctx.nav.go(ctx.page.state.step - 1),
  },
  {
    name: 'go-to-step',
    layer: 'page',
    clicks: '#nav .map-node',
    perform: (ctx, event, button) => ctx.nav.go(Number(button.dataset.step)),
  },
  {
    name: 'undo',
    layer: 'page',
    keys: ['Mod+z'],
    where: editKeyCounts,
    prevent: true,
    clicks: '#undo-bar #undo',
    perform: (ctx) => ctx.undo.undo(),
  },
  {
    name: 'redo',
    layer: 'page',
    keys: ['Mod+Shift+z', 'Mod+y', 'Mod+Shift+y'],
    where: editKeyCounts,
    prevent: true,
    clicks: '#undo-bar #redo',
    perform: (ctx) => ctx.undo.redo(),
  },
  {
    // A click or a tap on a cell opens it too: that is the popover's pointer model
    // (controller/explain.js: hovering shows, a click pins), beside its hover and focus.
    name: 'open-popover',
    layer: 'page',
    keys: ['Enter', ' '],
    anyModifiers: true,
    when: (ctx, event) => ctx.explain.shownCell(event.target) !== null,
    prevent: true,
    perform: (ctx, event) => ctx.explain.openFromKey(event.target),
  },
  {
    name: 'choose-word',
    layer: 'page',
    clicks: '#stage-body .row-pick',
    perform: (ctx, event, button) => ctx.stage.chooseRow(Number(button.dataset.row)),
  },
]);

/** Whether key `spec` ('ArrowRight', 'Mod+Shift+z') is the key of `event`. */
export function keyMatches(spec, event, { anyModifiers = false } = {}) {
  const parts = spec.split('+');
  const key = parts.pop();
  if (parts.includes('Mod'))
    return (
      (event.ctrlKey || event.metaKey) &&
      !event.altKey &&
      event.shiftKey === parts.includes('Shift') &&
      event.key.toLowerCase() === key
    );
  if (!anyModifiers && (event.ctrlKey || event.altKey || event.metaKey)) return false;
  return event.key === key;
}

/** Whether `event`'s key is one of `entry`'s, pressed where its keys count. */
export const asks = (entry, event) =>
  Boolean(entry.keys?.some((spec) => keyMatches(spec, event, entry)) && (entry.where?.(event) ?? true));

/** The entry a key asks for now, or null. */
export const actionFor = (event, ctx) =>
  ACTIONS.find((entry) => asks(entry, event) && (entry.when?.(ctx, event) ?? true)) ?? null;

const byName = new Map(ACTIONS.map((entry) => [entry.name, entry]));
const PLAY = byName.get('classroom-play');

/** The part: the page's one keydown listener and its one listener for the buttons' clicks. */
export function createActions(page, parts) {
  const { document } = page.dom;
  const events = listeners();
  const ctx = { page, ...parts };

  /** Performs the action `name`, as its button does (`element`: the button). */
  function perform(name, event, element) {
    const entry = byName.get(name);
    if (!entry) throw new Error(`no action named ${name}`);
    entry.perform(ctx, event, element);
  }

  // Bubbling, after the focused widget's own keys (a nudged arrow head marks the key it took).
  events.on(document, 'keydown', (event) => {
    // Any key while the classroom's auto-advance plays pauses it, but its own P.
    ctx.classroom.heard({ play: asks(PLAY, event) });
    const entry = actionFor(event, ctx);
    if (!entry) return;
    if (entry.prevent) event.preventDefault(); // taken: the browser's own use of the key is not
    entry.perform(ctx, event);
  });
  // Captured, so that a button's action comes before the popover hears the click (as the
  // buttons' own handlers did): a step moved, then a pinned popover closed.
  events.on(
    document,
    'click',
    (event) => {
      for (const entry of ACTIONS) {
        const element = entry.clicks && event.target.closest?.(entry.clicks);
        if (element) return perform(entry.name, event, element);
      }
    },
    { capture: true },
  );

  return { perform, destroy: () => events.removeAll(), listeners: events };
}
