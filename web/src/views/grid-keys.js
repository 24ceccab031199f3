// Arrow keys inside a matrix of pickable cells (a roving tab stop: one cell is in the tab order,
// arrows move between cells, so a 16×16 table is not 256 tab stops).

export function moveInGrid(event) {
  const td = event.target.closest?.('td.pick');
  const delta = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
  if (!td || !delta) return;
  const table = td.closest('table');
  const i = Number(td.dataset.i) + delta[0];
  const j = Number(td.dataset.j) + delta[1];
  const next = table.querySelector(`td.pick[data-i="${i}"][data-j="${j}"]`);
  event.preventDefault();
  if (!next) return;
  td.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
