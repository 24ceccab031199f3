// The controller's parts (web/src/controller/): each registers its own listeners and its destroy()
// removes every one of them — on the stage, on the buttons, on document and window — so that after
// destroy a key, a hash change or a click reaches none of them. Run on fake browser objects.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createPage } from '../../web/src/controller/page.js';
import { createParts } from '../../web/src/controller/wiring.js';
import { createUrlSync } from '../../web/src/controller/url-sync.js';
import { createUndo } from '../../web/src/controller/undo.js';
import { createClassroom } from '../../web/src/controller/classroom.js';
import { createActions } from '../../web/src/controller/actions.js';
import { listeners } from '../../web/src/controller/listeners.js';
import { defaultState, setCell, setOption } from '../../web/src/state.js';

/** An event target that knows which listeners it holds. */
class Tracked extends EventTarget {
  constructor(name) {
    super();
    this.name = name;
    this.dataset = {};
  }
  addEventListener(type, handler, options) {
    this.handlers = [...(this.handlers ?? []), [type, handler]];
    super.addEventListener(type, handler, options);
  }
  removeEventListener(type, handler, options) {
    const at = (this.handlers ?? []).findIndex(([t, h]) => t === type && h === handler);
    if (at >= 0) this.handlers.splice(at, 1);
    super.removeEventListener(type, handler, options);
  }
  get count() {
    return (this.handlers ?? []).length;
  }
  // What the views ask of an element, as no-ops: these tests are about listeners and timers.
  setAttribute() {}
  removeAttribute() {}
  focus() {}
  closest() {
    return null;
  }
  classList = { toggle() {}, remove() {} };
  style = { setProperty() {}, removeProperty() {} };
}

function fakeBrowser() {
  const elements = new Map();
  const element = (id) => {
    if (!elements.has(id)) elements.set(id, new Tracked(id));
    return elements.get(id);
  };
  const document = new Tracked('document');
  Object.assign(document, { getElementById: element, body: { dataset: {} }, activeElement: null });
  const window = new Tracked('window');
  Object.assign(window, {
    setTimeout,
    clearTimeout,
    requestAnimationFrame: (fn) => setTimeout(fn, 0),
    cancelAnimationFrame: clearTimeout,
  });
  const dark = new Tracked('matchMedia');
  dark.matches = false;
  const dom = {
    document,
    window,
    location: { hash: '', href: 'http://localhost/' },
    history: { replaceState() {} },
    matchMedia: () => dark,
  };
  const targets = () => [document, window, dark, ...elements.values()];
  return { dom, targets };
}

const host = { state() {}, hostListens: () => false, open() {}, ready() {} };

/** Every listener the fake browser's objects hold. */
const held = (targets) => targets().reduce((sum, target) => sum + target.count, 0);

test('every part removes the listeners it added, and only those, when destroyed', () => {
  const { dom, targets } = fakeBrowser();
  const page = createPage({ dom, host, state: defaultState(), notice: null });
  const parts = createParts(page, { labViews: {} });
  const counted = Object.values(parts).reduce((sum, part) => sum + (part.listeners?.size ?? 0), 0);
  assert.equal(held(targets), counted, 'each listener is counted by the part that added it');
  for (const [name, part] of Object.entries(parts)) {
    const [before, own] = [held(targets), part.listeners?.size ?? 0];
    part.destroy();
    assert.equal(before - held(targets), own, `${name} removed what it added, and only that`);
  }
  for (const target of targets()) assert.equal(target.count, 0, `a listener left on ${target.name}`);
});

test('the parts listen where their concern is: the popover on the stage, document and window; the URL on window; the keys on document', () => {
  const { dom } = fakeBrowser();
  const page = createPage({ dom, host, state: defaultState(), notice: null });
  const parts = createParts(page, { labViews: {} });
  assert.equal(parts.explain.listeners.size, 9); // 7 on the stage (the grid's arrows among them), a click outside, resize
  assert.equal(parts.url.listeners.size, 3); // hashchange, popstate (Back, Forward), pagehide
  assert.equal(parts.actions.listeners.size, 2); // every key, every button's click
  // One keydown listener for the whole page (controller/actions.js), on the document.
  const keyListeners = (target) => (target.handlers ?? []).filter(([type]) => type.startsWith('key')).length;
  assert.deepEqual([keyListeners(dom.document), keyListeners(dom.window)], [1, 0]);
  const stage = dom.document.getElementById('stage-body');
  assert.ok(stage.count >= 7);
  page.destroy();
  assert.equal(stage.count, 0);
  assert.equal(dom.document.count, 0);
  assert.equal(dom.window.count, 0);
});

test('after destroy a hash change commits nothing', () => {
  const { dom } = fakeBrowser();
  const page = createPage({ dom, host, state: defaultState(), notice: null });
  let commits = 0;
  page.commit = () => commits++;
  page.use('url', createUrlSync(page, { explain: { close() {} } }));
  dom.location.hash = '#step=3';
  dom.window.dispatchEvent(new Event('hashchange'));
  assert.equal(commits, 1);
  page.destroy();
  dom.window.dispatchEvent(new Event('hashchange'));
  assert.equal(commits, 1);
});

