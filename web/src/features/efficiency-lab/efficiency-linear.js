// Linear attention, the part that computes: φ(x) = elu(x) + 1 in place of the exp, so that the
// weights are A_ij = φ(q_i)·φ(k_j) / Σ_j φ(q_i)·φ(k_j), and the product can be taken in either
// order — (φ(Q)φ(K)ᵀ)V, n²·d multiply-adds, or φ(Q)(φ(K)ᵀV), n·d² — for the same numbers up to
// rounding. Pure: no DOM; every number is the core's (attentionLinear, attentionSteps), and what
// this file adds is only how far two of them are apart.

import { largestDifference } from './efficiency-lab.js';

/**
 * The Kullback–Leibler divergence of each row of q from the same row of p (two matrices of
 * weights, each row summing to 1): KL(p_i ‖ q_i) = Σ_j p_ij·ln(p_ij / q_ij), in nats, float64.
 * A term with p_ij = 0 is 0 (a masked key); q_ij = 0 where p_ij > 0 makes the row ∞. 0 when the
 * rows are equal, and never below 0 (Gibbs' inequality).
 */
export function rowDivergence(p, q) {
  const out = new Float64Array(p.rows);
  for (let i = 0; i < p.rows; i++) {
    let sum = 0;
    for (let j = 0; j < p.cols; j++) {
      const a = p.data[i * p.cols + j],
        b = q.data[i * q.cols + j];
      if (a > 0) sum += a * Math.log(a / b);
    }
    out[i] = sum;
  }
  return out;
}

/**
 * The panel's numbers on q, k, v (one head, no mask):
 *   quadratic, linear — attentionLinear's two orders, and `orders`, how far apart they are;
 *   multiplyAdds      — the core's count of each order's multiply-adds, { quadratic, linear };
 *   weights           — linear attention's A (the quadratic order's, from the core), beside
 *   softmax           — attentionSteps' weights and output, softmax(QKᵀ/√d_k) on the same inputs;
 *   divergence        — KL(softmax row ‖ linear row) for each query (rowDivergence);
 *   output            — how far linear attention's output is from softmax attention's.
 * Throws the core's refusal of an input.
 */
export function linearAttentionLab(engine, { q, k, v }) {
  const result = engine.attentionLinear({ q, k, v, weights: true });
  const softmax = engine.attentionSteps({ q, k, v });
  return {
    quadratic: result.quadratic,
    linear: result.linear,
    orders: largestDifference(result.quadratic, result.linear),
    multiplyAdds: result.multiplyAdds,
    weights: result.weights,
    softmax: { weights: softmax.weights, output: softmax.output },
    divergence: rowDivergence(softmax.weights, result.weights),
    output: largestDifference(result.linear, softmax.output),
  };
}
