// The scale lab's three charts (scale-lab-view.js), as SVG with role=img and a summary in words
// given by the caller: the histograms of q·k under a scaling, one query's weights as bars, and
// the softmax Jacobian's largest entry under each scaling on an axis that ends at 1/4.

import { s } from '../../views/svg.js';
import { normalCurve } from './scale-lab.js';

/** The order the lab shows the scalings in: the problem, the article's fix, the FAQ's alternative. */
export const ORDER = ['none', 'sqrt_dk', 'dk'];
const SUB = '₀₁₂₃₄₅₆₇₈₉';
export const subscript = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const MINUS = '\u2212';
/** An axis tick: as short as the value (0.05, 0.5, 500), never padded to four digits (0.5000). */
export const tick = (v) => (v < 0 ? MINUS : '') + String(Number(Math.abs(v).toPrecision(6)));

const r1 = (x) => Math.round(x * 10) / 10; // coordinates to 0.1 unit: short attributes, same picture

/** A chart's frame: the svg (viewBox w × h, scaled to its box by CSS), summarised for screen readers. */
const chartSvg = (w, hgt, label, className) =>
  s('svg', {
    class: `sl-chart ${className}`,
    viewBox: `0 0 ${w} ${hgt}`,
    role: 'img',
    'aria-label': label,
    preserveAspectRatio: 'xMinYMin meet',
  });

