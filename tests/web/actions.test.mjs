// The reader's actions in one table (web/src/controller/actions.js): each has a name and its own
// keys, a key asks for one action where it is pressed (not while typing, not inside a matrix …),
// and the page listens for keys in one place — no other file of web/src adds a keyboard listener
// but the widgets whose own keys stay theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ACTIONS, actionFor, asks } from '../../web/src/controller/actions.js';
import { actsIn } from '../../web/src/classroom.js';
import { defaultState } from '../../web/src/state.js';

const LAYERS = ['popover', 'classroom', 'page'];

/** A key spec as it compares: 'Mod+Shift+z', 'ArrowRight'. */
const canonical = (spec) => {
  const parts = spec.split('+');
  const key = parts.pop();
  return [...parts.sort(), parts.includes('Mod') ? key.toLowerCase() : key].join('+');
};

test('every action has a name of its own, a layer, something that asks for it, and what it does', () => {
  const names = ACTIONS.map((entry) => entry.name);
  assert.equal(new Set(names).size, names.length, 'no two actions share a name');
  for (const entry of ACTIONS) {
    assert.match(entry.name, /^[a-z]+(-[a-z]+)*$/, entry.name);
    assert.ok(LAYERS.includes(entry.layer), `${entry.name}: its layer`);
    assert.equal(typeof entry.perform, 'function', `${entry.name}: perform`);
    assert.ok(entry.keys?.length || entry.clicks, `${entry.name}: a key or a button asks for it`);
  }
  // Tried in the layers' order: the open popover, the classroom mode, the page.
  const order = ACTIONS.map((entry) => LAYERS.indexOf(entry.layer));
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
  );
});

test('within a layer each key asks for one action, and each button for one', () => {
  for (const layer of LAYERS) {
    const keys = ACTIONS.filter((entry) => entry.layer === layer).flatMap((entry) => entry.keys ?? []);
    const seen = keys.map(canonical);
    assert.equal(new Set(seen).size, seen.length, `${layer}: ${seen.join(' ')}`);
  }
  const buttons = ACTIONS.flatMap((entry) => (entry.clicks ? [entry.clicks] : []));
  assert.equal(new Set(buttons).size, buttons.length);
});

/** A key's target: an element inside `inside` (selectors: 'input', 'td.pick', 'button', 'dialog'), or the page. */
const target = (...inside) => ({
  closest: (selectors) => (selectors.split(',').some((s) => inside.includes(s.trim())) ? {} : null),
});
const key = (name, { on = target(), ...mods } = {}) => ({
  key: name,
  target: on,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  defaultPrevented: false,
  ...mods,
});

/** The page around the table: the article's step 3 of 9, the popover open or not, the classroom mode on or not. */
function pageAt({ view = 'steps', classroom = false, popover = false, blank = false } = {}) {
  const state = { ...defaultState(), view, classroom, step: 3 };
  return {
    page: { state, $: (id) => ({ hidden: id === 'cell-explain' ? !popover : false }) },
    nav: { shown: () => true },
    explain: { isOpen: () => popover, shownCell: (t) => t?.closest?.('td.pick') ?? null },
    classroom: { takes: (action) => actsIn(view, action) || blank },
  };
}
const asked = (event, ctx = pageAt()) => actionFor(event, ctx)?.name ?? null;

test('→ and ← move between the steps, except while typing, inside a matrix or a dialog, with Alt, Ctrl or ⌘, and in a lab', () => {
  assert.equal(asked(key('ArrowRight')), 'next-step');
  assert.equal(asked(key('ArrowLeft')), 'previous-step');
  assert.equal(asked(key('ArrowRight', { shiftKey: true })), 'next-step');
  assert.equal(asked(key('ArrowRight', { on: target('button') })), 'next-step');
  for (const inside of ['input', 'td.pick', 'dialog'])
    assert.equal(asked(key('ArrowRight', { on: target(inside) })), null, inside);
  for (const mod of ['altKey', 'ctrlKey', 'metaKey']) assert.equal(asked(key('ArrowLeft', { [mod]: true })), null, mod);
  assert.equal(asked(key('ArrowRight', { defaultPrevented: true })), null, "a key §3's arrow head took");
  assert.equal(asked(key('ArrowRight'), pageAt({ view: 'scale-lab' })), null);
});

