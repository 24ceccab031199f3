// Writes tests/fuzz/corpus/: one input per case worth replaying on every `npm test` — the crashes
// and wrong answers of issues 9 and 19, and the article's worked example — encoded in
// fuzz_attention.cpp's input format (its header comment), which every target of tests/fuzz/ reads
// (fuzz_differential.cpp too). Run it after changing that format or adding a case:
//   node tests/fuzz/make-corpus.mjs
// It rewrites corpus/ whole. Inputs a fuzzer found are kept in tests/fuzz/found/ instead (its
// README), which this script never touches and npm test replays beside corpus/.
import fs from 'node:fs';

const OUT = new URL('./corpus/', import.meta.url);

// fuzz_attention.cpp's tables, by value (the index is what goes into the input).
const PALETTE = [
  'NaN',
  'Infinity',
  '-Infinity',
  'denorm_min',
  -1e-40,
  1e-40,
  'FLT_MIN',
  'FLT_MAX',
  '-FLT_MAX',
  3e38,
  -3e38,
  1e-20,
  1e20,
  0,
  '-0',
  1,
  -1,
  10,
  0.5,
  1000,
  -1000,
  88.7,
];
const TEMPERATURES = [
  1,
  0.25,
  4,
  3e38,
  1e-40,
  'FLT_MIN',
  'FLT_MAX',
  'denorm_min',
  1e-30,
  1e30,
  1e-38,
  0,
  -1,
  'NaN',
  'Infinity',
  1e38,
];
const SCALES = { sqrt_dk: 0, dk: 1, none: 2 };
const MASKS = { none: 0, causal: 1, custom: 2 };
const TWISTS = { none: 0, dkMismatch: 1, vShort: 2, maskWide: 3, qShort: 4 };

const float32 = (x) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x, true);
  return [...b];
};
const u64 = (x) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(x), true);
  return [...b];
};

// One value: its palette index when it has one (Object.is tells 0 from -0), else raw.
function value(x) {
  const i = PALETTE.findIndex((p) => Object.is(p, x));
  return i >= 0 ? [i] : [255, ...float32(x)];
}

/** An ordinary call: sizes, options and every value of q, k, v (rows of numbers), the mask and w. */
function call({
  q,
  k,
  v,
  mask,
  w,
  scale = 'sqrt_dk',
  maskKind = mask ? 'custom' : 'none',
  naive = false,
  column = false,
  temperature = 1,
  twist = 'none',
  extras = [],
  lab,
}) {
  const [nQ, dK, nK, dV] = [q.length, q[0].length, k.length, v[0].length];
  const t = TEMPERATURES.findIndex((p) => Object.is(p, temperature));
  const bytes = [
    lab ? LAB_MODE : 0,
    nQ - 1,
    nK - 1,
    dK - 1,
    dV - 1,
    SCALES[scale] + 3 * MASKS[maskKind] + 9 * naive + 18 * column,
    ...(t >= 0 ? [t] : [200, ...float32(temperature)]),
    TWISTS[twist],
  ];
  for (const m of [q, k, v]) for (const x of m.flat()) bytes.push(...value(x));
  if (mask) for (const x of mask.flat()) bytes.push(x === 0 ? 0 : x === 1 ? 1 : 254);
  // w: without one, a single 1 (the rest follows Reader's pattern past the end) — or, where bytes
  // follow (the lab's), d_k × d_v ones, so that they are read where they belong
  const ones = Array.from({ length: dK * dV }, () => 1);
  for (const x of w?.flat() ?? (lab ? ones : [1])) bytes.push(...value(x));
  if (lab) bytes.push(...labBytes(lab));
  bytes.push(...extras);
  return bytes;
}

/**
 * The efficiency lab's arguments (fuzz_input.hpp's read_lab), after a call whose byte 0 is
 * LAB_MODE: tile rows and cols, window, heads, kvHeads — each within the byte's range (read_lab) as
 * the byte x − 1, and 0, negatives and the huge as 255 and 8 bytes — and linear attention's options.
 */
