// Turns what a reader types or pastes into numbers, or into an error the page can explain.
// Pure: no DOM. Errors are { key, ...params } so the views can say them in the current language.
//
// Accepted: NumPy-style `[[1, 0], [0, 1]]` (also wrapped in `np.array(...)`), CSV rows,
// whitespace-separated rows, rows separated by `;`. Refused with a reason: brackets that do not
// pair up, and a lone `1,5` (a decimal comma, or two numbers?). Full-width digits and punctuation (as typed
// with a Chinese IME) and the minus sign U+2212 are read as their ASCII counterparts.

import { cellProblem } from '../../wasm/vocabulary.mjs';
import { LIMITS } from './input-rules.js';

const FULL_WIDTH_START = 0xff01; // '！' … '～' map onto '!' … '~'
const FULL_WIDTH_END = 0xff5e;
const ASCII_OFFSET = 0xff01 - 0x21;

/** Maps full-width forms, the minus sign and CJK punctuation onto plain ASCII. */
export function normalizeText(text) {
  let out = '';
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    if (code >= FULL_WIDTH_START && code <= FULL_WIDTH_END) out += String.fromCodePoint(code - ASCII_OFFSET);
    else if (ch === '\u2212' || ch === '\u2013' || ch === '\u2014' || ch === '\ufe63')
      out += '-'; // minus, dashes
    else if (ch === '\u3000')
      out += ' '; // ideographic space
    else if (ch === '\u3001')
      out += ','; // 、 enumeration comma
    else if (ch === '\u3002')
      out += '.'; // 。 used as a decimal point by some IMEs
    else if (ch === '\u00a0') out += ' ';
    else out += ch;
  }
  return out;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NOT_A_NUMBER = /^[+-]?nan$/i;
const INFINITE = /^[+-]?(inf|infinity|∞)$/i;

// How a message quotes what was typed: at most 24 characters, so that 100,000 of them make a
// message of one line.
const quote = (s) => (s.length > 24 ? `${s.slice(0, 24)}…` : s);

/**
 * Reads one cell. Returns { ok: true, value } or { ok: false, error: { key, text } } with key
 * 'empty' | 'nan' | 'infinite' | 'tooLarge' | 'notNumber'. NaN and ±Infinity are refused because the core
 * rejects them in inputs (numerics policy), and a message here is clearer than one from the core.
 */
export function parseNumber(text) {
  const s = normalizeText(text).trim();
  if (s === '') return { ok: false, error: { key: 'empty' } };
  if (NOT_A_NUMBER.test(s)) return { ok: false, error: { key: 'nan', text: quote(s) } };
  if (INFINITE.test(s)) return { ok: false, error: { key: 'infinite', text: quote(s) } };
  if (!NUMBER.test(s)) return { ok: false, error: { key: 'notNumber', text: quote(s) } };
  // The rule of vocabulary.mjs, the API's too: a number ±∞ in float32 (1e39, or 400 digits) is too
  // large; 3.4028235e38 is float32's largest number, rounded.
  if (cellProblem(s)) return { ok: false, error: { key: 'tooLarge', text: quote(s), max: LIMITS.max } };
  return { ok: true, value: Number(s) };
}

// NumPy's wrapper, `np.array( … )`, around the rows.
const unwrapArray = (s) => s.replace(/^\s*(np\.|numpy\.)?(array|matrix)\s*\(/i, '').replace(/\)\s*;?\s*$/, '');

/**
 * True when the brackets of `body` pair up as a matrix's do: at most two levels, every "[" closed
 * by its "]", and every number inside the innermost ones — so "[[1,2],[3" is not read as [1, 2].
 */
function bracketsPairUp(body) {
  let depth = 0;
  for (const ch of body) {
    if (ch === '[' && ++depth > 2) return false;
    if (ch === ']' && --depth < 0) return false;
  }
  return depth === 0 && /^[\s,[\]]*$/.test(body.replace(/\[[^[\]]*\]/g, '[]'));
}

/** Splits normalised text into rows of cell strings, or null when its brackets do not pair up. */
function splitRows(s) {
  const body = unwrapArray(s);
  if (/[[\]]/.test(body)) {
    if (!bracketsPairUp(body)) return null;
    const inner = [...body.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
    return inner.map(splitCells);
  }
  return body
    .split(/[\n;]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map(splitCells);
}

// "1,5": one number with a decimal comma (1.5, as written across much of Europe) or two numbers?
// With no space, bracket, second comma or second row to tell, the page asks instead of guessing.
const AMBIGUOUS_COMMA = /^[+-]?\d+,\d+$/;

function splitCells(line) {
  return line.split(/[\s,]+/).filter((cell) => cell !== '');
}

/**
 * Reads a whole matrix. Returns { ok: true, rows: number[][] } or { ok: false, error } where
 * error.key is 'pasteEmpty' | 'brackets' | 'ambiguousComma' (with text, decimal, pair) |
 * 'ragged' (with row, got, want) | a cell key (with row, col, 1-based).
 */
export function parseMatrix(text) {
  const normal = normalizeText(text);
  const lone = normal.trim();
  if (AMBIGUOUS_COMMA.test(lone) && !String(text).includes('\u3001')) {
    // 、 says "two numbers"
    return {
      ok: false,
      error: { key: 'ambiguousComma', text: lone, decimal: lone.replace(',', '.'), pair: lone.replace(',', ', ') },
    };
  }
  const rows = splitRows(normal);
  if (rows === null) return { ok: false, error: { key: 'brackets' } };
  if (rows.length === 0 || rows.every((r) => r.length === 0)) return { ok: false, error: { key: 'pasteEmpty' } };
  const want = rows[0].length;
  for (let r = 0; r < rows.length; r++) {
    if (rows[r].length !== want) {
      return { ok: false, error: { key: 'ragged', row: r + 1, got: rows[r].length, want } };
    }
  }
  const values = [];
  for (let r = 0; r < rows.length; r++) {
    const row = [];
    for (let c = 0; c < want; c++) {
      const cell = parseNumber(rows[r][c]);
      if (!cell.ok) return { ok: false, error: { ...cell.error, row: r + 1, col: c + 1 } };
      row.push(cell.value);
    }
    values.push(row);
  }
  return { ok: true, rows: values };
}