test('Back and Forward move between steps: a new step is a history entry, an edit replaces it, an embed adds none', () => {
  const { dom } = fakeBrowser();
  const entries = [];
  dom.history = {
    pushState: (state, _, hash) => entries.push(['push', (dom.location.hash = hash), state]),
    replaceState: (state, _, hash) => entries.push(['replace', (dom.location.hash = hash), state]),
  };
  const page = createPage({ dom, host, state: defaultState(), notice: null });
  const url = page.use('url', createUrlSync(page, { explain: { close() {} } }));
  entries.length = 0; // the entry the page opened in, marked as the page's
  const step = (state, n) => ({ ...state, step: n });
  // A commit, and the frame that shows it painted: the URL follows then (url.flush() stands for it).
  const at = (next, options = {}) => {
    const previous = page.state;
    page.state = next;
    url.committed(next, previous, options);
    url.flush();
  };
  at(step(page.state, 3)); // the article's step 3, S = QKᵀ
  at({ ...page.state, digits: 2 }); // 0.67 instead of 0.6698: an edit of the same step
  at(step(page.state, 4));
  at({ ...page.state, digits: 6 }); // an edit at step 4
  assert.deepEqual(
    entries.map(([how, hash]) => [how, hash.match(/step=\d/)?.[0] ?? 'step=1']),
    [
      ['push', 'step=3'],
      ['replace', 'step=3'],
      ['push', 'step=4'],
      ['replace', 'step=4'],
    ],
  );
  // Back: the browser shows step 3's URL and fires popstate; the page goes to step 3 and keeps
  // the edit made since (Back is not undo).
  let followed = null;
  page.commit = (next) => (followed = next);
  dom.location.hash = entries[1][1];
  dom.window.dispatchEvent(Object.assign(new Event('popstate'), { state: entries[1][2] }));
  assert.equal(followed.step, 3);
  assert.equal(followed.digits, 6);
  // A hash typed by hand fires popstate for an entry the page did not write: hashchange reads that.
  followed = null;
  dom.location.hash = '#step=7';
  dom.window.dispatchEvent(new Event('popstate'));
  assert.equal(followed, null);
  dom.window.dispatchEvent(new Event('hashchange'));
  assert.equal(followed.step, 7);
  // A write still waiting when a hash is typed (its timer runs before the hashchange does) leaves
  // the typed hash for the hashchange to read; the write after that goes ahead.
  entries.length = 0;
  followed = null;
  const waitingStep = { ...page.state, step: 8 };
  url.committed(waitingStep, page.state, {});
  dom.location.hash = '#step=2';
  url.flush();
  assert.deepEqual(entries, []);
  assert.equal(dom.location.hash, '#step=2');
  dom.window.dispatchEvent(new Event('hashchange'));
  assert.equal(followed.step, 2);
  page.state = followed;
  url.committed(followed, waitingStep, { fromUrl: true });
  url.flush();
  assert.deepEqual(
    entries.map(([how, hash]) => [how, hash.match(/step=\d/)[0]]),
    [['replace', 'step=2']],
  );
  // A step and an edit within one frame: one new entry, with both.
  entries.length = 0;
  const waiting = (next, options = {}) => {
    const previous = page.state;
    page.state = next;
    url.committed(next, previous, options);
  };
  waiting(step(page.state, 5));
  waiting({ ...page.state, digits: 3 }, { edit: true });
  assert.deepEqual(entries, [], 'nothing is written before the frame');
  url.flush();
  assert.deepEqual(
    entries.map(([how, hash]) => [how, /step=5/.test(hash) && /digits=3/.test(hash)]),
    [['push', true]],
  );
  // A step still waiting when Back is pressed is dropped: the entry Back went to is replaced.
  entries.length = 0;
  waiting(step(page.state, 6));
  waiting(step(page.state, 4), { fromUrl: true });
  url.flush();
  assert.deepEqual(
    entries.map(([how, hash]) => [how, hash.match(/step=\d/)[0]]),
    [['replace', 'step=4']],
  );
  // An embed's steps replace its one entry: its host's Back belongs to the host's page.
  entries.length = 0;
  at({ ...step(page.state, 5), embed: true });
  assert.deepEqual(
    entries.map(([how]) => how),
    ['replace'],
  );
  page.destroy();
});

