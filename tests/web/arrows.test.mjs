// Issue 18, item 14: the geometry of §3's two arrows (web/src/arrows.js) — the angle and the dot
// product |q||k|cos θ = q·k, the plane's extent, where a dragged or nudged head lands (the new
// row of Q or K), and when the picture can be drawn and edited. Expected values by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  geometry,
  extentFor,
  vectorAt,
  nudged,
  snap,
  arrowsMode,
  rowOf,
  PLANE,
  toDrawing,
} from '../../web/src/arrows.js';
import { fromRows } from '../../web/src/matrix.js';

test('the worked example: q₁ = (1, 0) and k₂ = (0, 1) are at right angles, q₁·k₂ = 0; q₁·k₁ = 1 at 0°', () => {
  assert.deepEqual(geometry([1, 0], [0, 1]), { dot: 0, lengthQ: 1, lengthK: 1, cos: 0, angle: 90 });
  assert.deepEqual(geometry([1, 0], [1, 0]), { dot: 1, lengthQ: 1, lengthK: 1, cos: 1, angle: 0 });
});

test('|q||k|cos θ is q·k, at any angle; pointing apart, the dot product is negative', () => {
  for (const [q, k] of [
    [
      [3, 4],
      [4, -3],
    ],
    [
      [1, 2],
      [-2, 0.5],
    ],
    [
      [2, 0],
      [-1, 1],
    ],
  ]) {
    const g = geometry(q, k);
    assert.ok(Math.abs(g.lengthQ * g.lengthK * Math.cos((g.angle * Math.PI) / 180) - g.dot) < 1e-12);
  }
  const apart = geometry([2, 0], [-1, 1]);
  assert.equal(apart.dot, -2);
  assert.ok(Math.abs(apart.angle - 135) < 1e-9);
});

test('an arrow of length 0 has no angle, but still a dot product', () => {
  assert.deepEqual(geometry([0, 0], [1, 1]), { dot: 0, lengthQ: 0, lengthK: Math.SQRT2, cos: null, angle: null });
});

test('the plane reaches 2, or far enough for both arrows with a margin', () => {
  assert.equal(
    extentFor([
      [1, 0],
      [0, 1],
    ]),
    2,
  );
  assert.equal(
    extentFor([
      [3, 0],
      [0, -1],
    ]),
    4,
  );
  assert.equal(
    extentFor([
      [NaN, Infinity],
      [1, 0],
    ]),
    2,
    'a non-finite number does not blow the plane up',
  );
});

test('a drag: the head lands on the grid of 0.1, inside the plane, y pointing up', () => {
  // The drawing's units reach PLANE for the plane's extent, with y down (SVG): on a plane of 2 a
  // point at (3.65, −6.3) of the drawing's 10 is the vector (0.73, 1.26) → (0.7, 1.3) on the grid.
  assert.equal(PLANE, 10);
  assert.deepEqual(vectorAt({ x: 3.65, y: -6.3 }, 2), [0.7, 1.3]);
  assert.deepEqual(vectorAt({ x: 25, y: 25 }, 2), [2, -2], 'kept inside the plane');
  assert.deepEqual(vectorAt({ x: -0.2, y: 0.05 }, 2), [0, 0], 'no −0 in the URL');
  assert.equal(toDrawing(0.7, 2), 3.5);
  assert.equal(snap(0.1 + 0.2), 0.3);
});

test('arrow keys move a head by 0.1, with Shift by 1; other keys do nothing', () => {
  assert.deepEqual(nudged([1, 0], 'ArrowUp'), [1, 0.1]);
  assert.deepEqual(nudged([1, 0], 'ArrowLeft'), [0.9, 0]);
  assert.deepEqual(nudged([0.3, 0.2], 'ArrowDown', { big: true }), [0.3, -0.8]);
  assert.equal(nudged([1, 0], 'Enter'), null);
});

test('the picture edits Q and K given directly, only shows them computed from X, and needs d_k = 2', () => {
  const q2 = {
    q: fromRows([
      [1, 0],
      [0, 1],
    ]),
  };
  const q3 = { q: fromRows([[1, 0, 0]]) };
  const q1 = { q: fromRows([[1], [2]]) };
  assert.equal(arrowsMode({ mode: 'qkv' }, q2), 'edit');
  assert.equal(arrowsMode({ mode: 'x' }, q2), 'readOnly');
  assert.equal(arrowsMode({ mode: 'qkv' }, q3), 'needs2d');
  assert.equal(arrowsMode({ mode: 'qkv' }, q1), 'needs2d', 'd_k = 1 has no plane either');
  assert.deepEqual(rowOf(q2.q, 1), [0, 1]);
});

test('a huge arrow (1e20) draws a plane of at most 20 grid lines a side, not one per unit', async () => {
  const { installFakeDom } = await import('./fake-dom.mjs');
  installFakeDom();
  const { createArrows } = await import('../../web/src/views/arrows.js');
  const { translator } = await import('../../web/src/i18n/index.js');
  const model = { q: fromRows([[1e20, 0]]), k: fromRows([[0, 1]]) };
  const state = { n: 1, mode: 'qkv', lang: 'en', digits: 4, heads: 1 };
  const view = createArrows({ t: translator('en') });
  const extent = extentFor([rowOf(model.q, 0), rowOf(model.k, 0)]);
  view.update({ state, model, t: translator('en'), pair: { i: 0, j: 0 }, mode: 'edit', extent });
  const lines = view.parts.grid.all('line').length;
  assert.ok(lines > 0 && lines <= 2 * (2 * 20 + 1), `${lines} lines`);
  assert.match(view.parts.readout.textContent, /^q₁ = \(1\.000e20, 0\), k₁ = \(0, 1\)/);
});

test("float32's largest arrow (3.4e38) is drawn in small coordinates: an SVG reads them as float32", async () => {
  const { installFakeDom } = await import('./fake-dom.mjs');
  installFakeDom();
  const { createArrows } = await import('../../web/src/views/arrows.js');
  const { translator } = await import('../../web/src/i18n/index.js');
  const model = { q: fromRows([[3.4028235e38, 0]]), k: fromRows([[0, -3.4028235e38]]) };
  const state = { n: 1, mode: 'qkv', lang: 'en', digits: 4, heads: 1 };
  const view = createArrows({ t: translator('en') });
  const extent = extentFor([rowOf(model.q, 0), rowOf(model.k, 0)]);
  view.update({ state, model, t: translator('en'), pair: { i: 0, j: 0 }, mode: 'edit', extent });
  const numbers = [view.parts.svg, ...view.parts.grid.all('line'), view.parts.q.handle, view.parts.k.handle]
    .flatMap((el) => ['viewBox', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy'].map((name) => el.getAttribute(name)))
    .filter((value) => value !== null && value !== undefined)
    .flatMap((value) => String(value).split(' ').map(Number));
  assert.ok(numbers.length > 0);
  assert.ok(
    numbers.every((v) => Number.isFinite(v) && Math.abs(v) <= 3 * PLANE),
    numbers.join(' '),
  );
});