test('Ctrl+Z undoes; Ctrl+Shift+Z, Ctrl+Y redo (⌘ on a Mac); in a text field they are the field’s', () => {
  assert.equal(asked(key('z', { ctrlKey: true })), 'undo');
  assert.equal(asked(key('z', { metaKey: true })), 'undo');
  assert.equal(asked(key('Z', { ctrlKey: true, shiftKey: true })), 'redo');
  assert.equal(asked(key('y', { ctrlKey: true })), 'redo');
  assert.equal(asked(key('Y', { ctrlKey: true, shiftKey: true })), 'redo');
  assert.equal(asked(key('z')), null, 'z alone is typed');
  assert.equal(asked(key('z', { ctrlKey: true, altKey: true })), null);
  assert.equal(asked(key('z', { ctrlKey: true, on: target('input') })), null);
  assert.equal(asked(key('z', { ctrlKey: true, on: target('td.pick') })), 'undo', 'a matrix cell is not a text field');
});

test('Enter or Space on a cell opens its popover; Escape closes it, before it leaves the classroom mode', () => {
  const onCell = target('td.pick');
  assert.equal(asked(key('Enter', { on: onCell })), 'open-popover');
  assert.equal(asked(key(' ', { on: onCell })), 'open-popover');
  assert.equal(asked(key('Enter')), null, 'Enter on the page is no action');
  assert.equal(asked(key('Escape'), pageAt({ popover: true })), 'close-popover');
  assert.equal(asked(key('Escape')), null, 'nothing to close');
  assert.equal(asked(key('Escape'), pageAt({ classroom: true, popover: true })), 'close-popover');
  assert.equal(asked(key('Escape'), pageAt({ classroom: true })), 'classroom-leave');
  // A cell's Enter is its popover's in the classroom mode too, not the next step.
  assert.equal(asked(key('Enter', { on: onCell }), pageAt({ classroom: true })), 'open-popover');
});

test('classroom keys: →, PageDown, Space, Enter next; ←, PageUp previous; Home, End; P, F, B or ., Escape', () => {
  const inClass = pageAt({ classroom: true });
  const at = (name, on, mods = {}) => asked(key(name, { on, ...mods }), inClass)?.replace('classroom-', '') ?? null;
  for (const name of ['ArrowRight', 'PageDown', ' ', 'Enter']) assert.equal(at(name), 'next', name);
  for (const name of ['ArrowLeft', 'PageUp']) assert.equal(at(name), 'previous', name);
  assert.deepEqual(
    ['Home', 'End', 'p', 'P', 'f', 'F', 'b', 'B', '.', 'Escape', 'x', 'Tab'].map((name) => at(name)),
    ['first', 'last', 'play', 'play', 'fullscreen', 'fullscreen', 'blank', 'blank', 'blank', 'leave', null, null],
  );
  // The browser's shortcuts stay the browser's.
  assert.equal(at('ArrowRight', target(), { altKey: true }), null);
  assert.equal(at('p', target(), { ctrlKey: true }), null);
  assert.equal(at('f', target(), { metaKey: true }), null);
  // A field keeps its keys (but Escape leaves); a button's Space and Enter press it; a matrix
  // cell's arrows, Space and Enter are the popover's — a clicker's PageDown still steps.
  const field = target('input');
  assert.deepEqual(
    ['ArrowRight', 'p', 'Enter', 'PageDown', 'Escape'].map((name) => at(name, field)),
    [null, null, null, null, 'leave'],
  );
  const button = target('button');
  assert.deepEqual(
    [' ', 'Enter', 'ArrowRight', 'PageDown'].map((name) => at(name, button)),
    [null, null, 'next', 'next'],
  );
  const cell = target('td.pick');
  assert.deepEqual(
    [' ', 'Enter', 'ArrowRight', 'ArrowLeft', 'PageDown', 'PageUp'].map((name) => at(name, cell)),
    ['open-popover', 'open-popover', null, null, 'next', 'previous'],
  );
});

test("in a lab the classroom's page keys are the browser's (they scroll it), unless the screen is blank", () => {
  const lab = pageAt({ view: 'cost-lab', classroom: true });
  assert.equal(asked(key('PageDown'), lab), null);
  assert.equal(asked(key('ArrowRight'), lab), null);
  assert.equal(asked(key('f'), lab), 'classroom-fullscreen');
  assert.equal(asked(key('b'), lab), 'classroom-blank');
  // Blanked, any of them brings the lab back (controller/classroom.js act).
  assert.equal(asked(key('PageDown'), pageAt({ view: 'cost-lab', classroom: true, blank: true })), 'classroom-next');
  // P is the classroom's play key wherever the mode is on (a key pressed while playing pauses, but P).
  const play = ACTIONS.find((entry) => entry.name === 'classroom-play');
  assert.equal(asks(play, key('P')), true);
  assert.equal(asks(play, key('p', { on: target('input') })), false);
});

