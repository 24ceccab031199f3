// Export as PNG, the drawing half: a step's matrices side by side on a canvas, each with its name
// and shape above it and every cell as the page shows it — the heatmap colour of colors.js and,
// up to TABLE_LIMIT rows and columns, the number as the page writes it (format.js's matrixFormat:
// one writing for the whole matrix, 1.000 beside 0.4931); beyond, the
// heatmap alone in small cells. As on the page, the rows (and columns) carry their words, a
// multi-head matrix its heads' blocks (a band of each head's colour with its name above its
// columns, or a bar beside its rows), and a masked cell its hatching. Pure: the caller sizes its
// canvas from layoutMatrices and hands drawMatrices the 2D context (a test hands it a recording
// one); saving the file is the view's.
//
//   const layout = layoutMatrices([{ label: 'A', matrix: model.weights, kind: 'seq' }], { digits: 4 });
//   canvas.width = layout.width * layout.scale; canvas.height = layout.height * layout.scale;
//   drawMatrices(canvas.getContext('2d'), layout);

import { scaleFor, cellColors, offColor } from '../../colors.js';
import { matrixFormat } from '../../format.js';
import { TABLE_LIMIT } from '../../state.js';

/**
 * Sizes in CSS pixels (times `scale` on the canvas, 2 by default for a sharp print): `words` the
 * column of row labels, `band` a line of column labels or of heads' names, `bar` the heads' bar
 * beside the rows.
 */
export const PNG_SIZES = Object.freeze({
  padding: 24,
  gap: 40,
  title: 30,
  cell: { width: 72, height: 30 },
  heat: 12,
  words: 56,
  band: 20,
  bar: 8,
});
const FONTS = {
  title: '600 16px system-ui, sans-serif',
  number: '14px ui-monospace, Menlo, Consolas, monospace',
  label: '13px system-ui, sans-serif',
};
const BACKGROUND = { light: '#ffffff', dark: '#1e2126' };
const INK = { light: '#1b1d22', dark: '#e8eaee' };
const MUTED = { light: '#555b66', dark: '#a9afba' }; // the page's --muted

/**
 * Where everything goes. panels: [{ label, matrix: { rows, cols, data }, kind: 'seq' | 'div',
 * rowLabels?, colLabels? (words), blocks?, rowBlocks? ({ width, colors, label(b) }: the heads'
 * blocks of columns or rows), masked?: (i, j) → true for a masked cell }] (kind as the page's
 * heatmaps: sequential from 0, or diverging around 0).
 * → { width, height, scale, digits, theme, items: [{ …panel, x, y, cellWidth, cellHeight, numbers,
 *     cellsX, cellsY (the first cell's corner) }] }
 */
export function layoutMatrices(panels, { digits = 4, theme = 'light', scale = 2 } = {}) {
  const { padding, gap, title, cell, heat, words, band, bar } = PNG_SIZES;
  let x = padding,
    height = 0;
  const items = panels.map((panel) => {
    const { matrix } = panel;
    const numbers = matrix.rows <= TABLE_LIMIT && matrix.cols <= TABLE_LIMIT;
    const cellWidth = numbers ? cell.width : heat,
      cellHeight = numbers ? cell.height : heat;
    const left = (panel.rowLabels ? words : 0) + (panel.rowBlocks ? bar + 4 : 0);
    const above = (panel.blocks ? band : 0) + (panel.colLabels ? band : 0);
    const item = { ...panel, x, y: padding, cellWidth, cellHeight, numbers };
    Object.assign(item, { cellsX: x + left, cellsY: padding + title + above });
    x += Math.max(left + matrix.cols * cellWidth, 120) + gap;
    height = Math.max(height, title + above + matrix.rows * cellHeight);
    return item;
  });
  return { width: x - gap + padding, height: height + 2 * padding, scale, digits, theme, items };
}

/** Draws a layout onto a 2D context whose canvas is layout.width × layout.height times layout.scale. */
export function drawMatrices(ctx, layout) {
  const { scale, theme } = layout;
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = BACKGROUND[theme];
  ctx.fillRect(0, 0, layout.width, layout.height);
  for (const item of layout.items) {
    ctx.fillStyle = INK[theme];
    ctx.font = FONTS.title;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(`${item.label}  (${item.matrix.rows}×${item.matrix.cols})`, item.x, item.y + PNG_SIZES.title - 10);
    drawCells(ctx, item, layout);
    drawLabels(ctx, item, theme);
    drawBlocks(ctx, item);
  }
}

