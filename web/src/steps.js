// The article's steps, in its order (§1 input X, §2 projections, §3 scores, §4 scaling, §5 the
// softmax in four steps, §6 weighting V), one description each. Everything the page does with a
// step derives from its entry: the URL's step number (its position, state.js), the formulas
// pre-rendered at build time (formulas/formulas.js), the map (views/nav.js), the stage's figures,
// notices, switches and extras (views/stage.js), where a non-finite number first shows
// (non-finite.js), the matrices of the exports and the handout (labs/export/matrices.js) and the
// tie test (tests/web/descriptions.test.mjs). Pure: no DOM — the map's MathML is built by
// functions the view hands in (`m`: views/math.js's builders).
//
// A step:
//   id        its name in the i18n keys step.<id>.title, step.<id>.text and map.<id>;
//   when      state → whether the step exists (absent: always): concat and ·W_O need heads;
//   section   the article's section (article.js cites it); `article: 4` instead for the steps of
//             the series' next article (multi-head attention);
//   formula   { part: the main formula's part it marks, detail(variant) → TeX of the step alone,
//               variant = { scale, softmax, axis }, output: 'mathml' to pre-render it as MathML
//               alone, laid out natively like the popover's sums (absent: KaTeX's HTML and MathML;
//               the backward steps are MathML, a tenth of the bytes, for the offline file's budget) };
//   figures   state → rows of figures and the operators between them: a figure is FIGURE(id,
//             look) (FIGURES says what model field it is drawn from and its shape), an operator
//             a string;
//   produces  the model fields (computeModel's names) this step first computes, in order: the
//             exports' order, and where the core's non-finite counts are first shown;
//   map       the node of the map: { matrices(state) its thumbnails, symbol(m, state), op(m, state)
//             on the arrow into it, shape: state → [rows, cols] of what comes out };
//   controls  the options (options.js) whose switches sit beside this step on the stage;
//   notices   [{ when(state), kind, words }]: the step's own notices;
//   remark    the article's own remark on its worked example (§7), while the numbers are its own;
//   columnWords  which of its words ('title', 'text') have a version for a column softmax
//             (step.<id>.title.column): words that name the rows (stepWords);
//   extras    what the stage adds under the figures: 'sameWeight' (the article's hand numbers),
//             'mix' (the mix of V's rows), 'lines' (the word-to-word lines), 'heads' (every
//             head's A side by side, views/heads-overview.js), 'headCost' (what heads cost),
//             'arrows' (q_i and k_j as two arrows, §3, views/arrows.js), 'headGrads' (every head's
//             gradients side by side, after d(concat) is split, views/heads-overview.js).

import { SCALE_RULES, optionForms } from './options.js';
import { hasLoss } from './backward.js';

/**
 * The sizes a shape may name besides the state's own (n, d, dk, dv): with h heads, dk and dv are
 * the widths h·d_k and h·d_v of W_Q and W_V, and one head's Q, K and V have d_k and d_v columns.
 */
const HEAD_SIZES = {
  dkHead: (state) => state.dk / (state.heads ?? 1),
  dvHead: (state) => state.dv / (state.heads ?? 1),
  // The columns of what the loss is on: AV's d_v with one head, the layer's O (n × d) with heads.
  lossCols: (state) => ((state.heads ?? 1) > 1 ? state.d : state.dv),
};

/** A figure's symbol that is one letter or name (FIGURES `symbol`). */
const plain = (name) => ({ text: name, nodes: (m) => [m.mi(name)] });

/** The symbol dM of a gradient ∂L/∂M (FIGURES `symbol`): dV, dW_Q. */
const grad = (name, sub) => ({
  text: sub ? `d${name}_${sub}` : `d${name}`,
  nodes: (m) => [m.mi('d'), sub ? m.msub(m.mi(name), m.mi(sub)) : m.mi(name)],
});

/** The value of a size of a shape: a number, a state's size, or a head's (HEAD_SIZES). */
export const sizeOf = (state, size) =>
  typeof size === 'number' ? size : size in HEAD_SIZES ? HEAD_SIZES[size](state) : state[size];

/**
 * Every matrix a step can show, by its figure id: the model field it is drawn from (a path, e.g.
 * 'article.exps'), its shape in the state's sizes (sizeOf), its colour scale (colors.js: 'div' diverging,
 * 'seq' sequential) and the figure it grows out of in the motion between steps. A new figure
 * also gives its symbol, { text: 'concat', nodes: (m) => [m.mi('concat')] } (views/names.js names
 * the article's own figures).
 */
