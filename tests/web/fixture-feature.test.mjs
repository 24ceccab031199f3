// A feature is a folder and a registry line (docs/architecture.md, "How to add a feature"): a
// fixture feature (tests/fixtures/feature/, not shipped) registered beside the real ones, with no
// other file changed, is a view of the page — in the view switch, in the link with its own fields
// (written only in its view, read back as written, a contradiction refused), in both dictionaries.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { installFakeDom } from './fake-dom.mjs';

let state, i18n, viewSwitch;
before(async () => {
  register('../fixtures/feature/hooks.mjs', import.meta.url);
  state = await import('../../web/src/state.js');
  i18n = await import('../../web/src/i18n/index.js');
  installFakeDom();
  globalThis.requestAnimationFrame = () => {}; // the view switch scrolls its row at the next frame: no frames here
  viewSwitch = await import('../../web/src/views/view-switch.js');
});

test('the fixture’s view follows the real ones, the stepper first', () => {
  assert.deepEqual(state.VIEWS, [
    'steps',
    'scale-lab',
    'cost-lab',
    'exercise',
    'train-lab',
    'efficiency-lab',
    'fixture-lab',
  ]);
});

test('its fields: in the link only in its view, read back as written', () => {
  const { defaultState, serializeState, parseState } = state;
  assert.equal(defaultState().fixrows, 2);
  const link = serializeState({ ...defaultState(), view: 'fixture-lab', fixrows: 5, fixrow: 3 });
  assert.match(link, /view=fixture-lab/);
  assert.match(link, /fixrows=5/);
  const back = parseState(link).state;
  assert.deepEqual([back.view, back.fixrows, back.fixrow], ['fixture-lab', 5, 3]);
  assert.doesNotMatch(serializeState({ ...defaultState(), fixrows: 5 }), /fixrows/, 'not in the stepper’s link');
});

test('a link its rule refuses opens the default, with a notice', () => {
  const { state: opened, notice } = state.parseState('#view=fixture-lab&fixrows=2&fixrow=7');
  assert.equal(opened.view, 'steps');
  assert.ok(notice);
});

test('its words are in both dictionaries, and its link in the view switch', () => {
  assert.equal(i18n.translate('zh-CN', 'view.fixture-lab'), '测试用的实验');
  assert.equal(i18n.translate('en', 'view.fixture-lab'), 'A test lab');
  const root = document.createElement('nav');
  const t = i18n.translator('zh-CN');
  viewSwitch.renderViewSwitch(root, { state: state.defaultState(), t, onView: () => {} });
  const link = root.all('a').find((a) => a.dataset.view === 'fixture-lab');
  assert.ok(link, 'a link to the fixture’s view');
  assert.equal(link.textContent, '测试用的实验');
  assert.match(link.getAttribute('href'), /view=fixture-lab/);
});