/** The cells: heat colour, the number (up to TABLE_LIMIT), and the hatching of a masked cell. */
function drawCells(ctx, { matrix, kind, cellsX, cellsY, cellWidth, cellHeight, numbers, masked }, { digits, theme }) {
  const heatScale = scaleFor(matrix.data, kind);
  const format = matrixFormat(matrix.data, digits);
  ctx.font = FONTS.number;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < matrix.rows; i++) {
    for (let j = 0; j < matrix.cols; j++) {
      const value = matrix.data[i * matrix.cols + j];
      const { bg, fg } = cellColors(value, heatScale, theme);
      const left = cellsX + j * cellWidth,
        top = cellsY + i * cellHeight;
      ctx.fillStyle = bg;
      ctx.fillRect(left, top, cellWidth, cellHeight);
      if (masked?.(i, j)) hatch(ctx, left, top, cellWidth, cellHeight, offColor(theme));
      if (numbers) {
        ctx.fillStyle = masked?.(i, j) ? MUTED[theme] : fg;
        ctx.fillText(format(value), left + cellWidth / 2, top + cellHeight / 2);
      }
    }
  }
}

/** The page's mark of a masked cell: diagonal lines across it (the legend's hatching). */
function hatch(ctx, left, top, width, height, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let d = 6; d < width + height; d += 8) {
    // the line x + y = d (in the cell), clipped to the cell
    const [x1, y1] = [Math.min(d, width), d - Math.min(d, width)];
    const [x2, y2] = [d - Math.min(d, height), Math.min(d, height)];
    ctx.moveTo(left + x1, top + y1);
    ctx.lineTo(left + x2, top + y2);
  }
  ctx.stroke();
}

/** The words beside the rows (right-aligned) and above the columns. */
function drawLabels(ctx, { rowLabels, colLabels, matrix, cellsX, cellsY, cellWidth, cellHeight, rowBlocks }, theme) {
  ctx.font = FONTS.label;
  ctx.fillStyle = MUTED[theme];
  ctx.textBaseline = 'middle';
  if (rowLabels) {
    ctx.textAlign = 'right';
    const right = cellsX - (rowBlocks ? PNG_SIZES.bar + 4 : 0) - 6;
    for (let i = 0; i < matrix.rows; i++)
      if (rowLabels[i] !== undefined) ctx.fillText(String(rowLabels[i]), right, cellsY + (i + 0.5) * cellHeight);
  }
  if (colLabels) {
    ctx.textAlign = 'center';
    for (let j = 0; j < matrix.cols; j++)
      if (colLabels[j] !== undefined)
        ctx.fillText(String(colLabels[j]), cellsX + (j + 0.5) * cellWidth, cellsY - PNG_SIZES.band / 2);
  }
}

/** The heads' blocks: a band in each head's colour with its name above its columns, a bar beside its rows. */
function drawBlocks(ctx, { blocks, rowBlocks, colLabels, matrix, cellsX, cellsY, cellWidth, cellHeight }) {
  const { band, bar } = PNG_SIZES;
  if (blocks) {
    const top = cellsY - (colLabels ? band : 0) - band;
    ctx.font = FONTS.label;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let b = 0; b * blocks.width < matrix.cols; b++) {
      const left = cellsX + b * blocks.width * cellWidth;
      const width = blocks.width * cellWidth;
      ctx.fillStyle = blocks.colors[b];
      ctx.fillRect(left + 1, top + band - 4, width - 2, 3);
      ctx.fillText(blocks.label(b), left + width / 2, top + (band - 4) / 2);
    }
  }
  if (rowBlocks)
    for (let b = 0; b * rowBlocks.width < matrix.rows; b++) {
      ctx.fillStyle = rowBlocks.colors[b];
      ctx.fillRect(
        cellsX - bar - 4,
        cellsY + b * rowBlocks.width * cellHeight + 1,
        bar,
        rowBlocks.width * cellHeight - 2,
      );
    }
}