export const FIGURES = Object.freeze({
  x: { field: 'x', shape: ['n', 'd'], kind: 'div' },
  wq: { field: 'wq', shape: ['d', 'dk'], kind: 'div' },
  wk: { field: 'wk', shape: ['d', 'dk'], kind: 'div' },
  wv: { field: 'wv', shape: ['d', 'dv'], kind: 'div' },
  // One head's Q, K, V (with one head, the whole projections).
  q: { field: 'q', shape: ['n', 'dkHead'], kind: 'div', madeFrom: 'x' },
  k: { field: 'k', shape: ['n', 'dkHead'], kind: 'div', madeFrom: 'x' },
  v: { field: 'v', shape: ['n', 'dvHead'], kind: 'div', madeFrom: 'x' },
  scores: { field: 'scores', shape: ['n', 'n'], kind: 'div', madeFrom: 'k' },
  scaled: { field: 'scaled', shape: ['n', 'n'], kind: 'div', madeFrom: 'scores' },
  rowMax: { field: 'rowMax', shape: ['n', 1], kind: 'div' },
  shifted: { field: 'shifted', shape: ['n', 'n'], kind: 'div', madeFrom: 'scaled' },
  exps: { field: 'exps', shape: ['n', 'n'], kind: 'seq', madeFrom: 'shifted' },
  expsArticle: { field: 'article.exps', shape: ['n', 'n'], kind: 'seq', madeFrom: 'shifted', optional: true },
  rowSum: { field: 'rowSum', shape: ['n', 1], kind: 'seq' },
  weights: { field: 'weights', shape: ['n', 'n'], kind: 'seq', madeFrom: 'exps' },
  output: { field: 'output', shape: ['n', 'dvHead'], kind: 'div', madeFrom: 'weights' },
  // Multi-head attention: the whole projections (every head's columns), the heads' outputs side
  // by side, the output projection and what comes out of it.
  qAll: { field: 'qAll', shape: ['n', 'dk'], kind: 'div', madeFrom: 'x', symbol: plain('Q') },
  kAll: { field: 'kAll', shape: ['n', 'dk'], kind: 'div', madeFrom: 'x', symbol: plain('K') },
  vAll: { field: 'vAll', shape: ['n', 'dv'], kind: 'div', madeFrom: 'x', symbol: plain('V') },
  wo: {
    field: 'wo',
    shape: ['dv', 'd'],
    kind: 'div',
    symbol: { text: 'W_O', nodes: (m) => [m.msub(m.mi('W'), m.mi('O'))] },
  },
  concat: { field: 'concat', shape: ['n', 'dv'], kind: 'div', madeFrom: 'output', symbol: plain('concat') },
  projected: {
    field: 'projected',
    shape: ['n', 'd'],
    kind: 'div',
    madeFrom: 'concat',
    symbol: { text: 'concat·W_O', nodes: (m) => [m.mi('concat'), m.msub(m.mi('W'), m.mi('O'))] },
  },
  // One training step (backward.js): the loss's target and dO, then every gradient, each the
  // shape of what it is the gradient of. dM stands for ∂L/∂M. With heads, dO is the layer's
  // (gradProjected) and gradOutput the shown head's block of d(concat), where its own steps start.
  target: { field: 'target', shape: ['n', 'lossCols'], kind: 'div', symbol: plain('Y') },
  gradProjected: { field: 'gradProjected', shape: ['n', 'd'], kind: 'div', madeFrom: 'projected', symbol: grad('O') },
  gradWo: { field: 'gradWo', shape: ['dv', 'd'], kind: 'div', madeFrom: 'gradProjected', symbol: grad('W', 'O') },
  gradConcat: {
    field: 'gradConcat',
    shape: ['n', 'dv'],
    kind: 'div',
    madeFrom: 'gradProjected',
    symbol: { text: 'd(concat)', nodes: (m) => [m.mi('d'), m.mi('concat')] },
  },
  gradOutput: { field: 'gradOutput', shape: ['n', 'dvHead'], kind: 'div', madeFrom: 'output', symbol: grad('O') },
  gradV: { field: 'gradV', shape: ['n', 'dvHead'], kind: 'div', madeFrom: 'gradOutput', symbol: grad('V') },
  gradWeights: { field: 'gradWeights', shape: ['n', 'n'], kind: 'div', madeFrom: 'gradOutput', symbol: grad('A') },
  gradScaled: { field: 'gradScaled', shape: ['n', 'n'], kind: 'div', madeFrom: 'gradWeights', symbol: grad('Z') },
  gradScores: { field: 'gradScores', shape: ['n', 'n'], kind: 'div', madeFrom: 'gradScaled', symbol: grad('S') },
  gradQ: { field: 'gradQ', shape: ['n', 'dkHead'], kind: 'div', madeFrom: 'gradScores', symbol: grad('Q') },
  gradK: { field: 'gradK', shape: ['n', 'dkHead'], kind: 'div', madeFrom: 'gradScores', symbol: grad('K') },
  // dW with every head's block (with one head, h·d_k = d_k).
  gradWq: { field: 'gradWq', shape: ['d', 'dk'], kind: 'div', madeFrom: 'gradQ', symbol: grad('W', 'Q') },
  gradWk: { field: 'gradWk', shape: ['d', 'dk'], kind: 'div', madeFrom: 'gradK', symbol: grad('W', 'K') },
  gradWv: { field: 'gradWv', shape: ['d', 'dv'], kind: 'div', madeFrom: 'gradV', symbol: grad('W', 'V') },
  // With heads: the heads' dQ, dK, dV side by side, and dX summed over them.
  gradQAll: { field: 'gradQAll', shape: ['n', 'dk'], kind: 'div', madeFrom: 'gradQ', symbol: grad('Q') },
  gradKAll: { field: 'gradKAll', shape: ['n', 'dk'], kind: 'div', madeFrom: 'gradK', symbol: grad('K') },
  gradVAll: { field: 'gradVAll', shape: ['n', 'dv'], kind: 'div', madeFrom: 'gradV', symbol: grad('V') },
  gradX: { field: 'gradX', shape: ['n', 'd'], kind: 'div', madeFrom: 'gradQAll', symbol: grad('X') },
});

