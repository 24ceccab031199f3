// The article's picture of §3, "两个向量就像两支箭": for d_k = 2, q_i and k_j as two arrows in the
// plane, whose dot product is |q||k|cos θ (views/arrows.js draws it, controller/arrows.js edits Q
// and K through it). Pure: the geometry, the plane's extent, a dragged or nudged arrow's new
// numbers, and whether the picture can be drawn and edited for a state.

/** Where a dragged or nudged arrow's head lands: on the grid of STEP (the URL stays short). */
export const STEP = 0.1;
/** An arrow key moves a head by STEP, with Shift by BIG_STEP. */
export const BIG_STEP = 1;

/** A number on the grid: 0.30000000000000004 is 0.3, and −0 is 0. */
export const snap = (value) => Number((Math.round(value / STEP) * STEP).toFixed(1)) || 0;

/**
 * q·k, |q|, |k| and the angle θ between them in degrees (null when an arrow has no length: a zero
 * vector has no direction). cos θ = q·k / (|q||k|), clamped against rounding.
 */
export function geometry(q, k) {
  const dot = q[0] * k[0] + q[1] * k[1];
  const lengthQ = Math.hypot(q[0], q[1]);
  const lengthK = Math.hypot(k[0], k[1]);
  if (lengthQ === 0 || lengthK === 0) return { dot, lengthQ, lengthK, cos: null, angle: null };
  const cos = Math.min(1, Math.max(-1, dot / (lengthQ * lengthK)));
  return { dot, lengthQ, lengthK, cos, angle: (Math.acos(cos) * 180) / Math.PI };
}

/** How far the plane reaches from 0 on each axis: 2, or enough to hold both arrows with a margin. */
export const extentFor = (vectors) =>
  Math.max(2, Math.ceil(1.25 * Math.max(...vectors.flat().map((v) => (Number.isFinite(v) ? Math.abs(v) : 0)))));

/**
 * How far the drawing reaches from 0 in its own units, whatever the plane's extent: the drawing
 * draws a value v at v·PLANE/extent, so that its coordinates stay small numbers (an SVG reads them
 * as float32: a plane of 4e38 would not even parse).
 */
export const PLANE = 10;

/** A value of the plane (|v| ≤ extent) in the drawing's units. */
export const toDrawing = (v, extent) => (v * PLANE) / extent;

/**
 * The vector whose head is at `point`, a point of the drawing in its own units (PLANE for the
 * plane's extent, with y pointing down as SVG draws it: the drawing flips it), on the grid and
 * inside the plane.
 */
export function vectorAt(point, extent) {
  const clamp = (v) => Math.min(extent, Math.max(-extent, v));
  return [snap(clamp((point.x * extent) / PLANE)), snap(clamp((-point.y * extent) / PLANE))];
}

/** The arrow `vector` moved by one arrow key (ArrowLeft, ArrowRight, ArrowUp, ArrowDown), or null for another key. */
export function nudged(vector, key, { big = false } = {}) {
  const by = big ? BIG_STEP : STEP;
  const move = { ArrowLeft: [-by, 0], ArrowRight: [by, 0], ArrowUp: [0, by], ArrowDown: [0, -by] }[key];
  return move ? [snap(vector[0] + move[0]), snap(vector[1] + move[1])] : null;
}

/**
 * What the picture can do for a state and its model: 'edit' (Q and K are the inputs: mode "Q, K, V
 * directly"), 'readOnly' (they are computed from X·W: dragging would have to change X or a W,
 * which the reader did not ask for), or 'needs2d' (one head's d_k is not 2).
 */
export function arrowsMode(state, model) {
  if (model.q.cols !== 2) return 'needs2d';
  return state.mode === 'qkv' ? 'edit' : 'readOnly';
}

/** Row i of a model matrix as [x, y]. */
export const rowOf = (matrix, i) => [matrix.data[i * matrix.cols], matrix.data[i * matrix.cols + 1]];