// ---- One place listens for keys ----

const SRC = 'web/src';
// The table's listener, and the widgets whose keys are their own keyboard model (ARIA's patterns:
// a grid's arrows move between its cells, a slider's thumb moves with the arrows, a field's Enter
// submits it, a dialog's Escape closes it). Each adds its listener on its own element, but the
// efficiency lab's popover, which hears Escape on the document while that lab is open.
const KEY_LISTENERS = {
  'controller/actions.js': 'the page’s one keydown listener',
  'controller/explain.js': 'the arrows between a matrix’s cells on the stage (views/grid-keys.js)',
  'controller/arrows.js': '§3’s arrow heads: the arrows move the focused head',
  'features/exercise/exercise-answer.js': 'Enter in the answer field checks it',
  'features/train-lab/train-lab-attention.js': 'the arrows between the cells of the training lab’s A',
  'features/efficiency-lab/efficiency-popover.js': 'Escape closes the lab’s own popover',
  'features/efficiency-lab/efficiency-parts.js': '←/→, Home and End inside a stepper of the lab, on its own group',
};
const ON_DOCUMENT = ['controller/actions.js', 'features/efficiency-lab/efficiency-popover.js'];

/** Every .js file of web/src as { file (from web/src), text }. */
const sources = () =>
  fs
    .readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .map((file) => ({ file: path.relative(SRC, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }));

/**
 * The keyboard listeners in `files`: an event name 'keydown' / 'keyup' / 'keypress' written as a
 * string (addEventListener, listeners().on, a helper's on), or an onkeydown … handler. `document`
 * says whether the call names the document or the window before it.
 */
function keyListeners(files) {
  const found = [];
  for (const { file, text } of files) {
    const code = text.replace(/^\s*(\/\/|\*).*$/gm, ''); // not the comments that name them
    for (const match of code.matchAll(/['"`]key(?:down|up|press)['"`]|\bonkey(?:down|up|press)\b/g)) {
      // From the start of the line the call opens on: `document.addEventListener(`, `events.on(\n document,`.
      const call = code.slice(code.lastIndexOf('\n', code.lastIndexOf('(', match.index)) + 1, match.index);
      if (/removeEventListener\s*\(\s*$/.test(call)) continue; // the same listener, taken away
      found.push({ file, document: /\b(document|window)\b/.test(call) });
    }
  }
  return found;
}

test('the page listens for keys in one place: the table’s one listener on the document, and the widgets’ own', () => {
  const found = keyListeners(sources());
  const strays = found.filter(({ file }) => !(file in KEY_LISTENERS)).map(({ file }) => file);
  assert.deepEqual(strays, [], 'a key of the page is an entry of controller/actions.js');
  const onDocument = found.filter((listener) => listener.document).map(({ file }) => file);
  assert.deepEqual(onDocument.sort(), [...ON_DOCUMENT].sort());
  assert.equal(found.filter(({ file }) => file === 'controller/actions.js').length, 1);
  for (const file of Object.keys(KEY_LISTENERS))
    assert.ok(
      found.some((listener) => listener.file === file),
      `${file} is listed but has no key listener`,
    );
});

test('the check finds a key listener planted in any file, in each way the page writes one', () => {
  const planted = [
    "document.addEventListener('keydown', go);",
    "  events.on(\n    document,\n    'keydown',\n    (event) => go(event),\n  );",
    'window.addEventListener("keyup", go);',
    "h('div', { onkeydown: go });",
  ];
  for (const text of planted) {
    const found = keyListeners([...sources(), { file: 'controller/planted.js', text }]);
    assert.ok(
      found.some(({ file }) => file === 'controller/planted.js' && !(file in KEY_LISTENERS)),
      text,
    );
  }
  // Named in a comment, or taken away, it is not a listener.
  assert.deepEqual(keyListeners([{ file: 'x.js', text: "// the page's 'keydown' listener is in actions.js" }]), []);
  assert.deepEqual(keyListeners([{ file: 'x.js', text: "document.removeEventListener('keydown', go);" }]), []);
});
