// Issue 26, item 4: the backward steps' popovers are whole. Every cell of every kind of every
// backward step is expanded — one head, and two (the layer's dO, dW_O, d(concat), the head's block,
// dX), a row and a column softmax, a causal mask, the loss ½‖AV − Y‖² and dO given, Q, K, V
// directly and from X, sums written out and folded — in both languages, and no line has an empty
// operand ("A₁₁(dA₁₁ − )", "( +", "= ="). The views run on a fake DOM (fake-dom.mjs) in which a
// node written twice leaves its first place, as in a browser; the numbers are the wasm core's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { installFakeDom } from './fake-dom.mjs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import { defaultState, choosePreset, resize, setOption, setLoss, switchMode } from '../../web/src/state.js';
import { translator } from '../../web/src/i18n/index.js';
import { stateTokens } from '../../web/src/words.js';
import { toRows } from '../../web/src/matrix.js';
import { stepsFor, stepFigures, FIGURES } from '../../web/src/steps.js';

installFakeDom();
const { renderExplain, cellCols } = await import('../../web/src/views/explain.js');
const { BACKWARD_KINDS } = await import('../../web/src/views/explain-backward.js');

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

/** The state with a loss chosen as the page chooses it (setLoss: Y starts as the head's V). */
function withLoss(state, loss) {
  const model = computeModel(engine, state);
  return setLoss(state, loss, { v: toRows(model.v) });
}

/** The states the sweep walks: each a name and a state with a loss. */
function states() {
  const article = defaultState();
  const cat = choosePreset(defaultState(), 'cat');
  const heads = choosePreset(defaultState(), 'heads');
  const wide = resize(choosePreset(setOption(defaultState(), 'seed', 5), 'random'), { n: 8, dk: 3, dv: 3 });
  const fromX = switchMode(article, 'x', computeModel(engine, article));
  return [
    ['the worked example, ½‖AV − Y‖²', withLoss(article, 'mse')],
    ['the worked example, dO given', withLoss(article, 'given')],
    ['from X ("它 是 猫"), ½‖AV − Y‖²', withLoss(cat, 'mse')],
    ['the worked example from X, dO given', withLoss(fromX, 'given')],
    ['2 heads, head 2', { ...withLoss(heads, 'mse'), head: 2 }],
    ['a column softmax', withLoss(setOption(cat, 'axis', 'column'), 'mse')],
    ['a causal mask', withLoss(setOption(cat, 'mask', 'causal'), 'mse')],
    ['n = 8, sums folded', withLoss(wide, 'mse')],
  ];
}

/**
 * The kinds of cell the backward steps of `state` let a reader expand, each with the model field its
 * figure is drawn from: [kind (steps.js FIGURE pick), field (FIGURES)].
 */
function backwardPicks(state) {
  const forward = new Set(stepsFor({ ...state, loss: 'none' }).map((step) => step.id));
  const picks = stepsFor(state)
    .filter((step) => !forward.has(step.id))
    .flatMap((step) => stepFigures(step, state))
    .filter((figure) => figure.pick)
    .map((figure) => [figure.pick, FIGURES[figure.figure].field]);
  return [...new Map(picks).entries()];
}

// An operator with nothing on one side, or two equals signs in a row (spaces taken out first).
const EMPTY_OPERAND = [/[−+·=]\)/, /\([+·=]/, /==/, /[−+·]=/, /[−+·=]$/, /\(\)/];

/** The popover's text for one cell, every line (spaces taken out, as the checks read it). */
function popoverText(state, model, lang, cell, expanded) {
  const root = document.createElement('div');
  const t = translator(lang);
  renderExplain(root, {
    state: { ...state, lang },
    model,
    t,
    cell,
    tokens: stateTokens({ ...state, lang }),
    expanded,
    onExpand: () => {},
    onClose: () => {},
  });
  const lines = root.all('li').map((li) => li.all('span').find((s) => s.className === 'line').textContent);
  return { heading: root.all('h3')[0].textContent, lines: lines.map((l) => l.replace(/\s+/g, '')) };
}

test('every backward cell of every kind: the popover has no empty operand, in both languages', () => {
  const swept = new Set();
  let cells = 0;
  for (const [name, state] of states()) {
    const model = computeModel(engine, state);
    const kinds = backwardPicks(state);
    assert.ok(kinds.length >= 7, `${name}: the backward steps' kinds (${kinds})`);
    for (const [kind, field] of kinds) {
      swept.add(kind);
      const m = model[field];
      assert.equal(m.cols, cellCols(kind, state), `${name}: ${kind}'s columns`);
      for (let i = 0; i < m.rows; i++)
        for (let j = 0; j < m.cols; j++)
          for (const lang of ['zh-CN', 'en'])
            for (const expanded of [false, true]) {
              const { heading, lines } = popoverText(state, model, lang, { i, j, kind }, expanded);
              assert.ok(heading.trim().length > 0, `${name}: ${kind} (${i}, ${j}) ${lang}: a heading`);
              assert.ok(lines.length > 0, `${name}: ${kind} (${i}, ${j}) ${lang}: a line`);
              for (const line of lines)
                for (const empty of EMPTY_OPERAND)
                  assert.doesNotMatch(line, empty, `${name}: ${kind} (${i}, ${j}) ${lang}: ${line}`);
              cells++;
            }
    }
  }
  assert.deepEqual([...swept].sort(), Object.keys(BACKWARD_KINDS).sort(), 'every backward kind swept');
  assert.ok(cells > 1000, `${cells} popovers`);
});

test('dZ₁₁ of ½‖AV − (10·I)‖² on the worked example keeps its Σ: 0.6698·(−33.02 − (−11.21)) = −14.61', () => {
  const state = {
    ...withLoss(defaultState(), 'mse'),
    y: [
      [10, 0],
      [0, 10],
    ],
  };
  const model = computeModel(engine, state);
  for (const lang of ['zh-CN', 'en']) {
    const { lines } = popoverText(state, model, lang, { i: 0, j: 0, kind: 'gradScaled' }, false);
    assert.equal(lines.length, 2, lang);
    assert.equal(lines[0], '∑A1tdA1t=0.6698·(−33.02)+0.3302·33.02=−11.21', lang);
    assert.equal(lines[1], 'dZ11=A11(dA11−∑A1tdA1t)=0.6698·(−33.02−(−11.21))=−14.61', lang);
  }
});
