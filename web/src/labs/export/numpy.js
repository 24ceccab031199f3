// Export as a NumPy script in the article's style (§7: `softmax`, `attention`, the matrices, two
// prints): run with Python 3 and NumPy, it prints the same weights A and output AV as the page.
// Pure: returns the file's text.
//
// What makes it print the page's numbers, not merely similar ones:
//  - float32 throughout, as the core: the inputs are written as the shortest decimals of their
//    float32 values, the arrays are np.float32 and the divisor is a float32 (np.sqrt(np.float32(d_k))),
//    so the naive softmax overflows exactly where the page's does (e^x > float32's 3.4e38 at x ≈ 88.7);
//  - the page's options: ÷√d_k, ÷d_k or none, the temperature, a causal or custom mask (−∞ before
//    the softmax), the stable or naive softmax, along rows or columns, and the page's policy for a
//    fully masked row (all-zero weights, not NaN) — each written only when the page uses it, so the
//    default export reads like the article's code;
//  - the numbers printed to the page's significant digits.
// With heads (multi-head attention), `attention` runs once per head on its column blocks of Q, K
// and V, the heads' outputs are concatenated and multiplied by W_O, and every head's A and AV are
// printed, then concat and concat·W_O; with a loss, the backward pass through the whole layer.
// The remaining differences are float32 rounding (NumPy sums in another order): within a unit of
// the last digit shown, checked in tests/web/export.test.mjs by running the file with /usr/bin/python3.

import { translate } from '../../i18n/index.js';
import { stepOptions } from '../../model.js';
import { optionForms } from '../../options.js';
import { toRows } from '../../matrix.js';
import { float32Text } from './numbers.js';
import { backwardLines, layerBackwardLines } from './numpy-backward.js';
import { hasLoss } from '../../backward.js';
import { articleUrl } from '../../article.js';
import { stateTokens } from '../../words.js';

const pyNumber = (x) => (Number.isNaN(x) ? 'np.nan' : float32Text(x));
const pyMatrix = (m) =>
  `np.array([${toRows(m)
    .map((row) => `[${row.map(pyNumber).join(', ')}]`)
    .join(', ')}], dtype=np.float32)`;
const pyBool = (m) =>
  `np.array([${toRows(m)
    .map((row) => `[${row.map((x) => (x ? 'True' : 'False')).join(', ')}]`)
    .join(', ')}])`;

// True when some line along the softmax's axis is masked throughout (its weights must be 0).
function hasFullyMaskedLine(kept, byColumn) {
  const rows = toRows(kept);
  const lines = byColumn ? rows[0].map((_, j) => rows.map((row) => row[j])) : rows;
  return lines.some((line) => line.every((x) => x === 0));
}

/** softmax: the article's three lines, or the naive form, or with the fully-masked-row policy. */
function softmaxLines(t, { guard, stable }) {
  const lines = [];
  lines.push('def softmax(x, axis=-1):');
  if (guard) {
    lines.push(
      '    m = x.max(axis=axis, keepdims=True)',
      `    full = np.isneginf(m)   # ${t('export.py.fullyMasked')}`,
      stable
        ? `    e = np.exp(x - np.where(full, 0, m))   # ${t('export.py.stable')}`
        : `    e = np.exp(x)   # ${t('export.py.naive')}`,
      '    s = e.sum(axis=axis, keepdims=True)',
      '    return np.where(full, 0, e / np.where(full, 1, s))',
    );
  } else if (stable) {
    lines.push(
      `    x = x - x.max(axis=axis, keepdims=True)   # ${t('export.py.stable')}`,
      '    e = np.exp(x)',
      '    return e / e.sum(axis=axis, keepdims=True)',
    );
  } else {
    lines.push(`    e = np.exp(x)   # ${t('export.py.naive')}`, '    return e / e.sum(axis=axis, keepdims=True)');
  }
  return lines;
}

/**
 * The prints, written as the page writes a matrix (format.js's matrixFormat): with an exponent
 * throughout when one value needs it (below 1e−6, from 1e9), whole numbers when all of its values
 * are, otherwise every non-zero value to `digits` significant digits, 1 as 1.000.
 */
function showLines(t, digits, prints) {
  return [
    `def show(name, M, digits=${digits}):   # ${t('export.py.show', { digits })}`,
    '    finite = [abs(float(x)) for x in M.flat if np.isfinite(x) and x != 0]',
    '    exponent = any(a >= 1e9 or a < 1e-6 for a in finite)',
    '    whole = all(float(x).is_integer() for x in M.flat if np.isfinite(x))',
    '    def text(x):',
    '        if not np.isfinite(x) or x == 0:',
    '            return "0" if x == 0 else str(x)',
    '        a = abs(float(x))',
    '        if exponent:',
    '            t = f"{a:.{digits - 1}e}"',
    '        elif whole:',
    '            t = str(int(a))',
    '        elif a >= 10 ** digits:',
    '            t = str(round(a))',
    "        else:   # digits significant digits, trailing zeros kept, as JavaScript's toPrecision",
    '            t = f"{a:.{max(digits - 1 - int(np.floor(np.log10(a))), 0)}f}"',
    '        return ("-" if x < 0 else "") + t',
    '    print(name)',
    '    for row in M:',
    '        print("  " + "  ".join(text(x) for x in row))',
    '',
    ...prints,
    '',
  ];
}

