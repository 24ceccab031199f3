// Presets, number formatting and heatmap colours: small pure modules the page relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presetMatrices, presetSizes, seededRandom, MODE_MATRICES, PRESETS } from '../../web/src/presets.js';
import { formatNumber, matrixFormat, matrixForm, COMPACT_FROM, PRECISIONS } from '../../web/src/format.js';
import {
  cellColors,
  cellBackground,
  cellStyle,
  contrast,
  scaleFor,
  paintImage,
  gradientCss,
} from '../../web/src/colors.js';

test('the fixed presets have the shapes their sizes say', () => {
  for (const preset of PRESETS.filter((p) => p !== 'random')) {
    const sizes = presetSizes(preset);
    const mats = presetMatrices(preset);
    const mode = 'x' in mats ? 'x' : 'qkv';
    for (const [name, [r, c]] of Object.entries(MODE_MATRICES[mode])) {
      assert.equal(mats[name].length, sizes[r], `${preset}.${name} rows`);
      for (const row of mats[name]) assert.equal(row.length, sizes[c], `${preset}.${name} cols`);
    }
  }
  assert.deepEqual(presetMatrices('article').v, [
    [10, 0],
    [0, 10],
  ]);
  assert.equal(presetMatrices('cat').x.length, 3, '它 是 猫: three words');
  assert.equal(presetMatrices('cat').x[0].length, 4, 'four dimensions');
});

test('seeded random is reproducible: X, Q, K, V in [−2, 2] with one decimal, W in ±√(3/d) with two', () => {
  const a = presetMatrices('random', { mode: 'x', sizes: { n: 4, d: 3, dk: 2, dv: 5 }, seed: 7 });
  const b = presetMatrices('random', { mode: 'x', sizes: { n: 4, d: 3, dk: 2, dv: 5 }, seed: 7 });
  assert.deepEqual(a, b);
  assert.equal(a.wv[0].length, 5);
  for (const v of a.x.flat()) {
    assert.ok(v >= -2 && v <= 2);
    assert.equal(Math.round(v * 10) / 10, v);
  }
  for (const v of [a.wq, a.wk, a.wv].flat(2)) {
    assert.ok(Math.abs(v) <= 1, `√(3/3) = 1 bounds W at d = 3 (got ${v})`);
    assert.equal(Math.round(v * 100) / 100, v);
  }
  const qkv = presetMatrices('random', { mode: 'qkv', sizes: { n: 4, d: 3, dk: 2, dv: 5 }, seed: 7 });
  for (const v of Object.values(qkv).flat(2)) assert.ok(v >= -2 && v <= 2 && Math.round(v * 10) / 10 === v);
  const next = seededRandom(1);
  assert.notEqual(next(), next());
});

test('W shrinks with d (variance 1/d), so Q = XW keeps the spread of X at every size', () => {
  const variance = (xs) => {
    const m = xs.reduce((a, c) => a + c) / xs.length;
    return xs.reduce((a, c) => a + (c - m) ** 2, 0) / xs.length;
  };
  for (const d of [4, 16, 64]) {
    const w = presetMatrices('random', { mode: 'x', sizes: { n: 8, d, dk: d, dv: d }, seed: 3 }).wq.flat();
    assert.ok(Math.abs(variance(w) * d - 1) < 0.25, `d = ${d}: var(W)·d = ${(variance(w) * d).toFixed(2)}`);
  }
});

test('numbers are written with significant digits: 4 gives 0.6698 / 6.698, 2 gives the article 0.67 / 6.7', () => {
  assert.equal(formatNumber(0.66976, 4), '0.6698');
  assert.equal(formatNumber(6.6976, 4), '6.698');
  assert.equal(formatNumber(0.66976, 2), '0.67');
  assert.equal(formatNumber(6.6976, 2), '6.7');
  assert.equal(formatNumber(10, 4), '10', 'exact integers as the article writes them');
  assert.equal(formatNumber(-0.5, 4), '\u22120.5000');
  assert.equal(formatNumber(Infinity), '∞');
  assert.equal(formatNumber(-Infinity), '\u2212∞');
  assert.equal(formatNumber(NaN), 'NaN');
  assert.equal(formatNumber(12345.6, 4), '12346');
  assert.equal(formatNumber(1.5e-9, 4), '1.500e\u22129');
});

