// The NumPy export's backward steps (one training step, backward.js): with a loss, the script goes
// on after the forward pass — dO from the loss, then dV = Aᵀ·dO, dA = dO·Vᵀ, dZ through the softmax
// along the page's axis, dS = dZ ÷ the page's divisor (the same expression as its forward scaling),
// dQ = dS·K, dK = dSᵀ·Q and from X dW = Xᵀ·dQ … — and prints each as the page shows it. A masked
// pair's A is 0, so its dZ is 0 without a word more. Pure: returns lines.

/**
 * The lines after the forward pass: `names` say what the forward part called the shown head's
 * Q, K, V, its output and A (Q, K, V, out, A with one head; blocks of them with heads), `divide` the
 * forward's scaling (' / np.sqrt(np.float32(d_k))' …), `pyMatrix` how a matrix is written.
 * Returns { lines, prints }.
 */
export function backwardLines(t, model, state, { names, divide, pyMatrix, axis }) {
  const { q, k, v, out, a } = names;
  const lines = [`# ${t('export.py.backward')}`];
  if (state.loss === 'mse')
    lines.push(`Y = ${pyMatrix(model.target)}`, `dO = ${out} - Y   # ${t('export.py.lossMse')}`);
  else lines.push(`dO = ${pyMatrix(model.gradOutput)}   # ${t('export.py.lossGiven')}`);
  const sumAxis = axis === 'row' ? '-1' : '0';
  lines.push(
    `dV = ${a}.T @ dO`,
    `dA = dO @ ${v}.T`,
    `dZ = ${a} * (dA - (${a} * dA).sum(axis=${sumAxis}, keepdims=True))   # ${t('export.py.softmaxBackward')}`,
    ...(divide.includes('d_k') ? [`d_k = ${q}.shape[-1]`] : []),
    `dS = dZ${divide}   # ${t('export.py.scaleBackward')}`,
    `dQ = dS @ ${k}`,
    `dK = dS.T @ ${q}`,
  );
  const prints = ['dO', 'dV', 'dA', 'dZ', 'dS', 'dQ', 'dK'].map((name) => `show("${name}", ${name})`);
  if (state.mode === 'x') {
    lines.push('dW_Q, dW_K, dW_V = X.T @ dQ, X.T @ dK, X.T @ dV');
    prints.push('show("dW_Q", dW_Q)', 'show("dW_K", dW_K)', 'show("dW_V", dW_V)');
  }
  lines.push('');
  return { lines, prints };
}
