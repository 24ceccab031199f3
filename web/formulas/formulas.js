// KaTeX sources of the formulas, rendered to HTML at build time by scripts/lib/page-parts.mjs
// (no KaTeX in the page, no CDN):
//   main   — the whole pipeline, one per scaling, every step's part wrapped in
//            \htmlClass{part-<id>}{…}: the page marks the current step's part (PART_OF_STEP) with
//            a class, so the formula stays on screen from step to step and only its mark moves;
//   detail — the current step on its own, in the article's notation, one per step and variant
//            (scaling × softmax × axis).

import { SCALES, SOFTMAXES, AXES } from '../../wasm/vocabulary.mjs';
import { SCALE_RULES } from '../src/options.js';

const part = (id, tex) => `\\htmlClass{part-${id}}{${tex}}`;

// The scale's divisor in TeX, from the scaling rule (options.js).
const DENOMINATOR = Object.fromEntries(Object.entries(SCALE_RULES).map(([scale, rule]) => [scale, rule.tex]));

/** Every combination a formula may depend on, as the "scale/softmax/axis" keys the page looks up. */
export const VARIANTS = SCALES.flatMap((scale) =>
  SOFTMAXES.flatMap((softmax) => AXES.map((axis) => ({ scale, softmax, axis }))),
);
export const variantKey = ({ scale, softmax, axis }) => `${scale}/${softmax}/${axis}`;

/** Which part of the main formula each step of steps.js is; the softmax's four steps share one. */
export const PART_OF_STEP = Object.freeze({
  x: 'x',
  project: 'project',
  scores: 'scores',
  scale: 'scale',
  max: 'softmax',
  exp: 'softmax',
  sum: 'softmax',
  weights: 'softmax',
  output: 'output',
});

/** Q = XW_Q, K = XW_K, V = XW_V ⇒ Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V, each step's part marked. */
export function mainFormula(scale) {
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
  return `${projections} \\;\\Rightarrow\\; \\operatorname{Attention}(Q, K, V) = ${softmax}\\,${part('output', 'V')}`;
}

/** The scaled score x_ij as the current scaling writes it. */
function scaledScore(scale) {
  const denominator = DENOMINATOR[scale];
  return denominator ? `\\frac{S_{ij}}{${denominator}}` : 'S_{ij}';
}

/**
 * The current step on its own. Under the naive softmax nothing is subtracted before exp (the
 * article's overflow warning); along columns (the FAQ's misconception) max and sum run over i.
 */
export function detailFormula(step, scale, softmax = 'stable', axis = 'row') {
  const byColumn = axis === 'column';
  const max = byColumn ? "\\max_{i'} x_{i'j}" : "\\max_{j'} x_{ij'}";
  const sum = byColumn ? '\\Sigma_j' : '\\Sigma_i';
  switch (step) {
    case 'x':
      return 'X \\in \\mathbb{R}^{n \\times d}';
    case 'project':
      return (
        'W_Q, W_K \\in \\mathbb{R}^{d \\times d_k},\\; W_V \\in \\mathbb{R}^{d \\times d_v}' +
        '\\quad\\Rightarrow\\quad Q, K \\in \\mathbb{R}^{n \\times d_k},\\; V \\in \\mathbb{R}^{n \\times d_v}'
      );
    case 'scores':
      return 'S = QK^{\\top} \\in \\mathbb{R}^{n \\times n},\\qquad S_{ij} = q_i \\cdot k_j = \\sum_{t=1}^{d_k} q_{it}\\,k_{jt}';
    case 'scale':
      return scale === 'sqrt_dk'
        ? 'x_{ij} = \\frac{S_{ij}}{\\sqrt{d_k}},\\qquad \\operatorname{Var}\\!\\left(\\frac{q \\cdot k}{\\sqrt{d_k}}\\right) = \\frac{d_k}{(\\sqrt{d_k})^2} = 1'
        : `x_{ij} = ${scaledScore(scale)},\\qquad \\operatorname{Var}(q \\cdot k) = d_k`;
    case 'max':
      return `x_{ij} - ${max},\\qquad x_{ij} = ${scaledScore(scale)}`;
    case 'exp':
      return softmax === 'naive'
        ? 'e_{ij} = \\exp\\left(x_{ij}\\right)'
        : `e_{ij} = \\exp\\!\\left(x_{ij} - ${max}\\right)`;
    case 'sum':
      return byColumn ? '\\Sigma_j = \\sum_{i=1}^{n} e_{ij}' : '\\Sigma_i = \\sum_{j=1}^{n} e_{ij}';
    case 'weights':
      return byColumn
        ? `A_{ij} = \\frac{e_{ij}}{${sum}},\\qquad \\sum_{i=1}^{n} A_{ij} = 1,\\qquad A \\in \\mathbb{R}^{n \\times n}`
        : `A_{ij} = \\frac{e_{ij}}{${sum}},\\qquad \\sum_{j=1}^{n} A_{ij} = 1,\\qquad A \\in \\mathbb{R}^{n \\times n}`;
    case 'output':
      return '\\operatorname{output}_i = \\sum_{j=1}^{n} A_{ij}\\, v_j,\\qquad AV \\in \\mathbb{R}^{n \\times d_v}';
    default:
      throw new Error(`no formula for step ${step}`);
  }
}