test("large numbers are compact at every precision: 1e20 is 1.000e20, float32's 3e38 3.000e38, whole or not", () => {
  const f20 = Math.fround(1e20), // 100000002004087734272 written out
    f38 = Math.fround(3e38); // 3.0000000054977558e38 written out
  assert.equal(formatNumber(f20, 4), '1.000e20');
  assert.equal(formatNumber(f38, 4), '3.000e38');
  assert.equal(formatNumber(-f20, 2), '\u22121.0e20');
  assert.equal(formatNumber(f38, 6), '3.00000e38');
  assert.equal(formatNumber(COMPACT_FROM, 4), '1.000e9', 'from 10⁹ on');
  assert.equal(formatNumber(123456789, 4), '123456789', 'below it, whole numbers written out');
  for (const digits of PRECISIONS) {
    // in a matrix of whole numbers (the inputs) and in one of fractions alike, never wider than digits + 5 characters
    for (const text of [matrixFormat([f20, 1], digits)(f20), matrixFormat([0.5, f38], digits)(f38)])
      assert.ok(text.length <= digits + 5 && /e\d+$/.test(text), `${digits} digits: ${text}`);
  }
});

test('one matrix, one format: integers stay integers only when all of them are; exact zeros are "0"', () => {
  const article = matrixFormat(Float32Array.of(1, 0, 0, 10), 4);
  assert.deepEqual([1, 0, 10].map(article), ['1', '0', '10'], "the article's Q, K, V");
  const exps = matrixFormat(Float32Array.of(1, Math.fround(0.4931), Math.fround(0.4931), 1), 4);
  assert.deepEqual(
    [1, Math.fround(0.49306869), 0, -2].map(exps),
    ['1.000', '0.4931', '0', '\u22122.000'],
    'exp(0) = 1 beside 0.4931',
  );
  assert.deepEqual([1, 6.6976].map(matrixFormat([6.6976], 2)), ['1.0', '6.7'], "two digits: the article's 6.7");
  assert.equal(matrixFormat([0.5, 12345.6], 4)(12345.6), '12346');
  assert.equal(matrixFormat([0.5, -Infinity], 4)(-Infinity), '\u2212∞');
  assert.equal(matrixFormat([NaN, 2], 4)(2), '2', 'NaN does not make a matrix of integers fractional');
});

/** The form a written number takes: 'exponent' (1.308e−5), 'decimal' (0.5000) or 'integer' (10); null for 0, ∞, NaN. */
const formOf = (text) =>
  /^[0\u2212]*(0|∞|NaN)$/.test(text) ? null : /e/.test(text) ? 'exponent' : /\./.test(text) ? 'decimal' : 'integer';

test('one matrix, one form, whatever the magnitudes: 1e−7 beside 1e−5, 1 beside 0.5, 1e20 beside 1', () => {
  const cases = [
    // [values, the form, how each is written at 4 digits]
    [[1.308e-5, 7.648e-7, 0, 0.5], 'exponent', ['1.308e\u22125', '7.648e\u22127', '0', '5.000e\u22121']],
    [[1e-7, 1e-5], 'exponent', ['1.000e\u22127', '1.000e\u22125']],
    [[1, 0.5], 'decimal', ['1.000', '0.5000']],
    [[Math.fround(1e20), 1], 'exponent', ['1.000e20', '1.000e0']],
    [[1, 0, 10], 'integer', ['1', '0', '10']],
    [[-2e-7, Infinity, NaN, 0.67], 'exponent', ['\u22122.000e\u22127', '∞', 'NaN', '6.700e\u22121']],
  ];
  for (const [values, form, written] of cases) {
    assert.equal(matrixForm(values), form, String(values));
    for (const digits of PRECISIONS) {
      const texts = values.map(matrixFormat(Float32Array.from(values), digits));
      const forms = new Set(texts.map(formOf).filter(Boolean));
      assert.deepEqual([...forms], [form], `${values} at ${digits} digits: ${texts.join(' ')}`);
    }
    assert.deepEqual(values.map(matrixFormat(values, 4)), written);
  }
});

