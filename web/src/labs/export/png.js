// Export as PNG, the drawing half: a step's matrices side by side on a canvas, each with its name
// and shape above it and every cell as the page shows it — the heatmap colour of colors.js and,
// up to TABLE_LIMIT rows and columns, the number as the page writes it (format.js's matrixFormat:
// one writing for the whole matrix, 1.000 beside 0.4931); beyond, the
// heatmap alone in small cells. Pure: the caller sizes its canvas from layoutMatrices and hands
// drawMatrices the 2D context (a test hands it a recording one); saving the file is the view's.
//
//   const layout = layoutMatrices([{ label: 'A', matrix: model.weights, kind: 'seq' }], { digits: 4 });
//   canvas.width = layout.width * layout.scale; canvas.height = layout.height * layout.scale;
//   drawMatrices(canvas.getContext('2d'), layout);

import { scaleFor, cellColors } from '../../colors.js';
import { matrixFormat } from '../../format.js';
import { TABLE_LIMIT } from '../../state.js';

/** Sizes in CSS pixels (times `scale` on the canvas, 2 by default for a sharp print). */
export const PNG_SIZES = Object.freeze({ padding: 24, gap: 40, title: 30, cell: { width: 72, height: 30 }, heat: 12 });
const FONTS = { title: '600 16px system-ui, sans-serif', number: '14px ui-monospace, Menlo, Consolas, monospace' };
const BACKGROUND = { light: '#ffffff', dark: '#1e2126' };
const INK = { light: '#1b1d22', dark: '#e8eaee' };

/**
 * Where everything goes. panels: [{ label, matrix: { rows, cols, data }, kind: 'seq' | 'div' }]
 * (kind as the page's heatmaps: sequential from 0, or diverging around 0).
 * → { width, height, scale, digits, theme, items: [{ label, matrix, kind, x, y, cellWidth, cellHeight, numbers }] }
 */
export function layoutMatrices(panels, { digits = 4, theme = 'light', scale = 2 } = {}) {
  const { padding, gap, title, cell, heat } = PNG_SIZES;
  let x = padding,
    height = 0;
  const items = panels.map(({ label, matrix, kind }) => {
    const numbers = matrix.rows <= TABLE_LIMIT && matrix.cols <= TABLE_LIMIT;
    const cellWidth = numbers ? cell.width : heat,
      cellHeight = numbers ? cell.height : heat;
    const item = { label, matrix, kind, x, y: padding, cellWidth, cellHeight, numbers };
    x += Math.max(matrix.cols * cellWidth, 120) + gap;
    height = Math.max(height, title + matrix.rows * cellHeight);
    return item;
  });
  return { width: x - gap + padding, height: height + 2 * padding, scale, digits, theme, items };
}

/** Draws a layout onto a 2D context whose canvas is layout.width × layout.height times layout.scale. */
export function drawMatrices(ctx, layout) {
  const { scale, digits, theme } = layout;
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = BACKGROUND[theme];
  ctx.fillRect(0, 0, layout.width, layout.height);
  for (const { label, matrix, kind, x, y, cellWidth, cellHeight, numbers } of layout.items) {
    ctx.fillStyle = INK[theme];
    ctx.font = FONTS.title;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(`${label}  (${matrix.rows}×${matrix.cols})`, x, y + PNG_SIZES.title - 10);
    const heatScale = scaleFor(matrix.data, kind);
    const format = matrixFormat(matrix.data, digits);
    ctx.font = FONTS.number;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < matrix.rows; i++) {
      for (let j = 0; j < matrix.cols; j++) {
        const value = matrix.data[i * matrix.cols + j];
        const { bg, fg } = cellColors(value, heatScale, theme);
        const left = x + j * cellWidth,
          top = y + PNG_SIZES.title + i * cellHeight;
        ctx.fillStyle = bg;
        ctx.fillRect(left, top, cellWidth, cellHeight);
        if (numbers) {
          ctx.fillStyle = fg;
          ctx.fillText(format(value), left + cellWidth / 2, top + cellHeight / 2);
        }
      }
    }
  }
}