/** The shape [rows, cols] of a figure (FIGURES) for a state. */
export const figureShape = (id, state) => FIGURES[id].shape.map((size) => sizeOf(state, size));

/**
 * A figure on a step: `id` (FIGURES) and how it is drawn there —
 *   labels   'token' (the words beside its rows) or 'pair' (beside rows and columns);
 *   pick     'score' | 'output' | …: its cells expand in the popover and fill in the step's
 *            formula (views/explain.js KINDS);
 *   masked   the core's mask greys its cells;
 *   reduce   [what ('Max' | 'Sum'), field]: the row (or column) max or sum set beside it;
 *   totals   its row sums beside it (and column sums under it, for a column softmax);
 *   caption  an i18n key other than mat.<id>.
 */
export const FIGURE = (id, look = {}) => ({ figure: id, ...look });
//   blocks   'dkHead' | 'dvHead': its columns split into the heads' blocks, each in its colour
//            (head-colors.js); rowBlocks the same for its rows (W_O's rows are the heads' outputs).

const token = { labels: 'token' };

/**
 * The loss step's figures, with one head (AV, dO) or the layer (O, dO): for ½‖F − Y‖², F − Y = dO;
 * for dO given, dO alone.
 */
const lossFigures = (forward, gradient) => (state) =>
  state.loss === 'mse'
    ? [[FIGURE(forward, token), '−', FIGURE('target', token), '=', FIGURE(gradient, { ...token, pick: gradient })]]
    : [[FIGURE(gradient, { ...token, pick: gradient, caption: `mat.${gradient}Given` })]];
const scores = { labels: 'pair', pick: 'score' };
const maskedScores = { ...scores, masked: true };
const qkv = () => [[FIGURE('q', token), FIGURE('k', token), FIGURE('v', token)]];
const headBlocks = (out) => ({ blocks: out === 'v' ? 'dvHead' : 'dkHead' });
/** A projection X·W's cells expand (views/explain.js KINDS projectQ, projectK, projectV). */
const projectionPick = (out) => ({ pick: `project${out.toUpperCase()}` });
const hasHeads = (state) => (state.heads ?? 1) > 1;
/** The backward steps through the whole multi-head layer (the loss on O = concat·W_O). */
const hasLayerLoss = (state) => hasLoss(state) && hasHeads(state);
/** The shown head's gradient of its output, d(head_i), as dO of its own steps. */
const headGradOutput = (state) => ({ ...token, ...(hasHeads(state) ? { caption: 'mat.gradHead' } : {}) });

// The formulas' pieces along the softmax's axis, in the article's notation (§5): options.js's forms.
const alongAxis = (axis) => optionForms({ axis }).tex;
/** The scaled score x_ij as the current scaling writes it. */
const scaledScore = (scale) => (SCALE_RULES[scale].tex ? `\\frac{S_{ij}}{${SCALE_RULES[scale].tex}}` : 'S_{ij}');

/** dS_ij as the current scaling writes it: dZ_ij ÷ (the rule's divisor · τ), the chain rule through x = S ÷ (divisor · τ). */
const gradDivided = (scale) =>
  SCALE_RULES[scale].tex ? `\\frac{dZ_{ij}}{${SCALE_RULES[scale].tex}\\cdot\\tau}` : '\\frac{dZ_{ij}}{\\tau}';