const LAB_MODE = 200;
const LINEAR_ORDERS = { both: 0, quadratic: 1, linear: 2 };
function labBytes({ tileRows = 1, tileCols = 1, window = 1, heads = 1, kvHeads = 1, linear = {} }) {
  const whole = (x) => {
    if (x >= 1 && x <= 254) return [x - 1];
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(x), true);
    return [255, ...b];
  };
  const { causal = false, weights = false, order = 'both' } = linear;
  return [
    ...[tileRows, tileCols, window, heads, kvHeads].flatMap(whole),
    Number(causal) + 2 * Number(weights) + 4 * LINEAR_ORDERS[order],
  ];
}

/**
 * What fuzz_differential.cpp reads after a call (its read_extras): dO for the backward pass
 * (n_q×d_v), then a multi-head call on X = q — h heads of d_k and d_v, d_out, the four projections
 * and, with a custom mask, its n×n cells.
 */
function extras({ gradOutput, heads = 1, dK = 1, dV = 1, dOut = 1, wq, wk, wv, wo, mask }) {
  const bytes = gradOutput.flat().flatMap(value);
  bytes.push(heads - 1, dK - 1, dV - 1, dOut - 1);
  for (const m of [wq, wk, wv, wo]) for (const x of m.flat()) bytes.push(...value(x));
  if (mask) for (const x of mask.flat()) bytes.push(x === 0 ? 0 : 1);
  return bytes;
}

/**
 * Argument `who` (q, k, v, mask, x, w) claims rows × cols while its data holds `values` values;
 * the others are consistent with n_q = n_k = d_v = 1 and `dK`, with default options. Then
 * `shapes`, five [rows, cols] for the shape-only checks (q, k, v, mask, w), each holding
 * rows × cols values.
 */
function claimed({ who, rows, cols, values = 0, dK = 1, shapes = [] }) {
  const bytes = [
    240 + ['q', 'k', 'v', 'mask', 'x', 'w'].indexOf(who),
    0,
    0,
    dK - 1,
    0,
    0,
    0,
    0,
    ...u64(rows),
    ...u64(cols),
    values,
  ];
  for (let i = 0; i < values; i++) bytes.push(...value(1));
  for (let i = 0; i < 3 * dK + 1; i++) bytes.push(...value(1)); // q 1×d_k, k 1×d_k, v 1×1, w d_k×1
  for (const [r, c] of shapes) bytes.push(...u64(r), ...u64(c), 0);
  return bytes;
}

/** The labs' sampler: dk, count, seed as 64-bit integers (negative ones as two's complement). */
function sampler(dk, count, seed) {
  const arg = (x) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(x), true);
    return [1, ...b];
  };
  return [230, ...arg(dk), ...arg(count), ...arg(seed)];
}

const I2 = [
  [1, 0],
  [0, 1],
];
const V10 = [
  [10, 0],
  [0, 10],
];
const NaN_ = 'NaN';

