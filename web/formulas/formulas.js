// KaTeX sources of the formulas, rendered to HTML at build time by scripts/lib/page-parts.mjs
// (no KaTeX in the page, no CDN):
//   main   — the whole pipeline, one per scaling, in two pieces that wrap on a narrow screen, every step's part wrapped in
//            \htmlClass{part-<id>}{…}: the page marks the current step's part (PART_OF_STEP) with
//            a class, so the formula stays on screen from step to step and only its mark moves;
//   heads  — with more than one head, two pieces after main's two, the same for every option:
//            each head is that attention on its own blocks, and the heads are joined, concat and
//            ·W_O parts of their own;
//   detail — the current step on its own, in the article's notation, one per step and variant
//            (scaling × softmax × axis: the options whose description says `inFormula`).

import { OPTIONS, SCALE_RULES } from '../src/options.js';
import { STEP_LIST, stepById } from '../src/steps.js';

const part = (id, tex) => `\\htmlClass{part-${id}}{${tex}}`;

// The scale's divisor in TeX, from the scaling rule (options.js).
const DENOMINATOR = Object.fromEntries(Object.entries(SCALE_RULES).map(([scale, rule]) => [scale, rule.tex]));

// The options a formula may depend on (options.js `inFormula`): scale, softmax and axis.
const IN_FORMULA = OPTIONS.filter((o) => o.inFormula);

/** Every combination a formula may depend on, as the "scale/softmax/axis" keys the page looks up. */
export const VARIANTS = IN_FORMULA.reduce(
  (variants, o) => variants.flatMap((variant) => o.values.map((value) => ({ ...variant, [o.key]: value }))),
  [{}],
);
export const variantKey = (state) => IN_FORMULA.map((o) => state[o.key]).join('/');

/** Which part of the main formula each step of steps.js is; the softmax's four steps share one. */
export const PART_OF_STEP = Object.freeze(Object.fromEntries(STEP_LIST.map((step) => [step.id, step.formula.part])));

/**
 * Q = XW_Q, K = XW_K, V = XW_V ⇒ Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V, each step's part marked;
 * with heads, then head_i = Attention(Q_i, K_i, V_i), MultiHead(X) = concat(head_1,…,head_h)·W_O.
 */
export const mainFormula = (scale, heads = 1) => mainFormulaPieces(scale, heads).join(' ');

/**
 * With heads, the pieces after the attention (as the paper that introduced them writes it): head i
 * is the attention on column block i of Q, K and V (each head scaled by its own d_k), and the
 * heads are joined side by side, then projected by W_O.
 */
export const headsPieces = () => [
  '\\mathrm{head}_i = \\operatorname{Attention}(Q_i, K_i, V_i),',
  `\\operatorname{MultiHead}(X) = ${part('concat', '\\operatorname{concat}(\\mathrm{head}_1, \\ldots, \\mathrm{head}_h)')}\\,${part('outproj', 'W_O')}`,
];

/**
 * The main formula in the pieces a narrow screen puts on separate lines, at full size, rather than
 * shrink one line until it is unreadable: the projections (with ⇒), then the attention, and with
 * heads (heads > 1) the heads' two pieces.
 */
export function mainFormulaPieces(scale, heads = 1) {
  const X = part('x', 'X');
  const projections = [
    ['Q', 'W_Q'],
    ['K', 'W_K'],
    ['V', 'W_V'],
  ]
    .map(([out, w]) => part('project', `${out} = ${X}${w}`))
    .join(',\\; ');
  const scores = part('scores', 'QK^{\\top}');
  const denominator = DENOMINATOR[scale];
  const argument = denominator ? `\\frac{${scores}}{${part('scale', denominator)}}` : part('scale', scores);
  const softmax = part('softmax', `\\operatorname{softmax}\\!\\left(${argument}\\right)`);
  const pieces = [
    `${projections} \\;\\Rightarrow`,
    `\\operatorname{Attention}(Q, K, V) = ${softmax}\\,${part('output', 'V')}`,
  ];
  return heads > 1 ? [...pieces, ...headsPieces()] : pieces;
}

/**
 * The current step on its own (its description in steps.js). Under the naive softmax nothing is
 * subtracted before exp (the article's overflow warning); along columns (the FAQ's misconception)
 * max and sum run over i.
 */
export function detailFormula(stepId, scale, softmax = 'stable', axis = 'row') {
  const step = stepById(stepId);
  if (!step) throw new Error(`no formula for step ${stepId}`);
  return step.formula.detail({ scale, softmax, axis });
}
