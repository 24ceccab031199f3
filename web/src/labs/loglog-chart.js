// A log–log chart for the labs that measure in the tab (the cost lab, the efficiency lab): values
// against n, one line per series with its marker. Each is drawn at its box's width in pixels, so
// that its text keeps its size on a phone, and drawn again when that width changes; the room its
// labels take grows with its text (--chart-text, 12 px on the page, larger in the classroom mode).
// Also the legends' swatches, with each series' marker. A lab names its classes with its own
// `prefix` (`${prefix}-chart`, `${prefix}-series-${key}` …) and styles them in its own sheet, and
// gives each series' marker (`marks`: key → 'square' | 'circle' | 'triangle' | 'dot').

import { h } from '../views/dom.js';
import { s, SVG_NS } from '../views/svg.js';

const f = (v) => v.toFixed(1);
const widthOf = (box) => Math.max(280, Math.round(box.clientWidth || 640));
/**
 * The chart's text size over the 12 px its room was first laid out for: the svg's own font size,
 * which is --chart-text resolved to pixels (the lab's sheet; the property itself would read as written).
 */
const textScaleOf = (svg) => parseFloat(getComputedStyle(svg).fontSize) / 12 || 1;

/**
 * A log axis's range: powers of `base` enclosing [lo, hi], at least `span` of them apart, with a
 * tick at each power. → { min, max, ticks }. A log axis has no place for 0 or less (nor for ∞):
 * such ends are replaced by the other end, or by 1, so that the range is always finite.
 */
export function decades(lo, hi, base, span) {
  const drawable = (v) => v > 0 && Number.isFinite(v);
  if (!drawable(hi)) hi = drawable(lo) ? lo : 1;
  if (!drawable(lo)) lo = hi;
  const log = (v) => Math.log(v) / Math.log(base);
  let a = Math.floor(log(lo) + 1e-9),
    b = Math.ceil(log(hi) - 1e-9);
  while (b - a < span) {
    if ((b - a) % 2) a--;
    else b++;
  }
  const ticks = [];
  for (let k = a; k <= b; k++) ticks.push(base ** k);
  return { min: base ** a, max: base ** b, ticks };
}

