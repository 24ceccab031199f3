// A matrix drawn on a canvas, one pixel a value (the heatmaps, the map's thumbnails), repainted
// after an edit. An edit of X changes one row of X, Q, K and V: while a matrix's colour scale and
// the theme stay, its other rows' pixels already show their values, and only the rows from the
// first to the last that changed are painted and put again. Render only.

import { paintImage } from '../colors.js';

/**
 * The painter of a canvas's 2D `context` for a matrix of `rows` × `cols`: paint(data, scale,
 * theme) makes the canvas show `data` coloured on `scale` (colors.js), exactly as painting it
 * all would.
 */
export function rowPainter(context, rows, cols) {
  const image = context.createImageData(cols, rows);
  const shown = new Float64Array(rows * cols); // the values on the canvas (exact for float32 and float64)
  let looks = null; // the scale and theme they are coloured with

  return function paint(data, scale, theme) {
    const key = `${scale.kind} ${scale.max} ${theme}`;
    let [from, to] = [0, rows];
    if (key === looks) {
      [from, to] = changedRows(shown, data, cols);
      if (from === to) return;
    }
    looks = key;
    const [start, end] = [from * cols, to * cols];
    // paintImage writes value k into pixel k of the image's data: given the rows' slice of both,
    // it paints those rows and touches no other pixel.
    paintImage({ data: image.data.subarray(4 * start, 4 * end) }, data.subarray(start, end), scale, theme);
    shown.set(data.subarray(start, end), start);
    context.putImageData(image, 0, 0, 0, from, cols, to - from);
  };
}

// Two values painted alike: equal, or both NaN (−0 paints as 0). Compared with === rather than
// Object.is, which made these loops six times slower.
const alike = (a, b) => a === b || (a !== a && b !== b);

/** The rows [from, to) from the first to the last in which `data` differs from `shown` (from = to: none). */
function changedRows(shown, data, cols) {
  let first = 0;
  while (first < data.length && alike(shown[first], data[first])) first++;
  if (first === data.length) return [0, 0];
  let last = data.length - 1;
  while (alike(shown[last], data[last])) last--;
  return [Math.floor(first / cols), Math.floor(last / cols) + 1];
}
