// A line chart of the training lab (train-lab-view.js): steps along x, one or two linear y axes
// (left, and right for the gradient through the softmax), series drawn as SVG paths. The scales
// and paths are the pure module's (train-lab.js); this file only builds the SVG. The SVG has
// a fixed viewBox and scales to its column, so a 375 px screen gets the whole chart, smaller.

import { chartScale, linePath, thin } from './train-lab.js';
import { formatNumber } from '../../format.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 260;
const BOX = { left: 52, top: 16, width: WIDTH - 52 - 56, height: HEIGHT - 16 - 40 };

/** An SVG element; attributes as given, string children become text. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== null && value !== undefined) el.setAttribute(key, value);
  for (const child of children) if (child !== null && child !== undefined) el.append(child);
  return el;
}

/** The grid, the step axis and one y axis (left or right) of `scale`. */
function axes(scale, { left, right }) {
  const g = s('g', { class: 'axes' });
  const bottom = BOX.top + BOX.height;
  for (const step of scale.main.xTicks) {
    const x = scale.main.x(step);
    g.append(s('line', { class: 'grid', x1: x, x2: x, y1: BOX.top, y2: bottom }));
    g.append(s('text', { class: 'tick', x, y: bottom + 16, 'text-anchor': 'middle' }, String(step)));
  }
  for (const value of scale.main.yTicks) {
    const y = scale.main.y(value);
    g.append(s('line', { class: 'grid', x1: BOX.left, x2: BOX.left + BOX.width, y1: y, y2: y }));
    g.append(s('text', { class: 'tick', x: BOX.left - 6, y: y + 4, 'text-anchor': 'end' }, formatNumber(value, 3)));
  }
  if (scale.right)
    for (const value of scale.right.yTicks)
      g.append(
        s(
          'text',
          { class: 'tick right', x: BOX.left + BOX.width + 6, y: scale.right.y(value) + 4 },
          formatNumber(value, 3),
        ),
      );
  g.append(s('rect', { class: 'frame', x: BOX.left, y: BOX.top, width: BOX.width, height: BOX.height }));
  g.append(s('text', { class: 'axis-label', x: BOX.left, y: 11 }, left));
  if (right) g.append(s('text', { class: 'axis-label', x: BOX.left + BOX.width, y: 11, 'text-anchor': 'end' }, right));
  return g;
}

/**
 * A chart: { el, draw(spec) } with spec { maxStep, left: { max, label }, right?: { max, label },
 * series: [{ run, points: [[step, value]], axis: 'left' | 'right', dashed, dots, faint }], label, hint }.
 * `dots`: each point also marked (a series measured every few steps, not every step); `faint`: a
 * run kept for comparison (the run a fork left), drawn lighter.
 * `run` is the series' index (its colour, train-lab.css); `label` names the chart for a screen
 * reader, which gets the numbers in the summary beside it.
 */
export function createLineChart(id) {
  const svg = s('svg', { id, class: 'train-chart', role: 'img', viewBox: `0 0 ${WIDTH} ${HEIGHT}` });
  function draw({ maxStep, left, right, series, label, hint }) {
    const main = chartScale({ maxStep, yMax: left.max }, BOX);
    const scale = { main, right: right ? chartScale({ maxStep, yMax: right.max }, BOX) : null };
    svg.setAttribute('aria-label', label);
    svg.replaceChildren(
      axes(scale, { left: left.label, right: right?.label }),
      ...series.flatMap((line) => {
        const on = line.axis === 'right' ? scale.right : main;
        const points = thin(line.points, line.dots ? 60 : 400);
        const path = s('path', {
          class: `line run-${line.run}${line.dashed ? ' dashed' : ''}${line.faint ? ' faint' : ''}`,
          d: linePath(points, on),
        });
        if (!line.dots) return [path];
        const dots = points
          .filter(([, value]) => Number.isFinite(value))
          .map(([step, value]) =>
            s('circle', {
              class: `point run-${line.run}${line.faint ? ' faint' : ''}`,
              cx: on.x(step),
              cy: on.y(value),
              r: 2.5,
            }),
          );
        return [path, ...dots];
      }),
    );
    if (hint)
      svg.append(
        s(
          'text',
          { class: 'hint', x: BOX.left + BOX.width / 2, y: BOX.top + BOX.height / 2, 'text-anchor': 'middle' },
          hint,
        ),
      );
  }
  return { el: svg, draw };
}