/** One point's marker, centred on (x, y); `title` is its tooltip. */
function mark(shape, x, y, hollow, title) {
  const r = 4.5;
  const d = {
    square: `M${x - r * 0.85},${y - r * 0.85}h${r * 1.7}v${r * 1.7}h${-r * 1.7}Z`,
    triangle: `M${x},${y - r * 1.15}L${x + r * 1.1},${y + r * 0.8}L${x - r * 1.1},${y + r * 0.8}Z`,
    cross: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`,
  }[shape];
  const attrs = { class: `mark${hollow ? ' hollow' : ''}${shape === 'cross' ? ' cross' : ''}` };
  const el = d
    ? s('path', { ...attrs, d })
    : s('circle', { ...attrs, cx: x.toFixed(1), cy: y.toFixed(1), r: shape === 'dot' ? 3 : r });
  if (title) el.append(s('title', {}, title));
  return el;
}

/** The legend's picture of a line: a short stroke with the series' marker (or the dashed limit). */
function swatch({ prefix, marks }, key) {
  const svg = s('svg', {
    class: `${prefix}-swatch ${prefix}-series-${key}`,
    width: 28,
    height: 14,
    viewBox: '0 0 28 14',
    'aria-hidden': 'true',
  });
  if (key === 'limit') svg.append(s('line', { class: 'guide', x1: 1, x2: 27, y1: 7, y2: 7 }));
  else svg.append(s('path', { class: 'line', d: 'M1,7H27' }), mark(marks[key], 14, 7, false));
  return svg;
}

/**
 * The chart's geometry at `width`, its text `k` times 12 px: its height, padding (room for the
 * labels, k times as much), and the maps from values to pixels.
 */
function frame(width, k, x, y) {
  const height = Math.round(Math.min(360, Math.max(240, width * 0.56)));
  const yLabels = y.ticks.map((v) => y.format(v));
  const left = Math.round((Math.max(...yLabels.map((label) => label.length)) * 6.6 + 16) * k);
  const pad = { left, right: 18, top: Math.round(28 * k), bottom: Math.round(46 * k) };
  const plotW = width - pad.left - pad.right,
    plotH = height - pad.top - pad.bottom;
  // A quarter of a doubling of room on both sides of x, so the end points sit off the frame.
  const x0 = Math.log2(x.min) - 0.25,
    x1 = Math.log2(x.max) + 0.25;
  const y0 = Math.log10(y.min),
    y1 = Math.log10(y.max);
  const px = (v) => pad.left + ((Math.log2(v) - x0) / (x1 - x0)) * plotW;
  const py = (v) => pad.top + plotH - ((Math.log10(v) - y0) / (y1 - y0)) * plotH;
  return { width, height, k, yLabels, pad, plotW, plotH, x0, x1, px, py };
}

/** The grid, the ticks (every other x label where there is no room), the frame and the axes' names. */
function axes({ width, height, k, yLabels, pad, plotW, plotH, px, py }, x, y) {
  const parts = [];
  y.ticks.forEach((v, i) => {
    parts.push(s('line', { class: 'grid', x1: pad.left, x2: width - pad.right, y1: f(py(v)), y2: f(py(v)) }));
    parts.push(
      s(
        'text',
        { class: 'tick', x: pad.left - 8 * k, y: f(py(v)), 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        yLabels[i],
      ),
    );
  });
  let lastLabelEnd = -Infinity;
  for (const v of x.ticks) {
    const at = px(v);
    parts.push(s('line', { class: 'grid', x1: f(at), x2: f(at), y1: pad.top, y2: pad.top + plotH }));
    const half = String(v).length * 3.6 * k;
    if (at - half < lastLabelEnd + 10 * k) continue; // no room: every other label on a narrow chart
    lastLabelEnd = at + half;
    parts.push(
      s('text', { class: 'tick', x: f(at), y: f(pad.top + plotH + 18 * k), 'text-anchor': 'middle' }, String(v)),
    );
  }
  parts.push(s('rect', { class: 'frame', x: pad.left, y: pad.top, width: plotW, height: plotH }));
  parts.push(
    s('text', { class: 'axis-label', x: pad.left + plotW / 2, y: f(height - 6 * k), 'text-anchor': 'middle' }, x.label),
  );
  parts.push(s('text', { class: 'axis-label', x: pad.left, y: f(14 * k), 'text-anchor': 'start' }, y.label));
  return parts;
}

/** A dashed horizontal line at level.y (the memory limit), labelled on the left. */
function levelLine({ width, k, pad, py }, level) {
  return [
    s('line', { class: 'guide', x1: pad.left, x2: width - pad.right, y1: f(py(level.y)), y2: f(py(level.y)) }),
    // on the left, where the lines of small n run low and leave the room
    s(
      'text',
      { class: 'guide-label', x: pad.left + 6, y: f(py(level.y) - 6 * k), 'text-anchor': 'start' },
      level.label,
    ),
  ];
}

/**
 * A dashed line of slope `power` through { x, y } — y·(n / x)^power — where it stays inside the y
 * range, labelled a quarter of the way along, under the line (the measured lines, with their
 * fixed cost of a call, run above it at small n).
 */
function slopeLine({ k, x0, x1, px, py }, y, guide) {
  const root = (ratio) => ratio ** (1 / guide.power);
  const lo = Math.max(2 ** x0, guide.x * root(y.min / guide.y));
  const hi = Math.min(2 ** x1, guide.x * root(y.max / guide.y));
  if (!(hi > lo)) return [];
  const at = (n) => guide.y * (n / guide.x) ** guide.power;
  const n = lo * (hi / lo) ** 0.25;
  return [
    s('line', { class: 'guide', x1: f(px(lo)), y1: f(py(at(lo))), x2: f(px(hi)), y2: f(py(at(hi))) }),
    s('text', { class: 'guide-label', x: f(px(n) + 4), y: f(py(at(n)) + 16 * k), 'text-anchor': 'start' }, guide.label),
  ];
}

/** One series: its line, a marker per point, and a cross at the top edge for each x in `above`. */
function seriesGroup({ prefix, marks }, { pad, px, py }, { key, points, above = [] }) {
  const g = s('g', { class: `series ${prefix}-series-${key}` });
  if (points.length > 1)
    g.append(
      s('path', { class: 'line', d: points.map((p, i) => `${i ? 'L' : 'M'}${f(px(p.x))},${f(py(p.y))}`).join('') }),
    );
  for (const p of points) g.append(mark(marks[key], px(p.x), py(p.y), p.hollow, p.title));
  for (const p of above) g.append(mark('cross', px(p.x), pad.top + 8, false, p.title));
  return g;
}

/** A line of text in the middle of an empty chart, after its colon on a line of its own (for a phone). */
function hintText({ k, pad, plotW, plotH }, hint) {
  const lines = hint.split(/(?<=[:：])\s*/);
  const text = s('text', {
    class: 'hint',
    x: pad.left + plotW / 2,
    y: f(pad.top + plotH / 2 - (lines.length - 1) * 10 * k),
    'text-anchor': 'middle',
  });
  lines.forEach((line, i) => text.append(s('tspan', { x: pad.left + plotW / 2, dy: i ? f(20 * k) : 0 }, line)));
  return text;
}

/**
 * A log–log chart: { el (its box), svg, draw(spec), destroy() }. spec: x and y: { min, max, ticks,
 * format?, label }; series: [{ key, points: [{ x, y, hollow?, title }], above?: [{ x, title }] }] —
 * `above` marks an x where a point has no value (a refusal) at the top edge; guides: dashed lines
 * [{ power, x, y, label }], each of slope `power` through { x, y } (slope2: one of slope 2); level:
 * a dashed horizontal line at y (the memory limit); hint: a line of text in the middle of an empty chart.
 */
function createLogLogChart(id, look) {
  const svg = s('svg', { id, class: `${look.prefix}-chart`, role: 'img', xmlns: SVG_NS });
  const el = h('div', { class: `${look.prefix}-chart-box` }, svg);
  const drawn = { spec: null, width: 0, k: 1 };

  function draw(spec) {
    const { x, y, series, slope2, guides = [], level, hint } = spec;
    const at = frame(widthOf(el), textScaleOf(svg), x, y);
    Object.assign(drawn, { spec, width: at.width, k: at.k });
    const parts = axes(at, x, y);
    if (level) parts.push(...levelLine(at, level));
    for (const guide of slope2 ? [{ ...slope2, power: 2 }, ...guides] : guides) parts.push(...slopeLine(at, y, guide));
    for (const one of series) parts.push(seriesGroup(look, at, one));
    if (hint) parts.push(hintText(at, hint));
    svg.setAttribute('viewBox', `0 0 ${at.width} ${at.height}`);
    svg.setAttribute('width', at.width);
    svg.setAttribute('height', at.height);
    svg.replaceChildren(...parts);
  }

  // A new width, or a new size of text (the classroom mode entered or left, which changes the width too).
  const resized = new ResizeObserver(() => {
    if (drawn.spec && (widthOf(el) !== drawn.width || textScaleOf(svg) !== drawn.k)) draw(drawn.spec);
  });
  resized.observe(el);
  return { el, svg, draw, destroy: () => resized.disconnect() };
}

/**
 * A lab's charts of one look ({ prefix, marks }): { chartFigure(id), legendItem(key, name, attrs,
 * …more) }. chartFigure gives what a part of the lab opens with: a title and a text, then a figure
 * of the legend, the chart (with the svg's `id`) and its caption → { title, text, legend, chart,
 * caption, figure }. legendItem is a legend's line for the series `key`: its swatch and its name,
 * then `more`; `attrs` besides its class.
 */
export function logLogCharts(look) {
  const { prefix } = look;
  return {
    chartFigure(id) {
      const legend = h('ul', { class: `${prefix}-legend` });
      const chart = createLogLogChart(id, look);
      const caption = h('figcaption', {});
      const figure = h('figure', { class: `${prefix}-figure` }, legend, chart.el, caption);
      return { title: h('h3', {}), text: h('p', {}), legend, chart, caption, figure };
    },
    legendItem: (key, name, attrs = {}, ...more) =>
      h(
        'li',
        { class: `${prefix}-series-${key}`, ...attrs },
        swatch(look, key),
        h('span', { class: `${prefix}-legend-name` }, name),
        ...more,
      ),
  };
}