/** Multi-head attention after the projections: each head on its blocks, concat, ·W_O; and what to print. */
function headLines(t, model, state, params) {
  const blocks = params.map((p) =>
    p === 'Q' || p === 'K' ? `${p}[:, i * d_k:(i + 1) * d_k]` : p === 'V' ? 'V[:, i * d_v:(i + 1) * d_v]' : p,
  );
  return {
    lines: [
      `W_O = ${pyMatrix(model.wo)}`,
      `h = ${state.heads}   # ${t('export.py.heads')}`,
      'd_k, d_v = W_Q.shape[1] // h, W_V.shape[1] // h',
      `heads = [attention(${blocks.join(', ')}) for i in range(h)]`,
      `concat = np.concatenate([out for out, A in heads], axis=1)   # ${t('export.py.concat')}`,
      `output = concat @ W_O   # ${t('export.py.outproj')}`,
      '',
    ],
    prints: [
      'for i, (out, A) in enumerate(heads):',
      '    show(f"A (head {i + 1})", A)',
      '    show(f"AV (head {i + 1})", out)',
      'show("concat", concat)',
      'show("concat @ W_O", output)',
    ],
  };
}

/**
 * The .py file for the page's current example. `model` is computeModel's result (model.js);
 * `state` the page's state: mode, scale, temperature, mask, softmax, axis, digits, lang.
 * `file` is the name the text says to run.
 */
export function numpyScript(model, state, { file = 'attention.py' } = {}) {
  const t = (key, params) => translate(state.lang, key, params);
  const { temperature, mask, stable } = stepOptions(state);
  const { divisor: rule, tau: withTemperature, byColumn, pyAxis, pyWords } = optionForms(state);
  const masked = mask !== 'none';
  const guard = masked && hasFullyMaskedLine(model.kept, byColumn);
  const lines = [];
  const add = (...more) => lines.push(...more);

  // Which article it follows, and where that lives when the page knows (article.js).
  const url = articleUrl(state);
  add(
    `# ${t('export.py.title')}`,
    `# ${t('article.source')}${t('article.name')}${url ? ` ${url}` : ''}`,
    `# ${t('export.py.run', { file })}`,
    'import numpy as np',
    '',
  );
  if (!stable) add(`np.seterr(over="ignore", invalid="ignore")   # ${t('export.py.errors')}`, '');

  add(...softmaxLines(t, { guard, stable }));
  add('');

  // attention: scores, the divisor, the mask, softmax along the page's axis, A·V
  const divisor = rule.py;
  const divide = withTemperature
    ? ` / (${divisor ? `${divisor} * ` : ''}np.float32(temperature))`
    : divisor
      ? ` / ${divisor}`
      : '';
  const params = ['Q', 'K', 'V', ...(masked ? ['mask'] : []), ...(withTemperature ? ['temperature'] : [])];
  add(`def attention(${params.join(', ')}):`);
  if (divisor) add('    d_k = Q.shape[-1]');
  add(`    scores = Q @ K.T${divide}   # ${t('export.py.scores')}`);
  if (masked) add(`    scores = np.where(mask, scores, -np.inf)   # ${t('export.py.mask')}`);
  add(
    `    A = softmax(scores, axis=${pyAxis})   # ${t(pyWords)}`,
    `    return A @ V, A   # ${t('export.py.weighted')}`,
    '',
  );

  // the matrices, after the words that name their rows (a JSON string is a Python string too)
  const words = stateTokens(state);
  if (words)
    add(
      `words = [${words.map((word) => JSON.stringify(word)).join(', ')}]   # ${t('export.py.words', { matrix: state.mode === 'x' ? 'X' : 'Q, K, V' })}`,
    );
  if (state.mode === 'x') {
    add(
      `X = ${pyMatrix(model.x)}`,
      `W_Q = ${pyMatrix(model.wq)}`,
      `W_K = ${pyMatrix(model.wk)}`,
      `W_V = ${pyMatrix(model.wv)}`,
      `Q, K, V = X @ W_Q, X @ W_K, X @ W_V   # ${t('export.py.projections')}`,
    );
  } else {
    add(`Q = ${pyMatrix(model.q)}`, `K = ${pyMatrix(model.k)}`, `V = ${pyMatrix(model.v)}`);
  }
  if (mask === 'causal')
    add(`mask = np.tril(np.ones((Q.shape[0], K.shape[0]), dtype=bool))   # ${t('export.py.causal')}`);
  else if (masked) add(`mask = ${pyBool(model.kept)}`);
  if (withTemperature) add(`temperature = ${float32Text(temperature)}`);
  // With a loss, one training step (numpy-backward.js).
  const backward = (names) =>
    hasLoss(state) ? backwardLines(t, model, state, { names, divide, pyMatrix, pyAxis }) : { lines: [], prints: [] };
  if (state.heads > 1) {
    // With heads the loss is on the layer's output O (numpy-backward.js layerBackwardLines).
    const heads = headLines(t, model, state, params);
    const back = hasLoss(state)
      ? layerBackwardLines(t, model, state, { divide, pyMatrix, pyAxis })
      : { lines: [], prints: [] };
    add(...heads.lines, ...back.lines, ...showLines(t, state.digits, [...heads.prints, ...back.prints]));
    return lines.join('\n');
  }
  add(`out, A = attention(${params.join(', ')})`, '');
  const back = backward({ q: 'Q', k: 'K', v: 'V', out: 'out', a: 'A' });
  add(...back.lines, ...showLines(t, state.digits, ['show("A", A)', 'show("AV", out)', ...back.prints]));
  return lines.join('\n');
}
