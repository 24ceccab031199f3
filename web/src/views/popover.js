// Where the one-number popover goes. Beside the matrix, level with the chosen cell's row: to the
// right of the table when the window has room, else to its left, else just below the cell — so
// it never covers the row being read. On a narrow screen it is a sheet along the bottom edge, and
// the page scrolls so that the tapped cell stays in sight just above it. Measuring and placing is
// all this does (CSSOM only); the popover's content is views/explain.js's.

export const SHEET_BELOW = 640; // px: narrower windows get the bottom sheet
const GAP = 14;
const EDGE = 8;

/** The cell's box on screen: a <td>, or cell (i, j) of a canvas heatmap. */
export function anchorRect({ td, canvas, i, j }) {
  if (td) return td.getBoundingClientRect();
  const box = canvas.getBoundingClientRect();
  const w = box.width / Number(canvas.dataset.cols);
  const hgt = box.height / Number(canvas.dataset.rows);
  return new DOMRect(box.left + j * w, box.top + i * hgt, w, hgt);
}

/** The box the popover must stay clear of sideways: the table (or heatmap) holding the cell. */
function zoneRect(anchor) {
  const zone = anchor.td?.closest('.table-scroll') ?? anchor.canvas?.closest('.hm-plot');
  return (zone ?? anchor.td ?? anchor.canvas).getBoundingClientRect();
}

const clamp = (x, lo, hi) => Math.max(lo, Math.min(x, hi));

/** Shows `popover` (already filled) next to `anchor` ({ td } or { canvas, i, j }). */
export function placePopover(popover, anchor) {
  popover.hidden = false;
  const sheet = window.innerWidth < SHEET_BELOW;
  popover.classList.toggle('sheet', sheet);
  const cell = anchorRect(anchor);
  if (sheet) {
    popover.classList.remove('at-right', 'at-left', 'below');
    Object.assign(popover.style, { left: '', top: '' });
    // Keep the tapped cell visible just above the sheet.
    const sheetTop = window.innerHeight - popover.offsetHeight;
    if (cell.bottom > sheetTop - EDGE) window.scrollBy(0, cell.bottom - sheetTop + 2 * EDGE);
    else if (cell.top < 0) window.scrollBy(0, cell.top - 2 * EDGE);
    return;
  }
  const zone = zoneRect(anchor);
  const width = popover.offsetWidth;
  const height = popover.offsetHeight;
  const room = window.innerWidth - EDGE;
  let side;
  let left;
  if (zone.right + GAP + width <= room) {
    side = 'at-right';
    left = zone.right + GAP;
  } else if (zone.left - GAP - width >= EDGE) {
    side = 'at-left';
    left = zone.left - GAP - width;
  } else {
    side = 'below';
    left = clamp(cell.left, EDGE, room - width);
  }
  const rowMiddle = cell.top + cell.height / 2;
  const top =
    side === 'below'
      ? cell.bottom + GAP
      : clamp(rowMiddle - 28, EDGE, Math.max(EDGE, window.innerHeight - height - EDGE));
  popover.classList.remove('at-right', 'at-left', 'below');
  popover.classList.add(side);
  // Document coordinates: the popover's containing block is the page, so it scrolls with the cell.
  Object.assign(popover.style, {
    left: `${Math.round(left + window.scrollX)}px`,
    top: `${Math.round(top + window.scrollY)}px`,
  });
  // The little pointer on the popover's edge aims at the cell.
  popover.style.setProperty(
    '--pointer',
    side === 'below'
      ? `${Math.round(clamp(cell.left + cell.width / 2 - left, 16, width - 16))}px`
      : `${Math.round(clamp(rowMiddle - top, 16, height - 16))}px`,
  );
}