test('canvases use the same colours as the table cells (to a 256-level ramp), non-finite in grey', () => {
  const data = Float32Array.of(-3, -1, 0, 2, 3, NaN);
  for (const theme of ['light', 'dark']) {
    for (const kind of ['div', 'seq']) {
      const scale = scaleFor(data, kind);
      const image = { data: new Uint8ClampedArray(data.length * 4) };
      paintImage(image, data, scale, theme);
      data.forEach((value, k) => {
        if (kind === 'seq' && value < 0) return;
        const want = cellBackground(value, scale, theme);
        const got = Array.from(image.data.subarray(4 * k, 4 * k + 3));
        for (let c = 0; c < 3; c++)
          assert.ok(Math.abs(got[c] - want[c]) <= 2, `${theme} ${kind} ${value}: ${got} vs ${want}`);
        assert.equal(image.data[4 * k + 3], 255);
      });
    }
    // The legend's gradient runs through the theme's own colours: base at 0, not white in dark mode.
    const base = cellBackground(0, { kind: 'seq', max: 1 }, theme);
    assert.ok(gradientCss('seq', theme).startsWith(`linear-gradient(90deg, rgb(${base.join(' ')})`), theme);
  }
});

test('heatmap text keeps at least 4.5:1 contrast in both themes', () => {
  for (const theme of ['light', 'dark']) {
    for (const kind of ['seq', 'div']) {
      const scale = { kind, max: 1 };
      for (let v = -1; v <= 1; v += 0.01) {
        if (kind === 'seq' && v < 0) continue;
        const { rgb, fgRgb } = cellColors(v, scale, theme);
        assert.ok(contrast(rgb, fgRgb) >= 4.5, `${theme} ${kind} ${v.toFixed(2)}: ${contrast(rgb, fgRgb).toFixed(2)}`);
      }
    }
  }
});

test('the diverging map is centred at 0 and the scale ignores non-finite values', () => {
  assert.deepEqual(scaleFor(Float32Array.of(-3, 1, Infinity, NaN), 'div'), { kind: 'div', max: 3 });
  assert.equal(cellColors(0, { kind: 'div', max: 3 }).bg, 'rgb(255 255 255)');
  assert.notEqual(cellColors(2, { kind: 'div', max: 3 }).bg, cellColors(-2, { kind: 'div', max: 3 }).bg);
});

test("a table cell's style comes from the canvases' ramp, and its text keeps 4.5:1 contrast", () => {
  for (const theme of ['light', 'dark']) {
    for (const kind of ['seq', 'div']) {
      const scale = { kind, max: 2 };
      for (let v = kind === 'seq' ? 0 : -2; v <= 2; v += 0.01) {
        const { bg: bgCss, fg: fgCss } = cellStyle(v, scale, theme);
        const [bg, fg] = [bgCss, fgCss].map((c) => /rgb\((\d+) (\d+) (\d+)\)/.exec(c).slice(1).map(Number));
        const want = cellBackground(v, scale, theme);
        for (let c = 0; c < 3; c++) assert.ok(Math.abs(bg[c] - want[c]) <= 2, `${theme} ${kind} ${v}`);
        assert.ok(contrast(bg, fg) >= 4.5, `${theme} ${kind} ${v.toFixed(2)}: ${contrast(bg, fg).toFixed(2)}`);
      }
    }
    assert.deepEqual(
      cellStyle(NaN, { kind: 'seq', max: 1 }, theme),
      cellStyle(-Infinity, { kind: 'div', max: 1 }, theme),
      'not finite: one grey',
    );
  }
});
