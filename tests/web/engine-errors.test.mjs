// The core's refusals in the reader's language: every Error.code the API can throw has a sentence
// in zh-CN and in en, worded from the error's numbers, never from its English message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zh from '../../web/src/i18n/zh-CN.js';
import en from '../../web/src/i18n/en.js';
import { translator } from '../../web/src/i18n/index.js';
import { ERROR_CODES } from '../../wasm/vocabulary.mjs';
import { describeEngineError, engineErrorField } from '../../web/src/engine-errors.js';
import { computeModel } from '../../web/src/model.js';
import { loadEngine } from '../../web/src/engine.js';
import { defaultState, setCell, choosePreset } from '../../web/src/state.js';
import fs from 'node:fs';

const binaries = { simd: () => fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)) };
const engine = await loadEngine({ binaries, scalar: false });
const refusal = (state) => {
  try {
    computeModel(engine, state);
  } catch (error) {
    return error;
  }
  return assert.fail('not refused');
};

test('every error code has its sentence in both languages', () => {
  for (const code of ERROR_CODES) {
    assert.ok(`core.${code}` in zh, `zh: core.${code}`);
    assert.ok(`core.${code}` in en, `en: core.${code}`);
  }
});

test('a Chinese reader reads a refusal in Chinese, with the cell and the value', () => {
  const error = refusal(setCell(defaultState(), 'v', 1, 0, 1e39)); // beyond float32: +∞ in the core
  assert.equal(engineErrorField(error), 'v');
  const zhText = describeEngineError(error, translator('zh-CN'));
  assert.equal(zhText, '计算核心拒绝了这个输入:第 2 行第 1 列:V 在这里是 ∞,不是有限数:计算核心只接受有限的输入。');
  assert.doesNotMatch(zhText, /Infinity|only finite/, 'no English inside');
  assert.equal(
    describeEngineError(error, translator('en')),
    'The computing core rejected this input: Row 2, column 1: V is ∞ here, which is not finite; the core accepts only finite inputs.',
  );
});

test('from X, an overflowing product is named as the product', () => {
  // "它 是 猫": X[0][0] = 3e38 (finite) times W_Q[0][1] = 2 overflows Q = X·W_Q.
  const cat = choosePreset(defaultState(), 'cat');
  const state = setCell(cat, 'x', 0, 0, 3e38);
  const error = refusal(state);
  assert.equal(error.argument, 'q');
  assert.match(describeEngineError(error, translator('zh-CN'), state), /Q = X·W_Q 在这里是 ∞/);
});

test('a refused projection is shown at its W, with its sizes', () => {
  const cat = choosePreset(defaultState(), 'cat');
  const state = { ...cat, preset: 'custom', mats: { ...cat.mats, wv: cat.mats.wv.slice(0, 3) } };
  const error = refusal(state);
  assert.equal(engineErrorField(error), 'wv');
  assert.equal(
    describeEngineError(error, translator('zh-CN'), state),
    '计算核心拒绝了这个输入:X 是 3×4,W_V 却是 3×4:X·W 要求 W 的行数等于 X 的列数(4)。',
  );
});

test('an Error without a known code keeps its own message', () => {
  assert.equal(
    describeEngineError(new Error('Aborted(OOM)'), translator('en')),
    'The computing core rejected this input: Aborted(OOM)',
  );
  assert.equal(engineErrorField(new Error('x')), null);
});

test('an argument named after a prototype property is no matrix: own properties only (issue 9, defect 6)', () => {
  for (const argument of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const error = Object.assign(new Error('x'), {
      code: 'unknown_option',
      argument,
      params: { function: 'attention', known: 'q, k, v' },
    });
    assert.equal(engineErrorField(error), null, argument);
    assert.equal(
      describeEngineError(error, translator('en'), { mode: 'x' }),
      `The computing core rejected this input: attention has no option "${argument}"; the options are q, k, v.`,
    );
  }
});

// Issue 19 item 8: a temperature beyond float32 is named by its value, with float32's limit, never
// as the ∞ or 0 the core would have seen.
test('a temperature the API refuses is worded from its reason, in both languages', () => {
  for (const [tau, en1, zh1] of [
    [
      1e39,
      // written as the page writes every number from 10⁹ up (format.js): 1.000e39
      /τ = 1\.000e39 is beyond float32's largest number, 3\.4028235×10³⁸/,
      /τ = 1\.000e39 超出了 float32 能表示的最大数 3\.4028235×10³⁸/,
    ],
    [
      1e-46,
      /τ = 1\.000e−46 is below float32's smallest positive number, 1\.4×10⁻⁴⁵/,
      /小于 float32 能表示的最小正数 1\.4×10⁻⁴⁵/,
    ],
  ]) {
    const error = refusal({ ...defaultState(), temperature: tau });
    assert.equal(engineErrorField(error), 'temperature');
    assert.match(describeEngineError(error, translator('en')), en1);
    assert.match(describeEngineError(error, translator('zh-CN')), zh1);
    assert.doesNotMatch(describeEngineError(error, translator('en')), /inf|it is 0|MiB/);
  }
});
