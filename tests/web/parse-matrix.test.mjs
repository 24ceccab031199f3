// The paste parser: every format the issue names, the IME's full-width forms, and each bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMatrix, parseNumber, normalizeText } from '../../web/src/parse-matrix.js';

const ok = (text) => {
  const r = parseMatrix(text);
  assert.ok(r.ok, `${text} → ${JSON.stringify(r.error)}`);
  return r.rows;
};
const error = (text) => {
  const r = parseMatrix(text);
  assert.equal(r.ok, false, `${text} should fail`);
  return r.error;
};

test('NumPy style, with or without np.array( … )', () => {
  assert.deepEqual(ok('[[1, 0], [0, 1]]'), [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(ok('np.array([[1., 0.], [0., 1.]])'), [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(ok('array([[10, 0],\n       [0, 10]])'), [
    [10, 0],
    [0, 10],
  ]);
  assert.deepEqual(ok('[1, 2, 3]'), [[1, 2, 3]], 'a 1-D list is one row');
});

test('CSV, whitespace-separated rows and ;-separated rows', () => {
  assert.deepEqual(ok('1,2\n3,4\n'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(ok('1 2\t3\n4  5 6'), [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  assert.deepEqual(ok('1, 2; 3, 4'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(ok('  -1.5e2 +.5 \r\n 0.25 7 '), [
    [-150, 0.5],
    [0.25, 7],
  ]);
});

test('full-width digits and punctuation and the minus sign U+2212 read as ASCII', () => {
  assert.deepEqual(ok('［［１，　−２］，［３．５，４］］'), [
    [1, -2],
    [3.5, 4],
  ]);
  assert.deepEqual(ok('\u22120.5 1\n2 \u22123'), [
    [-0.5, 1],
    [2, -3],
  ]);
  assert.deepEqual(ok('１、２\n３、４'), [
    [1, 2],
    [3, 4],
  ]);
  assert.equal(normalizeText('－１２３'), '-123');
  assert.deepEqual(parseNumber('−７'), { ok: true, value: -7 });
});

test('bad cells say which cell and why', () => {
  assert.deepEqual(parseNumber(''), { ok: false, error: { key: 'empty' } });
  assert.deepEqual(parseNumber('   '), { ok: false, error: { key: 'empty' } });
  assert.equal(parseNumber('abc').error.key, 'notNumber');
  assert.equal(parseNumber('1.2.3').error.key, 'notNumber');
  assert.equal(parseNumber('NaN').error.key, 'nan');
  assert.equal(parseNumber('-inf').error.key, 'infinite');
  assert.equal(parseNumber('Infinity').error.key, 'infinite');
  assert.equal(parseNumber('∞').error.key, 'infinite');
  // Issue 19 item 8: a number too long for a double is too large, as 1e39 is, not "±∞"; and
  // 3.4028235e38, which float32 rounds to its largest number, is accepted as the API accepts it.
  assert.equal(parseNumber('1e999').error.key, 'tooLarge', 'Infinity as a double, but typed as a number');
  assert.equal(parseNumber('9'.repeat(400)).error.key, 'tooLarge', '400 digits');
  assert.equal(parseNumber('1e39').error.key, 'tooLarge', 'finite in JS, Infinity in float32');
  assert.deepEqual(parseNumber('3e38'), { ok: true, value: 3e38 });
  assert.deepEqual(parseNumber('3.4028235e38'), { ok: true, value: 3.4028235e38 });
  assert.deepEqual(parseNumber('-3.4028235e38'), { ok: true, value: -3.4028235e38 });
  assert.deepEqual(error('1 2\n3 x'), { key: 'notNumber', text: 'x', row: 2, col: 2 });
  assert.deepEqual(error('[[1, NaN]]'), { key: 'nan', text: 'NaN', row: 1, col: 2 });
});

test('ragged and empty pastes are refused', () => {
  assert.deepEqual(error('[[1, 2], [3]]'), { key: 'ragged', row: 2, got: 1, want: 2 });
  assert.deepEqual(error('1,2,3\n4,5'), { key: 'ragged', row: 2, got: 2, want: 3 });
  assert.equal(error('').key, 'pasteEmpty');
  assert.equal(error(' \n ').key, 'pasteEmpty');
  assert.equal(error('[[]]').key, 'pasteEmpty');
});

test('a lone comma between digits is ambiguous: "1,5" asks instead of guessing 1×2', () => {
  assert.deepEqual(error('1,5'), { key: 'ambiguousComma', text: '1,5', decimal: '1.5', pair: '1, 5' });
  assert.deepEqual(error(' -10,25 '), { key: 'ambiguousComma', text: '-10,25', decimal: '-10.25', pair: '-10, 25' });
  assert.equal(error('１，５').key, 'ambiguousComma', 'full-width too');
  // Anything else says which it is: a space, brackets, a second comma, a second row, 、
  assert.deepEqual(ok('1, 5'), [[1, 5]]);
  assert.deepEqual(ok('[1,5]'), [[1, 5]]);
  assert.deepEqual(ok('1,5,7'), [[1, 5, 7]]);
  assert.deepEqual(ok('1,5\n2,5'), [
    [1, 5],
    [2, 5],
  ]);
  assert.deepEqual(ok('1、5'), [[1, 5]]);
  assert.deepEqual(ok('1.5,2'), [[1.5, 2]]);
});

test('brackets must pair up: "[[1,2],[3" is refused, not read as [1, 2]', () => {
  for (const text of ['[[1,2],[3', '[[1,2],[3]', '[1,2]]', '[[1,2]] 5', '[[1,2], 3]', '[[[1]]]', ']1,2['])
    assert.deepEqual(error(text), { key: 'brackets' }, text);
  assert.deepEqual(ok('[[1,2],[3,4]]'), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(ok('np.array([[1, 2],\n          [3, 4]])'), [
    [1, 2],
    [3, 4],
  ]);
});

test('a message quotes at most 24 characters of what was typed', () => {
  assert.deepEqual(parseNumber('x'.repeat(100000)), {
    ok: false,
    error: { key: 'notNumber', text: `${'x'.repeat(24)}…` },
  });
  assert.deepEqual(parseNumber('9'.repeat(400)), {
    ok: false,
    error: { key: 'tooLarge', text: `${'9'.repeat(24)}…`, max: '3.4028235×10³⁸' },
  });
  assert.equal(error(`[[${'y'.repeat(30)}]]`).text, `${'y'.repeat(24)}…`);
});
