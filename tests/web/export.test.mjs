// The exports (web/src/labs/export/) on the real wasm core: the NumPy script, run with Debian's
// /usr/bin/python3 and python3-numpy, prints the page's weights and output (the worked example's
// 0.6698 and 6.698 digit for digit); JSON and CSV read back to the model's exact float32 numbers;
// the PNG drawing puts every cell, colour and number where the layout says.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPython } from './python.mjs';
import { loadEngine } from '../../web/src/engine.js';
import { computeModel } from '../../web/src/model.js';
import { defaultState, choosePreset, setOption, resize } from '../../web/src/state.js';
import { formatNumber } from '../../web/src/format.js';
import { cellColors, scaleFor } from '../../web/src/colors.js';
import { numpyScript } from '../../web/src/labs/export/numpy.js';
import { exportJson, readJsonExport, JSON_FORMAT } from '../../web/src/labs/export/json.js';
import { exportCsv, readCsvExport } from '../../web/src/labs/export/csv.js';
import { layoutMatrices, drawMatrices, PNG_SIZES } from '../../web/src/labs/export/png.js';
import { float32Text } from '../../web/src/labs/export/numbers.js';
import { exportFileName } from '../../web/src/labs/export/file-name.js';
import { STEP_MATRICES } from '../../web/src/labs/export/matrices.js';
import { pngPanels } from '../../web/src/views/export-files.js';
import { translator } from '../../web/src/i18n/index.js';
import { HEAD_COLORS } from '../../web/src/head-colors.js';

let engine, dir;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-export-'));
});

// Every option the page has, on examples that exercise it.
const article = defaultState();
const STATES = {
  'the worked example': article,
  '"它 是 猫" from X': choosePreset(article, 'cat'),
  'scores near 1000, naive softmax (inf and nan)': setOption(choosePreset(article, 'overflow'), 'softmax', 'naive'),
  'causal mask': setOption(choosePreset(article, 'cat'), 'mask', 'causal'),
  'softmax along columns': setOption(choosePreset(article, 'cat'), 'axis', 'column'),
  '÷d_k, temperature 0.5, 6 digits': { ...choosePreset(article, 'cat'), scale: 'dk', temperature: 0.5, digits: 6 },
  'no scaling, 2 digits': { ...choosePreset(article, 'cat'), scale: 'none', digits: 2 },
  'random 5×5, English': {
    ...resize(choosePreset({ ...article, seed: 7 }, 'random'), { n: 5, dk: 5, dv: 3 }),
    lang: 'en',
  },
  'a custom mask with a fully masked row (weights 0)': {
    ...choosePreset(article, 'cat'),
    mask: { rows: 3, cols: 3, data: [1, 0, 0, 0, 0, 0, 1, 1, 1] },
  },
  'the same, naive softmax along columns': {
    ...choosePreset(article, 'cat'),
    softmax: 'naive',
    axis: 'column',
    mask: { rows: 3, cols: 3, data: [1, 0, 0, 1, 0, 0, 1, 0, 1] },
  },
};

// A printed number against the page's value: the same NaN/∞, or within 1.5 units of the last significant digit shown.
function samePrinted(printed, value, digits) {
  if (Number.isNaN(value)) return printed === 'nan';
  if (!Number.isFinite(value)) return printed === (value > 0 ? 'inf' : '-inf');
  const unit = value === 0 ? 10 ** -digits : 10 ** (Math.floor(Math.log10(Math.abs(value))) - digits + 1);
  return Math.abs(Number(printed) - value) <= 1.5 * unit + 1e-7;
}

test("NumPy: the worked example's script reads like the article's and prints 0.6698 0.3302 / 6.698 3.302 as the page", () => {
  const text = numpyScript(computeModel(engine, article), article);
  for (const line of [
    'import numpy as np',
    'def softmax(x, axis=-1):',
    '    x = x - x.max(axis=axis, keepdims=True)   # 数值稳定',
    '    e = np.exp(x)',
    '    return e / e.sum(axis=axis, keepdims=True)',
    'def attention(Q, K, V):',
    '    d_k = Q.shape[-1]',
    '    scores = Q @ K.T / np.sqrt(np.float32(d_k))   # 打分 + 缩放',
    '    A = softmax(scores, axis=-1)   # 逐行归一化',
    '    return A @ V, A   # 加权求和',
    'V = np.array([[10, 0], [0, 10]], dtype=np.float32)',
    'out, A = attention(Q, K, V)',
  ])
    assert.ok(text.split('\n').includes(line), line);
  assert.doesNotMatch(text, /mask|temperature|seterr/, 'what the page does not use is not written');
  const printed = runPython(dir, text, 'article');
  assert.deepEqual(printed, {
    A: [
      ['0.6698', '0.3302'],
      ['0.3302', '0.6698'],
    ],
    AV: [
      ['6.698', '3.302'],
      ['3.302', '6.698'],
    ],
  });
});

