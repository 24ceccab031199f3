// Presets, number formatting and heatmap colours: small pure modules the page relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presetMatrices, presetSizes, seededRandom, MODE_MATRICES, PRESETS } from '../../web/src/presets.js';
import { formatNumber } from '../../web/src/format.js';
import { cellColors, contrast, scaleFor } from '../../web/src/colors.js';

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
  assert.deepEqual(presetMatrices('article').v, [[10, 0], [0, 10]]);
  assert.equal(presetMatrices('cat').x.length, 3, '它 是 猫: three words');
  assert.equal(presetMatrices('cat').x[0].length, 4, 'four dimensions');
});

test('seeded random is reproducible, and values are in [−2, 2] with one decimal', () => {
  const a = presetMatrices('random', { mode: 'x', sizes: { n: 4, d: 3, dk: 2, dv: 5 }, seed: 7 });
  const b = presetMatrices('random', { mode: 'x', sizes: { n: 4, d: 3, dk: 2, dv: 5 }, seed: 7 });
  assert.deepEqual(a, b);
  assert.equal(a.wv[0].length, 5);
  for (const v of Object.values(a).flat(2)) {
    assert.ok(v >= -2 && v <= 2);
    assert.equal(Math.round(v * 10) / 10, v);
  }
  const next = seededRandom(1);
  assert.notEqual(next(), next());
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
