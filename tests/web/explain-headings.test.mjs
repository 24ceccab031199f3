// The popover's heading (views/explain.js cellHeading) for every kind of cell the page expands,
// with the words of "它 是 猫" and with numbered words, in both languages: a word is named as a
// whole phrase — “猫” or 第 3 个词, “cat” or word 3 — so that no heading reads "第 “猫” 个词" or
// "word “cat”’s" (issue 29).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellHeading } from '../../web/src/views/explain.js';
import { translator } from '../../web/src/i18n/index.js';
import { stepFigures, stepsFor } from '../../web/src/steps.js';
import { defaultState, choosePreset } from '../../web/src/state.js';

const cat = choosePreset(defaultState(), 'cat');
const heads = choosePreset(defaultState(), 'heads');
// Every state whose steps have cells that expand: from X, with heads, with each loss.
const STATES = [cat, { ...cat, loss: 'mse' }, heads, { ...heads, loss: 'mse' }, { ...heads, loss: 'given' }];

/** Every kind of cell that expands on some step of some state (steps.js FIGURE `pick`). */
const KINDS = [
  ...new Set(
    STATES.flatMap((state) =>
      stepsFor(state).flatMap((step) =>
        stepFigures(step, state)
          .map((figure) => figure.pick)
          .filter(Boolean),
      ),
    ),
  ),
];

const heading = (kind, lang, tokens) =>
  cellHeading({ t: translator(lang), cell: { kind, i: 2, j: 1 }, tokens, state: heads });

test('the page expands cells of the forward, backward and multi-head steps', () => {
  for (const kind of ['score', 'output', 'projectQ', 'projection', 'gradWeights', 'gradQ', 'gradWq'])
    assert.ok(KINDS.includes(kind), kind);
});

test('every zh heading names a word as “猫” or 第 3 个词, never inside 第 … 个词 or after 词', () => {
  for (const kind of KINDS) {
    const words = heading(kind, 'zh-CN', ['它', '是', '猫']);
    const numbered = heading(kind, 'zh-CN', null);
    for (const text of [words, numbered]) {
      assert.doesNotMatch(text, /第 “|” 个词|词 “|词 第|第 第/, `${kind}: ${text}`);
      assert.doesNotMatch(text, /\{\w+\}/, `${kind}: a placeholder left in ${text}`);
    }
    // A heading about a word's row names it; the matrix cells of dW name their row and column.
    if (!/^gradW[qkvo]$/.test(kind)) {
      assert.match(words, /“猫”/, `${kind}: ${words}`);
      assert.match(numbered, /第 3 个词/, `${kind}: ${numbered}`);
    }
  }
  assert.equal(heading('output', 'zh-CN', ['它', '是', '猫']), '“猫”的输出,第 2 维:按权重混合各词的 Value');
  assert.equal(heading('output', 'zh-CN', null), '第 3 个词的输出,第 2 维:按权重混合各词的 Value');
  assert.equal(heading('gradWeights', 'zh-CN', ['它', '是', '猫']), 'dA:“猫”看“是”的权重的梯度');
});

test('every English heading names a word as “cat” or word 3', () => {
  for (const kind of KINDS) {
    const words = heading(kind, 'en', ['it', 'is', 'cat']);
    const numbered = heading(kind, 'en', null);
    for (const text of [words, numbered]) {
      assert.doesNotMatch(text, /word “|word word|”’s/, `${kind}: ${text}`);
      assert.doesNotMatch(text, /\{\w+\}/, `${kind}: a placeholder left in ${text}`);
    }
    if (!/^gradW[qkvo]$/.test(kind)) {
      assert.match(words, /“cat”/, `${kind}: ${words}`);
      assert.match(numbered, /word 3/, `${kind}: ${numbered}`);
    }
  }
  assert.equal(
    heading('output', 'en', ['it', 'is', 'cat']),
    "Output of “cat”, dimension 2: the words' values mixed by the weights",
  );
});
