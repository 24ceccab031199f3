// Which code computed the numbers on screen, said truthfully: the wasm build that loaded
// (SIMD128, or scalar where the browser lacks wasm SIMD) and the path (the SIMD loops, the API's
// default, or the plain reference loops of core/reference.cpp). A switch recomputes everything on
// the reference path and shows the largest difference from the SIMD path, with why there is one.
// Render only: onPath is controller/engine-calls.js's.

import { h } from './dom.js';
import { symbol } from './names.js';

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** 2.4e-7 → "2.4×10⁻⁷": a small difference as a reader writes it. */
function scientific(x) {
  const [mantissa, exponent] = x.toExponential(1).split('e');
  return `${mantissa}×10${String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c] ?? c)}`;
}

const shown = new WeakMap();

/**
 * ctx: { state, t, build ('relaxed'|'simd'|'scalar'), path ('simd'|'reference'),
 *        difference ({ value, name, i, j } from model.js's largestDifference, or null), onPath }.
 */
export function renderEngineInfo(root, { state, t, build, path, difference, onPath }) {
  // Rebuilt only when what it says changes: an edit must not re-lay out the page below the stage.
  const key = JSON.stringify([state.lang, build, path, difference]);
  if (shown.get(root) === key) return;
  shown.set(root, key);
  const reference = path === 'reference';
  let compared = null;
  if (reference && difference) {
    compared =
      difference.value === 0
        ? t('engine.same')
        : t('engine.difference', {
            value: scientific(difference.value),
            name: symbol(difference.name, state).text,
            i: difference.i + 1,
            j: difference.j + 1,
          });
  }
  root.replaceChildren(
    h(
      'p',
      { class: 'engine-line' },
      h('span', { id: 'engine-build' }, t(`engine.build.${build}`)),
      ' · ',
      h('span', { id: 'engine-path' }, t(`engine.path.${path}`)),
      ' ',
      h(
        'label',
        { class: 'engine-switch' },
        h('input', {
          type: 'checkbox',
          id: 'path-reference',
          checked: reference,
          onchange: (e) => onPath(e.target.checked ? 'reference' : 'simd'),
        }),
        ' ',
        t('engine.reference'),
      ),
    ),
    h('p', { class: 'engine-diff', id: 'engine-difference', role: 'status' }, compared ?? ''),
    h('p', { class: 'hint' }, t('engine.why')),
  );
}