const CASES = {
  'worked-example': call({ q: I2, k: I2, v: V10 }),
  'worked-example-causal': call({ q: I2, k: I2, v: V10, maskKind: 'causal' }),
  // defect 1: rows × cols = 2^64 wraps around to 0 values; the estimate of 2^63-row scores too
  'defect1-claimed-2e62x4-no-data': claimed({ who: 'q', rows: 2n ** 62n, cols: 4, dK: 4 }),
  'defect1-claimed-x-2e62x4': claimed({ who: 'x', rows: 2n ** 62n, cols: 4, dK: 4 }),
  'defect1-memory-estimate-wraps': claimed({
    who: 'v',
    rows: 1,
    cols: 1,
    values: 1,
    shapes: [
      [2n ** 63n, 1],
      [2n ** 63n, 1],
      [2n ** 63n, 1],
      [1, 1],
      [1, 1],
    ],
  }),
  // defect 4: the fast paths' folded divisor overflows
  'defect4-temperature-3e38': call({ q: I2, k: I2, v: V10, temperature: 3e38 }),
  'defect4-temperature-3e38-causal': call({ q: I2, k: I2, v: V10, temperature: 3e38, maskKind: 'causal' }),
  'defect4-temperature-1e-40-tiny-scores': call({
    q: [[1e-20]],
    k: [[1e-20], [0]],
    v: [[1], [3]],
    temperature: 1e-40,
    scale: 'none',
  }),
  // defect 5: finite inputs, NaN from ÷τ overflowing
  'defect5-temperature-1e-40-worked-example': call({ q: I2, k: I2, v: V10, temperature: 1e-40 }),
  // defect 7: a mask of the wrong shape
  'defect7-mask-wider-than-scores': call({
    q: I2,
    k: I2,
    v: V10,
    mask: [
      [1, 1],
      [1, 1],
    ],
    twist: 'maskWide',
  }),
  // defect 8: masks and NaN
  'defect8-causal-nan-in-query-row': call({
    q: [
      [NaN_, 0],
      [0, 1],
    ],
    k: I2,
    v: V10,
    maskKind: 'causal',
  }),
  'defect8-nan-value-behind-masked-key': call({
    q: I2,
    k: I2,
    v: [
      [10, 0],
      [NaN_, NaN_],
    ],
    maskKind: 'causal',
  }),
  'defect8-fully-masked-row-nan-value': call({
    q: I2,
    k: I2,
    v: [
      [10, 0],
      [NaN_, 10],
    ],
    mask: [
      [0, 0],
      [1, 1],
    ],
  }),
  // the naive softmax's overflow, the column softmax, 65 keys (the streaming kernel inside attention)
  'naive-scores-near-1000': call({ q: [[1]], k: [[1000], [999]], v: [[1], [0]], scale: 'none', naive: true }),
  'column-softmax-one-query': call({
    q: [[1, 0]],
    k: [
      [1, 0],
      [0, 1],
      [1, 1],
    ],
    v: [[1], [2], [3]],
    column: true,
    mask: [[1, 0, 1]],
  }),
  // the labs' sampler: in range, and refused below, above and far above its ranges
  'sampler-dk-64-count-100': sampler(64, 100, 7),
  'sampler-dk-negative': sampler(-1, 100, 7),
  'sampler-count-2e62': sampler(2, 2n ** 62n, 7),
  'sampler-seed-2e32': sampler(2, 100, 2n ** 32n),
  // issue 19, item 1: exp(−100) is a denormal in std::exp, 0 in the SIMD exp; key 3's NaN value
  // must reach the output on every path (the SIMD steps of the 4-lane builds gave 1)
  'issue19-item1-nan-behind-underflowed-weight': call({
    q: [[1]],
    k: [[0], [-100], [-100], [-100]],
    v: [[1], [2], [3], [NaN_]],
    scale: 'none',
  }),
  // issue 19, item 6: the 1 GiB rule's count against the measured peak (fuzz_differential.cpp):
  // one query along columns (13 floats per key held, 11 counted), one key along rows (9 per query,
  // 8 counted), 72 keys (the streaming kernel's workspace grown from three fifths of them)
  'issue19-item6-one-query-along-columns': call({
    q: [[0.5]],
    k: Array.from({ length: 40 }, (_, j) => [j / 8]),
    v: Array.from({ length: 40 }, (_, j) => [j]),
    column: true,
  }),
  'issue19-item6-one-key-along-rows': call({
    q: Array.from({ length: 12 }, (_, i) => [i / 4]),
    k: [[1]],
    v: [[2]],
  }),
  'issue19-item6-workspace-growth': call({
    q: Array.from({ length: 12 }, (_, i) => [i / 4, 1]),
    k: Array.from({ length: 72 }, (_, j) => [j / 64, 1 - j / 32]),
    v: Array.from({ length: 72 }, (_, j) => [j, 1]),
  }),
  // and its shape, never allocated: q 1×1, k and v 24,403,223×1 along columns (counted
  // 1,073,741,816 bytes and accepted before; 1.18 GiB held) — fuzz_attention's shape arithmetic
  'issue19-item6-column-24403223-keys': claimed({
    who: 'v',
    rows: 1,
    cols: 1,
    values: 1,
    shapes: [
      [1, 1],
      [24403223, 1],
      [24403223, 1],
      [1, 1],
      [1, 1],
    ],
  }),
  // issue 19, item 1, in the backward pass (fuzz_differential.cpp's attention_backward rows), with
  // dO = [[1]]: the NaN value reaches gradQ, gradK and gradScores on both paths (the SIMD path's
  // weight-0 test dropped it)
  'issue19-item1-backward-nan-behind-underflowed-weight': call({
    q: [[1]],
    k: [[0], [-200], [-200], [-200]],
    v: [[1], [2], [3], [NaN_]],
    scale: 'none',
    extras: extras({ gradOutput: [[1]], wq: [[1]], wk: [[1]], wv: [[1]], wo: [[1]] }),
  }),
  // the backward's mask rule in dK and dQ, down columns: query 1 is NaN and fully masked
  'backward-column-nan-query-fully-masked': call({
    q: [
      [1, 0],
      [NaN_, 1],
      [0, 1],
    ],
    k: I2,
    v: V10,
    mask: [
      [1, 1],
      [0, 0],
      [1, 0],
    ],
    column: true,
    extras: extras({ gradOutput: I2.concat([[1, 1]]), wq: I2, wk: I2, wv: I2, wo: [[1]] }),
  }),
  // multi-head (fuzz_differential.cpp's multi_head rows): X = the worked example's 2×2 Q, two heads
  // of d_k = 1 and d_v = 2, causal, W_O 4×2; its 1 GiB count against the peak (HeadSteps included)
  'multi-head-two-heads-causal': call({
    q: I2,
    k: I2,
    v: V10,
    maskKind: 'causal',
    extras: extras({
      gradOutput: I2,
      heads: 2,
      dK: 1,
      dV: 2,
      dOut: 2,
      wq: [
        [1, 0],
        [0, 1],
      ],
      wk: [
        [1, 0.5],
        [0.5, 1],
      ],
      wv: [
        [1, 0, 10, 0],
        [0, 1, 0, 10],
      ],
      wo: [
        [1, 0],
        [0, 1],
        [0.5, 0],
        [0, 0.5],
      ],
    }),
  }),
  // the efficiency lab (issue 30; fuzz_attention.cpp's invariants 7–12, fuzz_differential.cpp's
  // tiled, grouped and linear rows): the worked example in 1×1 tiles, a window of 1, two query heads
  // sharing one key–value head (MQA), both linear orders with their weights
  'lab-worked-example': call({
    q: I2,
    k: I2,
    v: V10,
    lab: { tileRows: 1, tileCols: 1, window: 1, heads: 2, kvHeads: 1, linear: { weights: true } },
  }),
  // causal, 70 keys: tiles of 5×16 that the mask skips, the window on the microkernels (past 64
  // keys), two heads of their own, causal linear attention's prefix sums
  'lab-causal-70-keys': call({
    q: Array.from({ length: 12 }, (_, i) => [i / 8 - 0.5, 1, 0.25 * (i % 3), -1]),
    k: Array.from({ length: 70 }, (_, j) => [j / 64, 1 - j / 32, 0.5, (j % 5) / 4]),
    v: Array.from({ length: 70 }, (_, j) => [j, 1 - j / 8]),
    maskKind: 'causal',
    lab: { tileRows: 5, tileCols: 16, window: 8, heads: 2, kvHeads: 2, linear: { causal: true, weights: true } },
  }),
  // every lab argument refused: a 0-row tile, a window of −1, 3 heads of 2 columns, kvHeads 0
  'lab-arguments-refused': call({
    q: I2,
    k: I2,
    v: V10,
    lab: { tileRows: 0, tileCols: 1, window: -1, heads: 3, kvHeads: 0 },
  }),
  // issue 27, item 4's scores on the lab: summed in order the first score is 0, in lanes NaN —
  // decode and window take the reference's arithmetic, the tiles its loop
  'lab-score-3e38-alternating': call({
    q: [[1, 1, 1, 1]],
    k: [
      [3e38, -3e38, 3e38, -3e38],
      [0.5, 0.5, 0.5, 0.5],
    ],
    v: V10,
    lab: { tileRows: 1, tileCols: 1, window: 2, heads: 2, kvHeads: 1 },
  }),
  'streaming-65-keys': call({
    q: [[0.5, -1]],
    k: Array.from({ length: 65 }, (_, j) => [j / 64, 1 - j / 32]),
    v: Array.from({ length: 65 }, (_, j) => [j]),
  }),
};

fs.mkdirSync(OUT, { recursive: true });
for (const file of fs.readdirSync(OUT)) fs.unlinkSync(new URL(file, OUT));
for (const [name, bytes] of Object.entries(CASES)) fs.writeFileSync(new URL(name, OUT), Uint8Array.from(bytes));
console.log(`tests/fuzz/corpus: ${Object.keys(CASES).length} inputs`);