export const STEP_LIST = Object.freeze([
  {
    id: 'x',
    section: 1,
    formula: { part: 'x', detail: () => 'X \\in \\mathbb{R}^{n \\times d}' },
    figures: (state) => (state.mode === 'x' ? [[FIGURE('x', token)]] : qkv()),
    produces: [],
    map: { matrices: (s) => (s.mode === 'x' ? ['x'] : []), symbol: (m) => [m.mi('X')] },
    controls: [],
    notices: [{ when: (s) => s.mode === 'qkv', kind: 'info', words: 'step.x.qkvMode' }],
  },
  {
    id: 'project',
    section: 2,
    formula: {
      part: 'project',
      detail: () =>
        'W_Q, W_K \\in \\mathbb{R}^{d \\times d_k},\\; W_V \\in \\mathbb{R}^{d \\times d_v}' +
        '\\quad\\Rightarrow\\quad Q, K \\in \\mathbb{R}^{n \\times d_k},\\; V \\in \\mathbb{R}^{n \\times d_v}',
    },
    // X once, then each projection on one line, X · W = result: the line scrolls, never wraps.
    // With heads, the whole W's and projections, split into the heads' column blocks.
    figures: (state) =>
      state.mode !== 'x'
        ? qkv()
        : [
            [FIGURE('x', token)],
            ...['q', 'k', 'v'].map((out) =>
              (state.heads ?? 1) > 1
                ? [
                    'X ·',
                    FIGURE(`w${out}`, headBlocks(out)),
                    '=',
                    FIGURE(`${out}All`, { ...token, ...headBlocks(out), ...projectionPick(out) }),
                  ]
                : ['X ·', FIGURE(`w${out}`), '=', FIGURE(out, { ...token, ...projectionPick(out) })],
            ),
          ],
    produces: ['q', 'k', 'v'],
    map: {
      matrices: () => ['q', 'k', 'v'],
      symbol: (m) => [m.mi('Q'), m.mi('K'), m.mi('V')],
      op: (m, s) => (s.mode === 'x' ? [m.mo('·'), m.mi('W')] : [m.mo('=')]),
      shape: (s) => [s.n, s.dk],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'scores',
    section: 3,
    formula: {
      part: 'scores',
      detail: () =>
        'S = QK^{\\top} \\in \\mathbb{R}^{n \\times n},\\qquad S_{ij} = q_i \\cdot k_j = \\sum_{t=1}^{d_k} q_{it}\\,k_{jt}',
    },
    figures: () => [
      [FIGURE('q', token), '·', FIGURE('k', { ...token, caption: 'mat.kTransposed' }), '=', FIGURE('scores', scores)],
    ],
    produces: ['scores'],
    map: {
      matrices: () => ['scores'],
      symbol: (m) => [m.mi('S')],
      op: (m) => [m.mi('Q'), m.msup(m.mi('K'), m.mo('⊤'))],
      shape: (s) => [s.n, s.n],
    },
    controls: [],
    notices: [],
    extras: ['arrows'],
  },
  {
    id: 'scale',
    section: 4,
    formula: {
      part: 'scale',
      detail: ({ scale }) =>
        scale === 'sqrt_dk'
          ? 'x_{ij} = \\frac{S_{ij}}{\\sqrt{d_k}},\\qquad \\operatorname{Var}\\!\\left(\\frac{q \\cdot k}{\\sqrt{d_k}}\\right) = \\frac{d_k}{(\\sqrt{d_k})^2} = 1'
          : `x_{ij} = ${scaledScore(scale)},\\qquad \\operatorname{Var}(q \\cdot k) = d_k`,
    },
    figures: () => [[FIGURE('scores', scores), '→', FIGURE('scaled', maskedScores)]],
    produces: ['kept', 'scaled'],
    map: {
      matrices: () => ['scaled'],
      symbol: (m, s) => m.symbol('scaled', s),
      op: (m, s) => [m.mo('÷'), ...(m.divisor(s.scale).length ? m.divisor(s.scale) : [m.mi('1')])],
      shape: (s) => [s.n, s.n],
    },
    controls: ['scale', 'temperature', 'mask'],
    notices: [],
  },
  {
    id: 'max',
    columnWords: ['title', 'text'],
    section: 5,
    formula: {
      part: 'softmax',
      detail: ({ scale, axis }) => `x_{ij} - ${alongAxis(axis).max},\\qquad x_{ij} = ${scaledScore(scale)}`,
    },
    figures: () => [
      [FIGURE('scaled', { ...maskedScores, reduce: ['Max', 'rowMax'] }), '→', FIGURE('shifted', maskedScores)],
    ],
    produces: ['rowMax', 'shifted'],
    map: {
      matrices: () => ['shifted'],
      symbol: (m) => [m.mo('−'), m.fn('max')],
      op: (m) => [m.mo('−'), m.fn('max')],
      shape: (s) => [s.n, s.n],
    },
    controls: ['softmax'],
    notices: [{ when: (s) => !optionForms(s).shiftsMax, kind: 'info', words: 'step.max.naive' }],
  },
  {
    id: 'exp',
    section: 5,
    formula: {
      part: 'softmax',
      detail: ({ softmax, axis }) =>
        optionForms({ softmax }).shiftsMax
          ? `e_{ij} = \\exp\\!\\left(x_{ij} - ${alongAxis(axis).max}\\right)`
          : 'e_{ij} = \\exp\\left(x_{ij}\\right)',
    },
    figures: () => [[FIGURE('exps', maskedScores), FIGURE('expsArticle', { labels: 'pair' })]],
    produces: ['exps'],
    map: {
      matrices: () => ['exps'],
      symbol: (m) => [m.fn('exp')],
      op: (m) => [m.fn('exp')],
      shape: (s) => [s.n, s.n],
    },
    controls: ['softmax'],
    notices: [],
    extras: ['sameWeight'],
  },
  {
    id: 'sum',
    columnWords: ['title', 'text'],
    section: 5,
    formula: {
      part: 'softmax',
      detail: ({ axis }) => alongAxis(axis).sumDef,
    },
    figures: () => [
      [
        FIGURE('exps', { ...maskedScores, reduce: ['Sum', 'rowSum'] }),
        FIGURE('expsArticle', { labels: 'pair', reduce: ['Sum', 'article.rowSum'] }),
      ],
    ],
    produces: ['rowSum'],
    map: {
      matrices: () => ['rowSum'],
      symbol: (m) => [m.mo('Σ')],
      op: (m) => [m.mo('Σ')],
      shape: (s) => (optionForms(s).byColumn ? [1, s.n] : [s.n, 1]),
    },
    controls: [],
    notices: [],
    extras: ['sameWeight'],
  },
  {
    id: 'weights',
    columnWords: ['text'],
    section: 5,
    formula: {
      part: 'softmax',
      detail: ({ axis }) =>
        `A_{ij} = \\frac{e_{ij}}{${alongAxis(axis).sum}},\\qquad ${alongAxis(axis).sumsToOne},\\qquad A \\in \\mathbb{R}^{n \\times n}`,
    },
    figures: (state) => [
      [
        FIGURE('weights', {
          ...maskedScores,
          caption: `mat.weights${optionForms(state).lineWords}`,
          totals: true,
        }),
      ],
    ],
    produces: ['weights'],
    map: {
      matrices: () => ['weights'],
      symbol: (m) => [m.mi('A')],
      op: (m) => [m.mo('÷'), m.mo('Σ')],
      shape: (s) => [s.n, s.n],
    },
    controls: ['axis'],
    notices: [],
    remark: 'article.weights',
    extras: ['lines'],
  },
  {
    id: 'output',
    section: 6,
    formula: {
      part: 'output',
      detail: () =>
        '\\operatorname{output}_i = \\sum_{j=1}^{n} A_{ij}\\, v_j,\\qquad AV \\in \\mathbb{R}^{n \\times d_v}',
    },
    figures: () => [
      [FIGURE('weights', maskedScores), '·', FIGURE('v', token), '=', FIGURE('output', { ...token, pick: 'output' })],
    ],
    produces: ['output'],
    map: {
      matrices: () => ['output'],
      symbol: (m) => [m.mi('A'), m.mi('V')],
      op: (m) => [m.mo('·'), m.mi('V')],
      shape: (s) => [s.n, sizeOf(s, 'dvHead')],
    },
    controls: [],
    notices: [],
    remark: 'article.output',
    extras: ['mix', 'lines', 'loss'],
  },
  // Multi-head attention (the series' next step): the heads' outputs side by side, then W_O.
  {
    id: 'concat',
    when: hasHeads,
    article: 4, // the series' next article, 多头注意力 (article.js)
    formula: {
      part: 'concat',
      detail: () =>
        '\\operatorname{concat} = [\\,\\mathrm{head}_1 \\mid \\cdots \\mid \\mathrm{head}_h\\,] \\in \\mathbb{R}^{n \\times h d_v},' +
        '\\qquad \\mathrm{head}_i = A_i V_i',
    },
    figures: () => [[FIGURE('concat', { ...token, blocks: 'dvHead' })]],
    produces: ['concat'],
    map: {
      matrices: () => ['concat'],
      symbol: (m, s) => m.symbol('concat', s),
      op: (m) => [m.mo('[ | ]')],
      shape: (s) => [s.n, s.dv],
    },
    controls: [],
    notices: [],
    extras: ['heads'],
  },
  {
    id: 'outproj',
    when: hasHeads,
    article: 4,
    formula: {
      part: 'outproj',
      detail: () =>
        'O = \\operatorname{concat}\\,W_O \\in \\mathbb{R}^{n \\times d},\\qquad ' +
        'O_{ij} = \\sum_{t=1}^{h d_v} \\operatorname{concat}_{it}\\,(W_O)_{tj}',
    },
    figures: () => [
      [
        FIGURE('concat', { ...token, blocks: 'dvHead' }),
        '·',
        FIGURE('wo', { rowBlocks: 'dvHead' }),
        '=',
        FIGURE('projected', { ...token, pick: 'projection' }),
      ],
    ],
    produces: ['projected'],
    map: {
      matrices: () => ['projected'],
      symbol: (m, s) => m.symbol('projected', s),
      op: (m, s) => [m.mo('·'), ...m.symbol('wo', s)],
      shape: (s) => [s.n, s.d],
    },
    controls: [],
    notices: [],
    extras: ['headCost'],
  },
  // One training step (issue 17): the backward pass after the forward one, with a loss (backward.js),
  // in the reverse of the article's order: dO → dV, dA → dZ → dS → dQ, dK → dW. With heads the loss
  // is on the layer's output O: dO → dW_O, d(concat) → the shown head's d(head_i) → its dV … dK →
  // dW with every head's block → dX (issue 26). After every step that always exists and after the
  // heads' two, so that each of those keeps its number.
  {
    id: 'dout',
    when: (state) => hasLoss(state) && !hasHeads(state),
    section: 6,
    formula: {
      output: 'mathml',
      part: 'output',
      detail: () =>
        'L = \\tfrac{1}{2}\\lVert AV - Y \\rVert^2 \\;\\Rightarrow\\; dO = \\frac{\\partial L}{\\partial (AV)} = AV - Y,' +
        '\\qquad dO \\in \\mathbb{R}^{n \\times d_v}',
    },
    figures: lossFigures('output', 'gradOutput'),
    produces: ['gradOutput'],
    map: {
      matrices: () => ['gradOutput'],
      symbol: (m, s) => m.symbol('gradOutput', s),
      op: (m) => [m.mi('L')],
      shape: (s) => [s.n, sizeOf(s, 'dvHead')],
    },
    controls: [],
    notices: [{ when: (s) => s.loss === 'given', kind: 'info', words: 'step.dout.given' }],
    extras: ['loss'],
  },
  // With heads the loss is on the layer's output O, and the steps go back through ·W_O and concat
  // before they reach the shown head: dO → dW_O, d(concat) → d(head_i).
  {
    id: 'dlayer',
    when: hasLayerLoss,
    section: 6,
    formula: {
      output: 'mathml',
      part: 'outproj',
      detail: () =>
        'L = \\tfrac{1}{2}\\lVert O - Y \\rVert^2 \\;\\Rightarrow\\; dO = \\frac{\\partial L}{\\partial O} = O - Y,' +
        '\\qquad O = \\operatorname{concat}\\,W_O,\\; dO \\in \\mathbb{R}^{n \\times d}',
    },
    figures: lossFigures('projected', 'gradProjected'),
    produces: ['gradProjected'],
    map: {
      matrices: () => ['gradProjected'],
      symbol: (m, s) => m.symbol('gradProjected', s),
      op: (m) => [m.mi('L')],
      shape: (s) => [s.n, s.d],
    },
    controls: [],
    notices: [{ when: (s) => s.loss === 'given', kind: 'info', words: 'step.dlayer.given' }],
    extras: ['loss'],
  },
  {
    id: 'dwo',
    when: hasLayerLoss,
    section: 6,
    formula: {
      output: 'mathml',
      part: 'outproj',
      detail: () =>
        'dW_O = \\operatorname{concat}^{\\top} dO,\\quad (dW_O)_{tc} = \\sum_{i=1}^{n} \\operatorname{concat}_{it}\\, dO_{ic};' +
        '\\qquad d\\operatorname{concat} = dO\\, W_O^{\\top},\\quad ' +
        'd\\operatorname{concat}_{it} = \\sum_{c=1}^{d} dO_{ic}\\, (W_O)_{tc}',
    },
    figures: () => [
      [
        FIGURE('concat', { ...token, blocks: 'dvHead', caption: 'mat.concatTransposed' }),
        '·',
        FIGURE('gradProjected', token),
        '=',
        FIGURE('gradWo', { rowBlocks: 'dvHead', pick: 'gradWo' }),
      ],
      [
        FIGURE('gradProjected', token),
        '·',
        FIGURE('wo', { rowBlocks: 'dvHead', caption: 'mat.woTransposed' }),
        '=',
        FIGURE('gradConcat', { ...token, blocks: 'dvHead', pick: 'gradConcat' }),
      ],
    ],
    produces: ['gradWo', 'gradConcat'],
    map: {
      matrices: () => ['gradWo', 'gradConcat'],
      symbol: (m, s) => m.symbol('gradConcat', s),
      op: (m, s) => [m.mo('·'), m.msup(...m.symbol('wo', s), m.mo('⊤'))],
      shape: (s) => [s.n, s.dv],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'dsplit',
    when: hasLayerLoss,
    section: 6,
    formula: {
      output: 'mathml',
      part: 'concat',
      detail: () =>
        'd\\,\\mathrm{head}_{i,rc} = d\\operatorname{concat}_{r,\\,(i-1)d_v + c},' +
        '\\qquad d\\,\\mathrm{head}_i \\in \\mathbb{R}^{n \\times d_v},\\quad \\mathrm{head}_i = A_i V_i',
    },
    figures: () => [
      [
        FIGURE('gradConcat', { ...token, blocks: 'dvHead' }),
        '→',
        FIGURE('gradOutput', { ...token, pick: 'gradHead', caption: 'mat.gradHead' }),
      ],
    ],
    produces: ['gradOutput'],
    map: {
      matrices: () => ['gradOutput'],
      symbol: (m) => [m.mi('d'), m.mi('head')],
      op: (m) => [m.mo('[ | ]')],
      shape: (s) => [s.n, sizeOf(s, 'dvHead')],
    },
    controls: [],
    notices: [],
    extras: ['headGrads'],
  },
  {
    id: 'dv',
    when: hasLoss,
    section: 6,
    formula: {
      output: 'mathml',
      part: 'output',
      detail: () =>
        'dV = A^{\\top} dO \\in \\mathbb{R}^{n \\times d_v},\\qquad dV_{jc} = \\sum_{i=1}^{n} A_{ij}\\, dO_{ic}',
    },
    figures: (state) => [
      [
        FIGURE('weights', { labels: 'pair', masked: true, caption: 'mat.weightsTransposed' }),
        '·',
        FIGURE('gradOutput', headGradOutput(state)),
        '=',
        FIGURE('gradV', { ...token, pick: 'gradV' }),
      ],
    ],
    produces: ['gradV'],
    map: {
      matrices: () => ['gradV'],
      symbol: (m, s) => m.symbol('gradV', s),
      op: (m) => [m.msup(m.mi('A'), m.mo('⊤')), m.mo('·')],
      shape: (s) => [s.n, sizeOf(s, 'dvHead')],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'dweights',
    when: hasLoss,
    section: 6,
    formula: {
      output: 'mathml',
      part: 'output',
      detail: () =>
        'dA = dO\\, V^{\\top} \\in \\mathbb{R}^{n \\times n},\\qquad dA_{ij} = \\sum_{c=1}^{d_v} dO_{ic}\\, v_{jc}',
    },
    figures: (state) => [
      [
        FIGURE('gradOutput', headGradOutput(state)),
        '·',
        FIGURE('v', { ...token, caption: 'mat.vTransposed' }),
        '=',
        FIGURE('gradWeights', { labels: 'pair', pick: 'gradWeights' }),
      ],
    ],
    produces: ['gradWeights'],
    map: {
      matrices: () => ['gradWeights'],
      symbol: (m, s) => m.symbol('gradWeights', s),
      op: (m) => [m.mo('·'), m.msup(m.mi('V'), m.mo('⊤'))],
      shape: (s) => [s.n, s.n],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'dscores',
    columnWords: ['text'],
    section: 5,
    when: hasLoss,
    formula: {
      output: 'mathml',
      part: 'softmax',
      detail: ({ scale, axis }) =>
        `dZ_{ij} = A_{ij}\\Big(dA_{ij} - ${alongAxis(axis).gradDot}\\Big),\\qquad dS_{ij} = ${gradDivided(scale)}`,
    },
    figures: () => [
      [FIGURE('weights', { labels: 'pair', masked: true }), FIGURE('gradWeights', { labels: 'pair' })],
      [
        '→',
        FIGURE('gradScaled', { labels: 'pair', masked: true, pick: 'gradScaled' }),
        '→',
        FIGURE('gradScores', { labels: 'pair', masked: true, pick: 'gradScores' }),
      ],
    ],
    produces: ['gradScaled', 'gradScores'],
    map: {
      matrices: () => ['gradScores'],
      symbol: (m, s) => m.symbol('gradScores', s),
      op: (m) => [m.fn('softmax′')],
      shape: (s) => [s.n, s.n],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'dqk',
    when: hasLoss,
    section: 3,
    formula: {
      output: 'mathml',
      part: 'scores',
      detail: () =>
        'dQ = dS\\,K,\\quad dQ_{ic} = \\sum_{j=1}^{n} dS_{ij}\\, k_{jc};\\qquad ' +
        'dK = dS^{\\top} Q,\\quad dK_{jc} = \\sum_{i=1}^{n} dS_{ij}\\, q_{ic}',
    },
    figures: () => [
      [
        FIGURE('gradScores', { labels: 'pair', masked: true }),
        '·',
        FIGURE('k', token),
        '=',
        FIGURE('gradQ', { ...token, pick: 'gradQ' }),
      ],
      ['dSᵀ ·', FIGURE('q', token), '=', FIGURE('gradK', { ...token, pick: 'gradK' })],
    ],
    produces: ['gradQ', 'gradK'],
    map: {
      matrices: () => ['gradQ', 'gradK'],
      symbol: (m, s) => [...m.symbol('gradQ', s), ...m.symbol('gradK', s)],
      op: (m) => [m.mo('·'), m.mi('K')],
      shape: (s) => [s.n, sizeOf(s, 'dkHead')],
    },
    controls: [],
    notices: [],
  },
  {
    id: 'dw',
    when: (state) => hasLoss(state) && state.mode === 'x',
    section: 2,
    formula: {
      output: 'mathml',
      part: 'project',
      detail: () =>
        'dW_Q = X^{\\top} dQ,\\quad dW_K = X^{\\top} dK,\\quad dW_V = X^{\\top} dV,' +
        '\\qquad (dW_Q)_{tc} = \\sum_{i=1}^{n} x_{it}\\, dQ_{ic}',
    },
    // With heads, every head's dQ, dK, dV side by side (its block of dW is Xᵀ·dQ_i).
    figures: (state) => [
      [FIGURE('x', token)],
      ...(hasHeads(state)
        ? [
            ['gradQAll', 'gradWq', 'dkHead'],
            ['gradKAll', 'gradWk', 'dkHead'],
            ['gradVAll', 'gradWv', 'dvHead'],
          ].map(([grad, out, blocks]) => [
            'Xᵀ ·',
            FIGURE(grad, { ...token, blocks }),
            '=',
            FIGURE(out, { blocks, pick: out }),
          ])
        : [
            ['gradQ', 'gradWq'],
            ['gradK', 'gradWk'],
            ['gradV', 'gradWv'],
          ].map(([grad, out]) => ['Xᵀ ·', FIGURE(grad, token), '=', FIGURE(out, { pick: out })])),
    ],
    // (with heads, the heads' dQ, dK, dV side by side are figures of this step too; `produces` is
    // one list for every state, and without heads the model has no such fields)
    produces: ['gradWq', 'gradWk', 'gradWv'],
    map: {
      matrices: () => ['gradWq', 'gradWk', 'gradWv'],
      symbol: (m) => [m.mi('d'), m.mi('W')],
      op: (m) => [m.msup(m.mi('X'), m.mo('⊤')), m.mo('·')],
      shape: (s) => [s.d, s.dk],
    },
    controls: [],
    notices: [],
  },
  // With heads, X's gradient: X feeds every head through W_Q, W_K and W_V, so dX adds up what each
  // sends back.
  {
    id: 'dx',
    when: hasLayerLoss,
    section: 2,
    formula: {
      output: 'mathml',
      part: 'project',
      detail: () =>
        'dX = dQ\\,W_Q^{\\top} + dK\\,W_K^{\\top} + dV\\,W_V^{\\top} = ' +
        '\\sum_{i=1}^{h} \\big(dQ_i\\,W_{Q,i}^{\\top} + dK_i\\,W_{K,i}^{\\top} + dV_i\\,W_{V,i}^{\\top}\\big),' +
        '\\qquad dX \\in \\mathbb{R}^{n \\times d}',
    },
    figures: () => [
      ...[
        ['gradQAll', 'wq', 'dkHead', 'mat.wqTransposed'],
        ['gradKAll', 'wk', 'dkHead', 'mat.wkTransposed'],
        ['gradVAll', 'wv', 'dvHead', 'mat.wvTransposed'],
      ].map(([grad, w, blocks, caption], k) => [
        ...(k ? ['+'] : []),
        FIGURE(grad, { ...token, blocks }),
        '·',
        FIGURE(w, { blocks, caption }),
      ]),
      ['=', FIGURE('gradX', { ...token, pick: 'gradX' })],
    ],
    produces: ['gradX'],
    map: {
      matrices: () => ['gradX'],
      symbol: (m, s) => m.symbol('gradX', s),
      op: (m) => [m.mo('·'), m.msup(m.mi('W'), m.mo('⊤'))],
      shape: (s) => [s.n, s.d],
    },
    controls: [],
    notices: [],
  },
]);

/** The step ids in order: the URL's step number is an id's position + 1. */
export const STEPS = Object.freeze(STEP_LIST.map((step) => step.id));

/**
 * The steps this state has, in order: the nine of the article, then with heads concat and ·W_O,
 * then with a loss the backward steps (dW from X only). The steps that exist only in some states
 * come last, so that the nine keep their numbers in every list.
 */
export const stepsFor = (state) => STEP_LIST.filter((step) => !step.when || step.when(state));

/** The id of step number `step` (1-based, the URL's) of this state's list. */
export const stepIdAt = (state, step) => stepsFor(state)[step - 1]?.id;

/** The number (1-based, the URL's) of step `id` in this state's list; 0 when it has no such step. */
export const stepNumber = (state, id) => stepsFor(state).findIndex((step) => step.id === id) + 1;

/** How many steps this state has: the "of 9" (or 11) of "step 3 of 9". */
export const stepCount = (state) => stepsFor(state).length;

/** The description of step `id` (undefined for an unknown id). */
export const stepById = (id) => STEP_LIST.find((step) => step.id === id);

/** True when step `id` comes at or after step `than`. */
export const atOrAfter = (id, than) => STEPS.indexOf(id) >= STEPS.indexOf(than);

/** The figures of a step as a flat list, operators left out. */
export const stepFigures = (step, state) =>
  step
    .figures(state)
    .flat()
    .filter((item) => typeof item === 'object');

/** Reads a model field by its path ('weights', 'article.exps'); undefined when it is not there. */
export const fieldOf = (model, path) => path.split('.').reduce((value, name) => value?.[name], model);

/**
 * The i18n keys of step `id`'s title and paragraph for `state`: a step whose words name the rows
 * (each row's max, the row sums) has words of its own for a column softmax (`columnWords`), so
 * that the paragraph describes the softmax on screen.
 */
export function stepWords(id, state) {
  const column = state && optionForms(state).byColumn ? (stepById(id).columnWords ?? []) : [];
  const key = (what) => `step.${id}.${what}${column.includes(what) ? '.column' : ''}`;
  return { title: key('title'), text: key('text') };
}

/** The i18n keys a step's words use (the tie test checks each exists in both languages). */
export function stepWordKeys(step, states) {
  const keys = new Set([`step.${step.id}.title`, `step.${step.id}.text`, `map.${step.id}`]);
  for (const state of states) for (const key of Object.values(stepWords(step.id, state))) keys.add(key);
  for (const notice of step.notices) keys.add(notice.words);
  if (step.remark) keys.add(step.remark);
  for (const state of states)
    for (const figure of stepFigures(step, state)) keys.add(figure.caption ?? `mat.${figure.figure}`);
  return [...keys];
}
