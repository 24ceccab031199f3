// The name of every matrix, in one place: the stage's captions, the map, the input editors and the
// one-number expansion all write a matrix the same way (MathML, in the formulas' KaTeX fonts), and
// its plain-text twin is what screen readers and canvas labels say.

import { math, mi, fn, mo, msub, msup, msqrt, mrow, mn, dk, paren } from './math.js';
import { SCALE_RULES, optionForms } from '../options.js';
import { FIGURES } from '../steps.js';

// A solidus set tight, as in S/√dₖ (MathML would space it like a binary operator).
const slash = () => mo('/', { lspace: '0', rspace: '0' });

/**
 * The scale's divisor as MathML (options.js SCALE_RULES): [√d] for ÷√d_k, [d] for ÷d_k, [] for
 * none, where `d` is d_k's symbol or its value (made fresh: a node stands in one place only).
 */
export function divisorNodes(scale, d = dk) {
  const rule = SCALE_RULES[scale];
  if (!rule.tex) return [];
  return rule.root ? [msqrt(d())] : [d()];
}

/** S/√dₖ (or S/dₖ, or S), then /τ when a temperature is set: the scaled scores as the options make them. */
function scaled(state) {
  const { divisor, tau } = optionForms(state);
  const { text } = divisor;
  return {
    nodes: () => [
      mi('S'),
      ...(text ? [slash(), ...divisorNodes(state.scale)] : []),
      ...(tau ? [slash(), mi('τ')] : []),
    ],
    text: `S${text ? `/${text}` : ''}${tau ? '/τ' : ''}`,
  };
}

/**
 * The symbol of matrix `id` for the current options: { nodes() → fresh MathML children, text }.
 * ids: the model's names (x, wq, …, scores, scaled, rowMax, shifted, exps, rowSum, weights, output) and
 * 'expsArticle' (the article's exp without the max).
 */
export function symbol(id, state) {
  const s = scaled(state);
  const max = () => [mo('−'), fn('max')];
  const simple = (base, sub) => ({
    nodes: () => [sub ? msub(mi(base), mi(sub)) : mi(base)],
    text: sub ? `${base}_${sub}` : base,
  });
  switch (id) {
    case 'x':
      return simple('X');
    case 'wq':
      return simple('W', 'Q');
    case 'wk':
      return simple('W', 'K');
    case 'wv':
      return simple('W', 'V');
    case 'q':
      return simple('Q');
    case 'k':
      return simple('K');
    case 'v':
      return simple('V');
    case 'scores':
      return { nodes: () => [mi('S'), mo('='), mi('Q'), msup(mi('K'), mo('⊤'))], text: 'S = QKᵀ' };
    case 'scaled':
      return s;
    case 'shifted':
      return { nodes: () => [...s.nodes(), ...max()], text: `${s.text} − max` };
    case 'exps':
      return optionForms(state).shiftsMax
        ? {
            nodes: () => [mi('E'), mo('='), fn('exp'), paren(...s.nodes(), ...max())],
            text: `E = exp(${s.text} − max)`,
          }
        : { nodes: () => [mi('E'), mo('='), fn('exp'), paren(...s.nodes())], text: `E = exp(${s.text})` };
    case 'expsArticle':
      return { nodes: () => [fn('exp'), paren(...s.nodes())], text: `exp(${s.text})` };
    case 'rowMax':
      return { nodes: () => [fn('max')], text: 'max' };
    case 'rowSum':
      return { nodes: () => [mo('Σ')], text: 'Σ' };
    case 'weights':
      return simple('A');
    case 'output':
      return { nodes: () => [mi('A'), mi('V')], text: 'AV' };
    default: {
      // A figure described with its own symbol (steps.js FIGURES: { text, nodes(m) }).
      const own = FIGURES[id]?.symbol;
      if (!own) throw new Error(`no symbol for ${id}`);
      return { nodes: () => own.nodes({ mi, mo, fn, msub, msup, paren }), text: own.text };
    }
  }
}

/** "name ∈ ℝ^{rows×cols}", the shape label every matrix carries, as one <math>. */
export function shapeMath(id, state, rows, cols) {
  const { nodes, text } = symbol(id, state);
  return math(
    [
      ...nodes(),
      mo('∈', { lspace: '0.28em', rspace: '0.28em' }),
      msup(fn('ℝ'), mrow(mn(String(rows)), mo('×'), mn(String(cols)))),
    ],
    { label: `${text} ∈ ℝ ${rows}×${cols}` },
  );
}

/** Just the symbol, as one <math>. */
export function symbolMath(id, state) {
  const { nodes, text } = symbol(id, state);
  return math(nodes(), { label: text });
}