for (const [name, state] of Object.entries(STATES)) {
  test(`NumPy: ${name} — the script prints the page's weights and output`, () => {
    const model = computeModel(engine, state);
    const printed = runPython(dir, numpyScript(model, state), name);
    for (const [block, m] of [
      ['A', model.weights],
      ['AV', model.output],
    ]) {
      assert.equal(printed[block].length, m.rows, `${block} rows`);
      printed[block].forEach((row, i) =>
        row.forEach((text, j) => {
          const value = m.data[i * m.cols + j];
          assert.ok(
            samePrinted(text, value, state.digits),
            `${block}[${i}][${j}]: printed ${text}, page ${formatNumber(value, state.digits)}`,
          );
        }),
      );
    }
  });
}

test('NumPy: "它 是 猫" with 2 heads (causal, too) — the script prints every head\'s A and AV, the concat and concat·W_O as the page', () => {
  for (const [name, state] of [
    ['2 heads', choosePreset(article, 'heads')],
    ['2 heads, causal, 6 digits', { ...choosePreset(article, 'heads'), mask: 'causal', digits: 6, head: 2 }],
  ]) {
    const model = computeModel(engine, state);
    const printed = runPython(dir, numpyScript(model, state), name);
    const blocks = [
      ...model.heads.flatMap((head, i) => [
        [`A (head ${i + 1})`, head.weights],
        [`AV (head ${i + 1})`, head.output],
      ]),
      ['concat', model.concat],
      ['concat @ W_O', model.projected],
    ];
    assert.deepEqual(
      Object.keys(printed),
      blocks.map(([block]) => block),
    );
    for (const [block, m] of blocks)
      printed[block].forEach((row, i) =>
        row.forEach((text, j) => {
          const value = m.data[i * m.cols + j];
          assert.ok(
            samePrinted(text, value, state.digits),
            `${name} ${block}[${i}][${j}]: printed ${text}, page ${value}`,
          );
        }),
      );
  }
  // Head 1 of the preset: 是 gives 它 0.9411 of its attention, as the article's next step would say.
  const printed = runPython(
    dir,
    numpyScript(computeModel(engine, choosePreset(article, 'heads')), choosePreset(article, 'heads')),
    'heads',
  );
  assert.deepEqual(printed['A (head 1)'][1], ['0.9411', '0.05562', '0.003288']);
});

