// The NumPy export's backward steps (one training step, backward.js): with a loss, the script goes
// on after the forward pass — dO from the loss, then dV = Aᵀ·dO, dA = dO·Vᵀ, dZ through the softmax
// along the page's axis, dS = dZ ÷ the page's divisor (the same expression as its forward scaling),
// dQ = dS·K, dK = dSᵀ·Q and from X dW = Xᵀ·dQ … — and prints each as the page shows it. A masked
// pair's A is 0, so its dZ is 0 without a word more. With heads the loss is on the layer's output
// O, and the script goes the whole way back (layerBackwardLines): dW_O, d(concat), each head's steps
// on its block, dW with every head's block and dX. Pure: returns lines.

/**
 * The lines after the forward pass: `names` say what the forward part called the shown head's
 * Q, K, V, its output and A (Q, K, V, out, A with one head; blocks of them with heads), `divide` the
 * forward's scaling (' / np.sqrt(np.float32(d_k))' …), `pyMatrix` how a matrix is written.
 * Returns { lines, prints }.
 */
export function backwardLines(t, model, state, { names, divide, pyMatrix, pyAxis }) {
  const { q, k, v, out, a } = names;
  const lines = [`# ${t('export.py.backward')}`];
  if (state.loss === 'mse')
    lines.push(`Y = ${pyMatrix(model.target)}`, `dO = ${out} - Y   # ${t('export.py.lossMse')}`);
  else lines.push(`dO = ${pyMatrix(model.gradOutput)}   # ${t('export.py.lossGiven')}`);
  lines.push(...headSteps(t, { q, k, v, a, dO: 'dO', divide, pyAxis }));
  const prints = ['dO', 'dV', 'dA', 'dZ', 'dS', 'dQ', 'dK'].map((name) => `show("${name}", ${name})`);
  if (state.mode === 'x') {
    lines.push('dW_Q, dW_K, dW_V = X.T @ dQ, X.T @ dK, X.T @ dV');
    prints.push('show("dW_Q", dW_Q)', 'show("dW_K", dW_K)', 'show("dW_V", dW_V)');
  }
  lines.push('');
  return { lines, prints };
}

/** One head's backward steps from its dO: dV, dA, dZ along the axis, dS, dQ, dK (the one-head formulas). */
function headSteps(t, { q, k, v, a, dO, divide, pyAxis }) {
  return [
    `dV = ${a}.T @ ${dO}`,
    `dA = ${dO} @ ${v}.T`,
    `dZ = ${a} * (dA - (${a} * dA).sum(axis=${pyAxis}, keepdims=True))   # ${t('export.py.softmaxBackward')}`,
    ...(divide.includes('d_k') ? [`d_k = ${q}.shape[-1]`] : []),
    `dS = dZ${divide}   # ${t('export.py.scaleBackward')}`,
    `dQ = dS @ ${k}`,
    `dK = dS.T @ ${q}`,
  ];
}

/**
 * With heads, the lines after the forward pass (numpy.js headLines: `output`, `concat`, `heads`,
 * `d_k`, `d_v`, `h`): dO on the layer's output, dW_O = concat.T @ dO, d(concat) = dO @ W_O.T, each
 * head's steps on its block of d(concat) (a function, the one-head formulas), the heads' dQ, dK, dV
 * side by side, dW and dX. Prints every head's six gradients and the layer's. Returns { lines, prints }.
 */
export function layerBackwardLines(t, model, state, { divide, pyMatrix, pyAxis }) {
  const lines = [`# ${t('export.py.backwardLayer')}`];
  if (state.loss === 'mse')
    lines.push(`Y = ${pyMatrix(model.target)}`, `dO = output - Y   # ${t('export.py.lossMseLayer')}`);
  else lines.push(`dO = ${pyMatrix(model.gradProjected)}   # ${t('export.py.lossGivenLayer')}`);
  const indent = (line) => `    ${line}`;
  const block = (m, w) => `${m}[:, i * ${w}:(i + 1) * ${w}]`;
  lines.push(
    `dW_O = concat.T @ dO   # ${t('export.py.outprojBackward')}`,
    'dconcat = dO @ W_O.T',
    `def head_backward(Qh, Kh, Vh, A, dOh):   # ${t('export.py.headBackward')}`,
    ...headSteps(t, { q: 'Qh', k: 'Kh', v: 'Vh', a: 'A', dO: 'dOh', divide, pyAxis }).map(indent),
    '    return dV, dA, dZ, dS, dQ, dK',
    `grads = [head_backward(${block('Q', 'd_k')}, ${block('K', 'd_k')}, ${block('V', 'd_v')}, heads[i][1], ` +
      `${block('dconcat', 'd_v')}) for i in range(h)]   # ${t('export.py.splitBackward')}`,
    'dQ, dK, dV = (np.concatenate([g[m] for g in grads], axis=1) for m in (4, 5, 0))',
    'dW_Q, dW_K, dW_V = X.T @ dQ, X.T @ dK, X.T @ dV',
    `dX = dQ @ W_Q.T + dK @ W_K.T + dV @ W_V.T   # ${t('export.py.inputBackward')}`,
    '',
  );
  const prints = [
    'show("dO", dO)',
    'show("dW_O", dW_O)',
    'show("d(concat)", dconcat)',
    'for i, g in enumerate(grads):',
    '    for name, M in zip(("dV", "dA", "dZ", "dS", "dQ", "dK"), g):',
    '        show(f"{name} (head {i + 1})", M)',
    ...['dQ', 'dK', 'dV', 'dW_Q', 'dW_K', 'dW_V', 'dX'].map((name) => `show("${name}", ${name})`),
  ];
  return { lines, prints };
}
