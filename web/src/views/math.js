// MathML built with DOM calls: matrix names, the map's labels and the one-number expansion with
// live numbers. Chromium (≥ 109) and Firefox lay out MathML Core natively, so the page needs no
// typesetting library at run time (KaTeX would add ~300 kB to the offline file); styles.css draws
// it with the KaTeX fonts the pre-rendered formulas already carry, so both look alike.
//   math(msub(mi('S'), mn('12')), mo('='), mn('0'))  →  <math><mrow>…</mrow></math>

const NS = 'http://www.w3.org/1998/Math/MathML';

/** One MathML element; string children become text, arrays are flattened, null is skipped. */
export function mml(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {}))
    if (value !== null && value !== undefined) el.setAttribute(key, value);
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else el.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  };
  children.forEach(add);
  return el;
}

/** An inline formula; `label` gives it a plain-text name for assistive technology. */
export const math = (children, { label, display } = {}) =>
  mml('math', { 'aria-label': label, display: display ? 'block' : null }, mml('mrow', {}, children));

export const mrow = (...children) => mml('mrow', {}, children);
/** A variable (italic in the KaTeX math font, styles.css). */
export const mi = (name) => mml('mi', {}, name);
/** A word set upright: exp, max, softmax. */
export const fn = (name) => mml('mi', { mathvariant: 'normal' }, name);
export const mn = (text) => mml('mn', {}, text);
export const mo = (text, attrs) => mml('mo', attrs, text);
export const msub = (base, sub) => mml('msub', {}, base, typeof sub === 'object' ? sub : mn(sub));
export const msup = (base, sup) => mml('msup', {}, base, sup);
export const msubsup = (base, sub, sup) => mml('msubsup', {}, base, sub, sup);
export const mfrac = (top, bottom) => mml('mfrac', {}, top, bottom);
export const msqrt = (...children) => mml('msqrt', {}, children);
export const mtext = (text) => mml('mtext', {}, text);
export const space = (width = '0.25em') => mml('mspace', { width });

/** A number as the page writes it; a negative one in brackets when it is a factor: 1·(−0.5). */
export function num(text, { bracketNegative = false } = {}) {
  const negative = text.startsWith('\u2212');
  return negative && bracketNegative ? mrow(mo('('), mn(text), mo(')')) : mn(text);
}

/** Parenthesised: (…) with stretchy brackets. */
export const paren = (...children) => mrow(mo('('), ...children, mo(')'));

/** d_k as the article writes it. */
export const dk = () => msub(mi('d'), mi('k'));

// Operators read with a space either side: "S12 = q1 · k2 = 1 · 0 + 0 · 1 = 0".
const SPACED = new Set(['=', '+', '−', '·', '÷']);

/**
 * A formula built here as plain text a screen reader speaks (a live region holds text, not
 * MathML): a fraction reads as a ÷ b, a root as √, a subscript joins its base (S12).
 */
export function speak(node) {
  if (node.nodeType === 3) return node.data;
  const parts = [...node.childNodes].map(speak);
  const text = {
    mfrac: () => `${parts[0]} ÷ ${parts[1]}`,
    msqrt: () => `√${parts.join('')}`,
    mo: () => (SPACED.has(parts.join('')) ? ` ${parts.join('')} ` : parts.join('')),
  }[node.localName];
  const said = text ? text() : parts.join(node.localName === 'span' ? ' ' : '');
  return node.localName === 'span' ? said.replace(/\s+/g, ' ').trim() : said;
}