test('undo: typing into one cell is one entry; steps and the language are kept; redo; reset returns a matrix to the example', () => {
  const { dom } = fakeBrowser();
  const page = createPage({ dom, host, state: defaultState(), notice: null });
  const undo = page.use('undo', createUndo(page));
  // A commit as page.js makes one, without the engine: the parts are told, nothing is computed.
  page.commit = (next, { edit = false } = {}) => {
    const previous = page.state;
    page.state = next;
    undo.committed(next, previous, { edit });
    return true;
  };
  const q11 = () => page.state.mats.q[0][0];
  // The article's Q₁₁ = 1, typed as "2", then "25": one cell, one entry.
  page.commit(setCell(page.state, 'q', 0, 0, 2), { edit: true });
  page.commit(setCell(page.state, 'q', 0, 0, 25), { edit: true });
  page.commit(setOption(page.state, 'scale', 'dk')); // ÷ d_k: a second entry
  page.commit({ ...page.state, step: 4, lang: 'en' }); // moving and the language: no entry
  undo.undo(); // back to ÷ √d_k, Q₁₁ = 25
  assert.equal(page.state.scale, 'sqrt_dk');
  assert.equal(q11(), 25);
  assert.deepEqual([page.state.step, page.state.lang], [4, 'en'], 'the step and the language stay');
  undo.undo(); // back to the article's Q₁₁ = 1
  assert.equal(q11(), 1);
  undo.undo(); // nothing left: nothing changes
  assert.equal(q11(), 1);
  undo.redo();
  assert.equal(q11(), 25);
  // Reset Q: the example's values; K, edited after, is not touched by it.
  assert.equal(undo.resettable('q'), true);
  assert.equal(undo.resettable('k'), false, 'K is as the example gave it');
  undo.reset('q');
  assert.equal(q11(), 1);
  assert.equal(undo.resettable('q'), false);
  undo.undo(); // the reset is an edit too
  assert.equal(q11(), 25);
  page.destroy();
});

test('classroom: the auto-advance moves on at its pace, stops at the last step, and leaves no timer running', () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const { dom } = fakeBrowser();
  // The timers the page has asked for and not yet seen fire or cleared.
  const live = new Set();
  Object.assign(dom.window, {
    setTimeout: (fn, ms) => {
      const id = setTimeout(() => live.delete(id) && fn(), ms);
      live.add(id);
      return id;
    },
    clearTimeout: (id) => live.delete(id) && clearTimeout(id),
    innerWidth: 1280,
    innerHeight: 720,
    scrollY: 0,
  });
  // What the bar and the fit read of the page (no layout here: everything fits).
  Object.assign(dom.document, {
    documentElement: new Tracked('html'),
    querySelector: () => ({ getBoundingClientRect: () => ({ bottom: 0 }) }),
  });
  dom.document.getElementById('stage-body').querySelectorAll = () => [];
  dom.document.getElementById('classroom-bar').offsetHeight = 40;
  const state = { ...defaultState(), classroom: true, pace: 1 };
  const page = createPage({ dom, host, state, notice: null });
  // The step navigation as nav's go(); the URL part's flush() (a copied link) is not used here.
  const nav = { go: (step) => page.commit({ ...page.state, step }) };
  const classroom = page.use('classroom', createClassroom(page, { nav, url: { flush() {} } }));
  const actions = page.use('actions', createActions(page, { classroom, nav }));
  // A commit as page.js makes one, without the engine; the step navigation as nav's go().
  page.commit = (next) => {
    const previous = page.state;
    page.state = next;
    classroom.committed(next, previous, {});
    return true;
  };
  const play = () => actions.perform('classroom-play'); // as the bar's button does

  play();
  assert.equal(classroom.playing(), true);
  mock.timers.tick(1100); // one pace: the article's step 2
  assert.equal(page.state.step, 2);
  assert.equal(classroom.playing(), true);
  // A key pauses (any key but P); P plays again.
  dom.document.dispatchEvent(Object.assign(new Event('keydown'), { key: 'x' }));
  assert.equal(classroom.playing(), false);
  assert.equal(live.size, 0, 'paused: no timer');
  mock.timers.tick(3000);
  assert.equal(page.state.step, 2, 'paused: no step');
  play();
  // Leaving the mode stops it.
  page.commit({ ...page.state, classroom: false });
  assert.equal(classroom.playing(), false);
  assert.equal(live.size, 0, 'left the mode: no timer');
  // Back in the mode at step 8 of 9: it moves to 9, the last, and stops there.
  page.commit({ ...page.state, classroom: true, step: 8 });
  play();
  mock.timers.tick(1100);
  assert.equal(page.state.step, 9);
  assert.equal(classroom.playing(), false);
  assert.equal(live.size, 0, 'the last step: no timer');
  mock.timers.tick(5000);
  assert.equal(page.state.step, 9);
  // destroy() while playing: no timer, no listener.
  page.commit({ ...page.state, step: 3 });
  play();
  assert.equal(live.size, 1);
  page.destroy();
  assert.equal(live.size, 0, 'destroyed: no timer');
  mock.timers.reset();
});

test('listeners(): removeAll takes away every listener it added', () => {
  const target = new Tracked('t');
  const events = listeners();
  let heard = 0;
  events.on(target, 'ping', () => heard++);
  events.on(target, 'ping', () => heard++);
  target.dispatchEvent(new Event('ping'));
  assert.equal(heard, 2);
  assert.equal(events.size, 2);
  events.removeAll();
  target.dispatchEvent(new Event('ping'));
  assert.equal(heard, 2);
  assert.equal(target.count, 0);
});
