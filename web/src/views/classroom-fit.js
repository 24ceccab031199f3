// The classroom mode's type size: as large as the screen allows, read from the back of a room, and
// small enough that the step on screen fits above the bar without scrolling. Every size of the
// stage and of the labs is in rem, so one number on <html> (--classroom-size, styles/classroom.css)
// scales it all. A step that does not fit even at the smallest size scrolls, and the page says so
// (never a silent cut): the bar's cue says so (#classroom-cue). A lab is a column of charts that
// scrolls by design (a clicker's PageDown shows the next): only its width must fit, and the cue
// says when there is more below. Render only (it measures the layout).

import { featureOf } from '../features/index.js';

// The largest type: a 1280×720 projector gives about 25 px, a 1920×1080 one about 38 px.
const largest = (win) => Math.min(win.innerWidth / 50, win.innerHeight / 28);
// Below this the back of a room cannot read the numbers: the step scrolls instead.
const SMALLEST = 14; // px
const HALVINGS = 6; // to within (largest − SMALLEST) / 64, under half a pixel

/** The parts of the shown step that scroll sideways when too wide (kept panes of other steps are not drawn). */
function scrollers(doc) {
  const stage = doc.getElementById('stage-body');
  return [...stage.querySelectorAll('.formulas, .matrix-row, .table-scroll, .matrix .name')].filter(
    (el) => !el.closest('.kept'),
  );
}

/** How much smaller the step must be to fit: 1 when it fits, else the ratio of room to need. */
function room(doc, win) {
  const bar = doc.getElementById('classroom-bar');
  const layout = doc.querySelector('.layout');
  const tall = layout.getBoundingClientRect().bottom + win.scrollY;
  const high = (win.innerHeight - bar.offsetHeight) / tall;
  const wide = scrollers(doc).map((el) => (el.scrollWidth > el.clientWidth + 1 ? el.clientWidth / el.scrollWidth : 1));
  return Math.min(1, high, ...wide);
}

/**
 * Sizes the type to the screen: the largest size at which the step fits, found by halving (a
 * smaller size can also rewrap a row of matrices, so no ratio predicts it). Returns true when the
 * step fits, false when even the smallest size does not: then it scrolls, and the cue says so.
 */
export function fitClassroom(doc, win) {
  const root = doc.documentElement;
  root.style.setProperty('--classroom-bar', `${doc.getElementById('classroom-bar').offsetHeight}px`);
  const fitsAt = (size) => {
    root.style.setProperty('--classroom-size', `${size.toFixed(2)}px`);
    return room(doc, win) >= 1;
  };
  const said = (fits) => {
    root.classList.toggle('classroom-scrolls', !fits);
    doc.getElementById('classroom-cue').hidden = fits;
    return fits;
  };
  const most = Math.max(SMALLEST, largest(win));
  if (fitsAt(most)) return said(true);
  if (!fitsAt(SMALLEST)) return said(false);
  // It fits at the smallest size and not at the largest: the largest that fits lies between.
  let [low, high] = [SMALLEST, most];
  for (let k = 0; k < HALVINGS; k++) {
    const middle = (low + high) / 2;
    if (fitsAt(middle)) low = middle;
    else high = middle;
  }
  // A row of matrices that only just fits can wrap or not depending on the size it came from:
  // a little under the size found, checked again, and smaller still until it holds.
  let size = low * 0.98;
  while (!fitsAt(size) && size > SMALLEST) size = Math.max(SMALLEST, size * 0.95);
  return said(room(doc, win) >= 1);
}

/**
 * The height left for the lab's main chart on the first screen, under what stands above it and
 * over the bar (--classroom-chart-room, read by the lab's own sheet): the chart is as wide as
 * that height allows at its proportions, so that it fills the screen and is seen whole.
 */
function roomForChart(doc, win, barHeight) {
  // The lab's main chart, the one a class sees first (its feature's classroomChart: the cost lab's
  // times, the training lab's loss; the scale lab's histograms and the exercise's matrices fit the
  // first screen by their type).
  const selector = featureOf(doc.body.dataset.view)?.classroomChart;
  const chart = selector && doc.querySelector(selector);
  if (!chart) return;
  const top = chart.getBoundingClientRect().top + win.scrollY;
  const room = Math.max(win.innerHeight - barHeight - top - 8, 0); // 8 px of air over the bar
  doc.documentElement.style.setProperty('--classroom-chart-room', `${Math.round(room)}px`);
}

/**
 * Sizes a lab's type to the screen: the largest size, a little smaller while anything would make
 * the page scroll sideways (a long word in a narrow column). The cue says when the lab goes on
 * below the bar. Returns whether the whole lab is above the bar.
 */
export function fitLab(doc, win) {
  const root = doc.documentElement;
  const bar = doc.getElementById('classroom-bar');
  root.style.setProperty('--classroom-bar', `${bar.offsetHeight}px`);
  const fitsAt = (size) => {
    root.style.setProperty('--classroom-size', `${size.toFixed(2)}px`);
    return root.scrollWidth <= win.innerWidth;
  };
  let size = Math.max(SMALLEST, largest(win));
  while (!fitsAt(size) && size > SMALLEST) size = Math.max(SMALLEST, size * 0.95);
  roomForChart(doc, win, bar.offsetHeight);
  const lab = doc.getElementById('lab-body').getBoundingClientRect();
  const whole = lab.bottom + win.scrollY <= win.innerHeight - bar.offsetHeight + 1;
  root.classList.remove('classroom-scrolls'); // the stepper's: its parts' scrollbars
  doc.getElementById('classroom-cue').hidden = whole;
  return whole;
}