test('NumPy: the options appear as code only when used — mask, naive softmax, columns, temperature, ÷d_k, the fully-masked policy', () => {
  const text = (state) => numpyScript(computeModel(engine, state), state);
  assert.match(
    text(STATES['causal mask']),
    /mask = np\.tril\(np\.ones\(\(Q\.shape\[0\], K\.shape\[0\]\), dtype=bool\)\)/,
  );
  assert.match(text(STATES['scores near 1000, naive softmax (inf and nan)']), /    e = np\.exp\(x\)   # 朴素 softmax/);
  assert.match(text(STATES['softmax along columns']), /A = softmax\(scores, axis=0\)/);
  const dk = text(STATES['÷d_k, temperature 0.5, 6 digits']);
  assert.match(dk, /scores = Q @ K\.T \/ \(np\.float32\(d_k\) \* np\.float32\(temperature\)\)/);
  assert.match(dk, /^temperature = 0\.5$/m);
  assert.match(text(STATES['no scaling, 2 digits']), /scores = Q @ K\.T   #/);
  assert.match(text(STATES['a custom mask with a fully masked row (weights 0)']), /full = np\.isneginf\(m\)/);
  assert.doesNotMatch(text(STATES['causal mask']), /isneginf/, 'a causal mask leaves every row a key');
  assert.match(text(STATES['random 5×5, English']), /# numerical stability/);
});

test("JSON: all inputs, options and every intermediate with shapes, read back to the model's float32 values exactly", () => {
  for (const [name, state] of Object.entries(STATES)) {
    const model = computeModel(engine, state);
    const text = exportJson(model, state);
    const back = readJsonExport(text);
    assert.equal(back.format, JSON_FORMAT);
    assert.equal(back.mode, state.mode);
    for (const step of STEP_MATRICES) assertSameMatrix(back.steps[step], model[step], `${name}: ${step}`);
    for (const [input, m] of Object.entries(back.inputs)) assertSameMatrix(m, model[input], `${name}: input ${input}`);
    assert.deepEqual(Object.keys(back.inputs), state.mode === 'x' ? ['x', 'wq', 'wk', 'wv'] : ['q', 'k', 'v']);
  }
  const worked = JSON.parse(exportJson(computeModel(engine, article), article));
  assert.deepEqual(worked.options, { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' });
  assert.deepEqual(worked.steps.weights, {
    shape: [2, 2],
    data: [
      [0.66976154, 0.33023846],
      [0.33023846, 0.66976154],
    ],
  });
  assert.deepEqual(worked.steps.rowMax.shape, [2, 1]);
  const causal = JSON.parse(
    exportJson(computeModel(engine, setOption(article, 'mask', 'causal')), setOption(article, 'mask', 'causal')),
  );
  assert.deepEqual(causal.steps.scaled.data[0], [0.70710677, '-Infinity']);
  assert.throws(() => readJsonExport('{"format":"other"}'), /not an attention-playground\/1 file/);
});

test('CSV: one block per matrix, "name,rows,cols" then the rows; read back exactly', () => {
  const text = exportCsv(computeModel(engine, article), article);
  assert.ok(
    text.startsWith('q,2,2\n1,0\n0,1\n\nk,2,2\n1,0\n0,1\n\nv,2,2\n10,0\n0,10\n\nscores,2,2\n'),
    text.slice(0, 80),
  );
  assert.match(text, /\n\nweights,2,2\n0\.66976154,0\.33023846\n0\.33023846,0\.66976154\n\n/);
  for (const state of [STATES['"它 是 猫" from X'], STATES['scores near 1000, naive softmax (inf and nan)']]) {
    const model = computeModel(engine, state);
    const back = readCsvExport(exportCsv(model, state));
    assert.deepEqual(Object.keys(back), [...(state.mode === 'x' ? ['x', 'wq', 'wk', 'wv'] : []), ...STEP_MATRICES]);
    for (const [name, m] of Object.entries(back)) assertSameMatrix(m, model[name], name);
  }
});

test('float32Text: the shortest decimal that reads back as the same float32', () => {
  assert.equal(float32Text(Math.fround(0.6697615385055542)), '0.66976154');
  assert.equal(float32Text(Math.fround(0.1)), '0.1');
  assert.equal(float32Text(10), '10');
  assert.equal(float32Text(Math.fround(1e-7)), '1e-7');
  assert.deepEqual([NaN, Infinity, -Infinity].map(float32Text), ['NaN', 'Infinity', '-Infinity']);
  for (let t = 0; t < 2000; t++) {
    const x = Math.fround(Math.sin(t) * 10 ** ((t % 13) - 6));
    assert.equal(Math.fround(Number(float32Text(x))), x);
  }
});

// The same matrix, value for value: === (so −0 equals 0), and NaN equal to NaN whatever its bits.
function assertSameMatrix(actual, expected, what) {
  assert.deepEqual(
    [actual.rows, actual.cols, actual.data.length],
    [expected.rows, expected.cols, expected.data.length],
    what,
  );
  expected.data.forEach((x, t) =>
    assert.ok(
      actual.data[t] === x || (Number.isNaN(actual.data[t]) && Number.isNaN(x)),
      `${what}[${t}]: ${actual.data[t]} vs ${x}`,
    ),
  );
}

// A 2D context that records what is drawn.
function recordingContext() {
  const calls = [];
  const ctx = { calls };
  for (const method of ['fillRect', 'fillText', 'setTransform'])
    ctx[method] = (...args) => calls.push({ method, args, fillStyle: ctx.fillStyle, font: ctx.font });
  return ctx;
}

test('PNG: the weights of the worked example drawn cell by cell — colour, number and title where the layout says', () => {
  const model = computeModel(engine, article);
  const layout = layoutMatrices(
    [
      { label: 'A', matrix: model.weights, kind: 'seq' },
      { label: 'AV', matrix: model.output, kind: 'div' },
    ],
    { digits: 4 },
  );
  const { padding, gap, title, cell } = PNG_SIZES;
  assert.equal(layout.width, padding + 2 * cell.width + gap + 2 * cell.width + padding);
  assert.equal(layout.height, padding + title + 2 * cell.height + padding);
  const ctx = recordingContext();
  drawMatrices(ctx, layout);
  assert.deepEqual(ctx.calls[0].args, [2, 0, 0, 2, 0, 0], 'drawn at twice the CSS size');
  assert.deepEqual(ctx.calls[1], {
    method: 'fillRect',
    args: [0, 0, layout.width, layout.height],
    fillStyle: '#ffffff',
    font: undefined,
  });
  const texts = ctx.calls.filter((c) => c.method === 'fillText').map((c) => c.args[0]);
  assert.deepEqual(texts, [
    'A  (2×2)',
    '0.6698',
    '0.3302',
    '0.3302',
    '0.6698',
    'AV  (2×2)',
    '6.698',
    '3.302',
    '3.302',
    '6.698',
  ]);
  const cells = ctx.calls.filter((c) => c.method === 'fillRect').slice(1);
  assert.equal(cells.length, 8);
  const scale = scaleFor(model.weights.data, 'seq');
  assert.deepEqual(cells[0], {
    method: 'fillRect',
    args: [padding, padding + title, cell.width, cell.height],
    fillStyle: cellColors(model.weights.data[0], scale).bg,
    font: ctx.calls[1].font ?? cells[0].font,
  });
  const number = ctx.calls.find((c) => c.args[0] === '0.6698');
  assert.equal(number.fillStyle, cellColors(model.weights.data[0], scale).fg);
  assert.deepEqual(number.args.slice(1), [padding + cell.width / 2, padding + title + cell.height / 2]);
});

test("PNG: a matrix is written as the page writes it — the exp step's 1.000 beside 0.4931, not 1", () => {
  const model = computeModel(engine, article);
  const ctx = recordingContext();
  drawMatrices(ctx, layoutMatrices([{ label: 'E', matrix: model.exps, kind: 'seq' }], { digits: 4 }));
  const texts = ctx.calls.filter((c) => c.method === 'fillText').map((c) => c.args[0]);
  assert.deepEqual(texts, ['E  (2×2)', '1.000', '0.4931', '0.4931', '1.000']);
});

test("file names say what they hold: the example, the options unlike the article's, the step", () => {
  assert.equal(exportFileName({ ...article, step: 8 }, 'py'), 'attention-article-step8.py');
  const cat = { ...choosePreset(article, 'cat'), mask: 'causal', softmax: 'naive', step: 9 };
  assert.equal(exportFileName(cat, 'png'), 'attention-cat-causal-naive-step9.png');
  assert.equal(
    exportFileName({ ...article, scale: 'none', temperature: 0.5, axis: 'column', step: 4 }, 'csv'),
    'attention-article-unscaled-t0.5-columns-step4.csv',
  );
  assert.equal(
    exportFileName({ ...choosePreset(article, 'random'), seed: 7, step: 1 }, 'json'),
    'attention-random7-step1.json',
  );
});

test('PNG: beyond 16 rows or columns a matrix is a heatmap without numbers; the dark theme has its own background', () => {
  const big = { rows: 20, cols: 20, data: Float32Array.from({ length: 400 }, (_, t) => Math.sin(t)) };
  const layout = layoutMatrices([{ label: 'S', matrix: big, kind: 'div' }], { theme: 'dark', scale: 1 });
  assert.equal(layout.items[0].numbers, false);
  assert.equal(layout.width, 2 * PNG_SIZES.padding + 20 * PNG_SIZES.heat);
  const ctx = recordingContext();
  drawMatrices(ctx, layout);
  assert.equal(ctx.calls.filter((c) => c.method === 'fillText').length, 1, 'the title only');
  assert.equal(ctx.calls[1].fillStyle, '#1e2126');
  assert.equal(ctx.calls.filter((c) => c.method === 'fillRect').length, 401);
});

test('NumPy: a matrix with 1e−5 beside 1e−7 prints in one form, with an exponent throughout, as the page writes it', () => {
  // Q = K = 0: every weight is 0.5, so AV's rows are the means of V's: 1e−5 beside 1e−7.
  const state = {
    ...defaultState(),
    preset: 'custom',
    mats: {
      q: [
        [0, 0],
        [0, 0],
      ],
      k: [
        [0, 0],
        [0, 0],
      ],
      v: [
        [1e-5, 2e-7],
        [1e-5, 0],
      ],
    },
  };
  const model = computeModel(engine, state);
  const printed = runPython(dir, numpyScript(model, state), 'mixed-magnitudes');
  assert.deepEqual(printed.AV, [
    ['1.000e-05', '1.000e-07'],
    ['1.000e-05', '1.000e-07'],
  ]);
  assert.deepEqual(printed.A, [
    ['0.5000', '0.5000'],
    ['0.5000', '0.5000'],
  ]);
});

// The recording context with the strokes a masked cell's hatching draws.
function strokingContext() {
  const ctx = recordingContext();
  for (const method of ['beginPath', 'moveTo', 'lineTo', 'stroke'])
    ctx[method] = (...args) => ctx.calls.push({ method, args, strokeStyle: ctx.strokeStyle });
  return ctx;
}

test('PNG: the rows carry their words, a causal mask its hatching, as on the page', () => {
  const state = { ...setOption(choosePreset(article, 'cat'), 'mask', 'causal'), step: 8 };
  const model = computeModel(engine, state);
  const panels = pngPanels({ model, state, theme: 'light', t: translator('zh-CN'), tokens: ['它', '是', '猫'] });
  const weights = panels.find((p) => p.matrix === model.weights);
  assert.deepEqual(weights.rowLabels, ['它', '是', '猫']);
  assert.equal(weights.masked(0, 1), true, '它 does not see 是');
  assert.equal(weights.masked(1, 0), false);
  const layout = layoutMatrices(panels, { digits: 4 });
  const ctx = strokingContext();
  drawMatrices(ctx, layout);
  const texts = ctx.calls.filter((c) => c.method === 'fillText').map((c) => c.args[0]);
  for (const word of ['它', '是', '猫']) assert.ok(texts.includes(word), `the word ${word}`);
  // Three masked weights (above the diagonal of 3 × 3), each hatched: one stroke per cell.
  const item = layout.items.find((i) => i.matrix === model.weights);
  assert.equal(ctx.calls.filter((c) => c.method === 'stroke').length, 3);
  const first = ctx.calls.find((c) => c.method === 'moveTo');
  const [x, y] = first.args;
  assert.ok(
    x >= item.cellsX + item.cellWidth && x <= item.cellsX + 2 * item.cellWidth && y >= item.cellsY,
    'the first hatching is in cell (1, 2)',
  );
  // The words stand left of the cells, not over them.
  const word = ctx.calls.find((c) => c.method === 'fillText' && c.args[0] === '它');
  assert.ok(word.args[1] < item.cellsX, `它 at x = ${word.args[1]}, cells from ${item.cellsX}`);
});

test("PNG: with heads, concat's columns carry each head's band and name in the head's colour", () => {
  const heads = choosePreset(article, 'heads');
  const state = { ...heads, step: 10 }; // concat
  const model = computeModel(engine, state);
  const panels = pngPanels({ model, state, theme: 'light', t: translator('zh-CN'), tokens: ['它', '是', '猫'] });
  assert.equal(panels.length, 1);
  const [concat] = panels;
  assert.equal(concat.blocks.width, 2, 'd_v = 4 over 2 heads');
  const ctx = recordingContext();
  drawMatrices(ctx, layoutMatrices(panels, { digits: 4 }));
  const named = ctx.calls.filter((c) => c.method === 'fillText' && /^头 \d$/.test(c.args[0]));
  assert.deepEqual(
    named.map((c) => [c.args[0], c.fillStyle]),
    [
      ['头 1', HEAD_COLORS.light[0]],
      ['头 2', HEAD_COLORS.light[1]],
    ],
  );
  const bands = ctx.calls.filter((c) => c.method === 'fillRect' && HEAD_COLORS.light.includes(c.fillStyle));
  assert.equal(bands.length, 2, 'a band over each head’s columns');
});