/** Horizontal grid lines and the y axis's tick labels. */
function yAxis(svg, { ticks, y, left, right, format }) {
  for (const v of ticks) {
    svg.append(
      s('line', { class: v === 0 ? 'sl-axis' : 'sl-gridline', x1: left, x2: right, y1: r1(y(v)), y2: r1(y(v)) }),
    );
    svg.append(
      s(
        'text',
        { class: 'sl-tick', x: left - 4, y: r1(y(v)), 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        format(v),
      ),
    );
  }
}

// The histograms' geometry (viewBox units; 1 unit ≈ 1 CSS px at 340 px wide).
const HW = 340,
  HH = 178,
  HM = { l: 40, r: 8, t: 22, b: 36 };

/**
 * One histogram: counts on the common edges, the theory's normal curve (dashed), bars taller than
 * the axis cut at its top with their count written above, and the counts off the axis at its ends.
 */
export function histogramChart(lab, scale, { top, ticks }, { label, countName, valueName }) {
  const { edges, count } = lab;
  const series = lab.series[scale];
  const { counts, below, above } = series.histogram;
  const range = edges.at(-1),
    width = edges[1] - edges[0];
  const pw = HW - HM.l - HM.r,
    ph = HH - HM.t - HM.b;
  const x = (v) => HM.l + ((v + range) / (2 * range)) * pw;
  const y = (c) => HM.t + ph - (Math.min(c, top) / top) * ph;
  const svg = chartSvg(HW, HH, label, `sl-hist-chart s-${scale}`);
  const clip = `sl-clip-${scale}`; // one histogram per scaling on the page
  svg.append(s('defs', {}, s('clipPath', { id: clip }, s('rect', { x: HM.l, y: HM.t, width: pw, height: ph }))));
  yAxis(svg, { ticks, y, left: HM.l, right: HM.l + pw, format: tick });
  svg.append(s('text', { class: 'sl-axis-name', x: 1, y: HM.t - 10 }, countName));

  // The bars; the tallest of those cut at the top says its count.
  const bars = s('g', { class: 'sl-bars' });
  let tallest = -1;
  counts.forEach((c, b) => {
    if (!c) return;
    const x0 = x(edges[b]),
      x1 = x(edges[b + 1]);
    bars.append(
      s('rect', {
        x: r1(x0 + 0.4),
        y: r1(y(c)),
        width: r1(Math.max(0.6, x1 - x0 - 0.8)),
        height: r1(HM.t + ph - y(c)),
      }),
    );
    if (c > top && (tallest < 0 || c > counts[tallest])) tallest = b;
  });
  svg.append(bars);
  counts.forEach((c, b) => {
    if (c <= top) return;
    const cx = (x(edges[b]) + x(edges[b + 1])) / 2;
    svg.append(s('path', { class: 'sl-cut', d: `M${r1(cx - 3)} ${HM.t + 3}l3 -3l3 3` }));
  });
  if (tallest >= 0) {
    const cx = (x(edges[tallest]) + x(edges[tallest + 1])) / 2;
    svg.append(
      s('text', { class: 'sl-note', x: r1(cx), y: HM.t - 4, 'text-anchor': 'middle' }, `↑ ${counts[tallest]}`),
    );
  }

  // The theory: count · width · φ(x) with φ the N(0, theory) density, cut at the plot's edges.
  const points = normalCurve(series.theory, { count, width, range });
  const d = points
    .map(([px, py], i) => `${i ? 'L' : 'M'}${r1(x(px))} ${r1(HM.t + ph - (Math.min(py, top * 1.05) / top) * ph)}`)
    .join('');
  svg.append(s('path', { class: 'sl-theory', d, 'clip-path': `url(#${clip})` }));

  // Off the axis: how many, at the side where they are.
  if (below) svg.append(s('text', { class: 'sl-note', x: HM.l + 3, y: HM.t + 10 }, `← ${below}`));
  if (above)
    svg.append(s('text', { class: 'sl-note', x: HM.l + pw - 3, y: HM.t + 10, 'text-anchor': 'end' }, `${above} →`));

  // The x axis: ticks every 2, and its name.
  svg.append(s('line', { class: 'sl-axis', x1: HM.l, x2: HM.l + pw, y1: HM.t + ph, y2: HM.t + ph }));
  for (let v = -range; v <= range; v += 2) {
    svg.append(s('line', { class: 'sl-axis', x1: r1(x(v)), x2: r1(x(v)), y1: HM.t + ph, y2: HM.t + ph + 4 }));
    svg.append(s('text', { class: 'sl-tick', x: r1(x(v)), y: HM.t + ph + 15, 'text-anchor': 'middle' }, tick(v)));
  }
  svg.append(s('text', { class: 'sl-axis-name', x: HM.l + pw / 2, y: HH - 4, 'text-anchor': 'middle' }, valueName));
  return svg;
}

// The weights' bar charts.
const WW = 340,
  WH = 150,
  WM = { l: 36, r: 8, t: 20, b: 34 };

export function weightsChart(row, scale, label, names, format) {
  const weights = row.byScale[scale].weights,
    n = weights.length;
  const pw = WW - WM.l - WM.r,
    ph = WH - WM.t - WM.b,
    slot = pw / n;
  const y = (v) => WM.t + ph - v * ph;
  const svg = chartSvg(WW, WH, label, `sl-weights-chart s-${scale}`);
  yAxis(svg, { ticks: [0, 0.5, 1], y, left: WM.l, right: WM.l + pw, format: tick });
  svg.append(s('text', { class: 'sl-axis-name', x: 1, y: WM.t - 8 }, names.weight));
  let best = 0;
  weights.forEach((a, j) => {
    if (a > weights[best]) best = j;
  });
  const bars = s('g', { class: 'sl-bars' });
  weights.forEach((a, j) => {
    const x0 = WM.l + j * slot;
    bars.append(
      s('rect', {
        class: j === best ? 'best' : null,
        x: r1(x0 + slot * 0.18),
        y: r1(y(a)),
        width: r1(slot * 0.64),
        height: r1(Math.max(0, a * ph)),
      }),
    );
    svg.append(
      s(
        'text',
        { class: 'sl-tick', x: r1(x0 + slot / 2), y: WM.t + ph + 14, 'text-anchor': 'middle' },
        `k${subscript(j + 1)}`,
      ),
    );
  });
  svg.append(bars);
  svg.append(
    s(
      'text',
      { class: 'sl-note', x: r1(WM.l + (best + 0.5) * slot), y: r1(y(weights[best]) - 4), 'text-anchor': 'middle' },
      format(weights[best]),
    ),
  );
  svg.append(s('text', { class: 'sl-axis-name', x: WM.l + pw / 2, y: WH - 4, 'text-anchor': 'middle' }, names.key));
  return svg;
}

// The gradient's bars: one per scaling, on an axis from 0 to the bound 1/4.
const GW = 340,
  GM = { l: 62, r: 14, t: 10, b: 30 },
  GROW = 26;

export function gradientChart(row, { label, limit }, shortName, format) {
  const GH = GM.t + ORDER.length * GROW + GM.b;
  const pw = GW - GM.l - GM.r;
  const x = (v) => GM.l + (v / 0.25) * pw;
  const svg = chartSvg(GW, GH, label, 'sl-grad-chart');
  const base = GM.t + ORDER.length * GROW;
  for (const v of [0, 0.05, 0.1, 0.15, 0.2, 0.25]) {
    svg.append(
      s('line', { class: v === 0 ? 'sl-axis' : 'sl-gridline', x1: r1(x(v)), x2: r1(x(v)), y1: GM.t, y2: base }),
    );
    svg.append(s('text', { class: 'sl-tick', x: r1(x(v)), y: base + 13, 'text-anchor': 'middle' }, tick(v)));
  }
  svg.append(s('line', { class: 'sl-limit', x1: x(0.25), x2: x(0.25), y1: GM.t - 4, y2: base }));
  svg.append(s('text', { class: 'sl-axis-name', x: x(0.25), y: GH - 4, 'text-anchor': 'end' }, limit));
  ORDER.forEach((scale, r) => {
    const value = row.byScale[scale].jacobian.value,
      top = GM.t + r * GROW;
    svg.append(
      s(
        'text',
        { class: 'sl-label', x: GM.l - 6, y: top + GROW / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        shortName(scale),
      ),
    );
    const w = x(value) - GM.l;
    svg.append(
      s('rect', { class: `sl-gbar s-${scale}`, x: GM.l, y: top + 5, width: r1(Math.max(w, 0)), height: GROW - 10 }),
    );
    const inside = w > pw * 0.7;
    svg.append(
      s(
        'text',
        {
          class: `sl-note${inside ? ' inside' : ''}`,
          x: r1(inside ? x(value) - 4 : x(value) + 4),
          y: top + GROW / 2,
          'text-anchor': inside ? 'end' : 'start',
          'dominant-baseline': 'middle',
        },
        format(value),
      ),
    );
  });
  return svg;
}
