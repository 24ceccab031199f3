// The examples the page opens with. Pure.
//   article  — the article's worked example (§7): Q = K = I₂, V = 10·I₂, d_k = 2.
//   cat      — "它 是 猫": X is 3×4 as in §1; the weights are illustrative values chosen by hand so
//              that "它" attends most to "猫" (a trained model would learn its own).
//   heads    — "它 是 猫" again, with 2 heads (multi-head attention, the series' next step): one
//              head attends to the previous word, the other to the word itself; the numbers of
//              tests/fixtures/multi-head.json (scripts/make-multi-head-fixture.mjs explains them).
//   overflow — scores near 1000, where naive softmax overflows (§5's warning).
//   random   — seeded random inputs of any size, reproducible from (seed, sizes).

export const PRESETS = ['article', 'cat', 'heads', 'overflow', 'random'];

const I2 = [
  [1, 0],
  [0, 1],
];

const FIXED = {
  article: {
    mode: 'qkv',
    sizes: { n: 2, d: 2, dk: 2, dv: 2 },
    mats: {
      q: I2,
      k: I2,
      v: [
        [10, 0],
        [0, 10],
      ],
    },
  },
  cat: {
    mode: 'x',
    sizes: { n: 3, d: 4, dk: 4, dv: 4 },
    tokens: { 'zh-CN': ['它', '是', '猫'], en: ['it', 'is', 'cat'] },
    illustrative: true,
    mats: {
      x: [
        [1, 0.5, 0, 0],
        [0, 0, 1, 0],
        [0, 1, 0, 1],
      ],
      wq: [
        [0, 2, 0, 0],
        [1, 0, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
      wk: [
        [1, 0, 0, 0],
        [0, 1.5, 0, 0],
        [0, 0, 1, 0],
        [0, 0.5, 0, 1],
      ],
      wv: [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
    },
  },
  heads: {
    mode: 'x',
    // d_k and d_v are the widths of W_Q and W_V: h·d_k = 4 columns, two heads of d_k = 2.
    sizes: { n: 3, d: 4, dk: 4, dv: 4 },
    heads: 2,
    tokens: { 'zh-CN': ['它', '是', '猫'], en: ['it', 'is', 'cat'] },
    illustrative: true,
    mats: {
      // Each word's own one-hot column plus a shared 1; W's last row is 0, so row i of Q = X·W_Q is
      // row i of W_Q. Columns 1–2 are head 1 (it asks for the previous word's key), 3–4 head 2
      // (it asks for its own word's key).
      x: [
        [1, 0, 0, 1],
        [0, 1, 0, 1],
        [0, 0, 1, 1],
      ],
      wq: [
        [0, 0, 2, 0],
        [2, 0, 0, 2],
        [0, 2, -2, -2],
        [0, 0, 0, 0],
      ],
      wk: [
        [2, 0, 2, 0],
        [0, 2, 0, 2],
        [-2, -2, -2, -2],
        [0, 0, 0, 0],
      ],
      wv: [
        [1, 0, 1, 0],
        [0, 1, 0, 1],
        [1, 1, 1, 1],
        [0, 0, 0, 0],
      ],
      // The heads' average in the first two outputs, half their difference in the last two.
      wo: [
        [0.5, 0, 0.5, 0],
        [0, 0.5, 0, 0.5],
        [0.5, 0, -0.5, 0],
        [0, 0.5, 0, -0.5],
      ],
    },
  },
  overflow: {
    mode: 'qkv',
    sizes: { n: 3, d: 4, dk: 4, dv: 2 },
    mats: {
      q: [
        [20, 20, 20, 20],
        [20, 20, 20, 19],
        [19, 20, 20, 20],
      ],
      k: [
        [25, 25, 25, 25],
        [25, 25, 25, 24.5],
        [24.5, 25, 25, 25],
      ],
      v: [
        [10, 0],
        [0, 10],
        [5, 5],
      ],
    },
  },
};

/** The input matrices each mode reads, with their shapes in terms of the sizes. */
export const MODE_MATRICES = {
  x: { x: ['n', 'd'], wq: ['d', 'dk'], wk: ['d', 'dk'], wv: ['d', 'dv'] },
  qkv: { q: ['n', 'dk'], k: ['n', 'dk'], v: ['n', 'dv'] },
};

/**
 * The input matrices this state reads, with their shapes: the mode's, and with more than one head
 * W_O (h·d_v × d_model: the heads' outputs side by side, back to the model's width).
 */
export const inputShapes = ({ mode, heads = 1 }) =>
  mode === 'x' && heads > 1 ? { ...MODE_MATRICES.x, wo: ['dv', 'd'] } : MODE_MATRICES[mode];

export const presetMode = (preset) => FIXED[preset]?.mode;
/** How many heads a fixed preset has (1 but for "heads"); random keeps the state's. */
export const presetHeads = (preset) => FIXED[preset]?.heads ?? 1;
export const presetSizes = (preset) => FIXED[preset] && { ...FIXED[preset].sizes };
export const isIllustrative = (preset) => Boolean(FIXED[preset]?.illustrative);

/** Row labels for a preset ("它 是 猫"), or null for plain numbers. */
export function presetTokens(preset, lang) {
  return FIXED[preset]?.tokens?.[lang] ?? null;
}

/** A small, fast, seedable generator (mulberry32): the same seed gives the same matrices everywhere. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Random values in [−limit, limit], rounded to `decimals`. The default, [−2, 2] with one decimal,
 * is large enough that weights differ visibly (near-zero scores would give near-uniform weights
 * and teach nothing), short enough to read.
 */
export function randomMatrix(next, rows, cols, { limit = 2, decimals = 1 } = {}) {
  const unit = 10 ** decimals;
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => Math.round((next() * 2 - 1) * limit * unit) / unit),
  );
}

/**
 * The range of the random preset's values, chosen so that its weights are informative at every
 * size. X, Q, K, V: uniform in [−2, 2] (variance 4/3). W_Q, W_K, W_V: uniform in ±√(3/d)
 * (variance 1/d, as Xavier/Glorot initialisation), so each entry of Q = XW_Q again has variance
 * d · 4/3 · 1/d = 4/3 — without it, Q's entries would grow with d and at d = 64 the weights would
 * be one-hot. Either way a scaled score q·k/√d_k has variance (4/3)², a standard deviation ≈ 1.3:
 * weights that differ without "winner takes all".
 */
export function randomRange(name, sizes) {
  return name.startsWith('w') ? { limit: Math.sqrt(3 / sizes.d), decimals: 2 } : { limit: 2, decimals: 1 };
}

/** The input matrices of a preset for the given mode; random needs sizes and seed. */
export function presetMatrices(preset, { mode, sizes, seed, heads = 1 } = {}) {
  if (preset === 'random') {
    const next = seededRandom(seed);
    const shapes = inputShapes({ mode, heads });
    return Object.fromEntries(
      Object.entries(shapes).map(([name, [r, c]]) => [
        name,
        randomMatrix(next, sizes[r], sizes[c], randomRange(name, sizes)),
      ]),
    );
  }
  const fixed = FIXED[preset];
  if (!fixed) throw new Error(`unknown preset ${preset}`);
  // Copy matrix by matrix: the article's Q and K are the same constant, and must not stay one
  // array after copying (structuredClone would keep them shared, so editing Q would edit K).
  return Object.fromEntries(Object.entries(fixed.mats).map(([name, rows]) => [name, rows.map((row) => [...row])]));
}
