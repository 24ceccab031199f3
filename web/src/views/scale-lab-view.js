// The lab view 'scale-lab' (state.view): article §4's "why divide by √d_k", measured at the
// reader's d_k (state.labdk). The numbers come from labs/scale-lab.js (one call per d_k, cached
// here: it takes up to ~0.15 s at d_k = 1024); this file only draws them:
//  1. the histograms of q·k, q·k/√d_k and q·k/d_k on one axis, each with its measured variance
//     beside the theory (d_k, 1, 1/d_k) and the theory's normal curve;
//  2. one query's row of weights under each scaling (bars), its largest weight and its entropy;
//  3. the largest entry of the softmax's Jacobian under each scaling, on an axis that ends at 1/4.
// Charts are SVG (role=img with a summary in words); every number they show is also in the text.
// The d_k control (a range over DK_STEPS with halve/double buttons) stays in place across updates,
// so it keeps the focus while the reader steps through d_k with the keyboard.

import { h } from './dom.js';
import { formatNumber } from '../format.js';
import {
  scaleLab,
  DK_STEPS,
  SCALE_LAB_DEFAULTS,
  niceTicks,
  normalCurve,
  formatWeight,
  formatGradient,
} from '../labs/scale-lab.js';

/** The order the lab shows the scalings in: the problem, the article's fix, the FAQ's alternative. */
const ORDER = ['none', 'sqrt_dk', 'dk'];
const SUB = '₀₁₂₃₄₅₆₇₈₉';
const subscript = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const MINUS = '\u2212';
/** An axis tick: as short as the value (0.05, 0.5, 500), never padded to four digits (0.5000). */
const tick = (v) => (v < 0 ? MINUS : '') + String(Number(Math.abs(v).toPrecision(6)));

// ---- SVG -------------------------------------------------------------------------------------

const NS = 'http://www.w3.org/2000/svg';

/** Like dom.js's h(), for SVG elements: s('rect', { x: 0, class: 'bar' }, …children). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== undefined && value !== null && value !== false) el.setAttribute(key, String(value));
  for (const child of children.flat())
    if (child !== null && child !== undefined && child !== false)
      el.append(child instanceof Node ? child : String(child));
  return el;
}

const r1 = (x) => Math.round(x * 10) / 10; // coordinates to 0.1 unit: short attributes, same picture
let clipIds = 0;

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
function histogramChart(lab, scale, { top, ticks }, { label, countName, valueName }) {
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
  const clip = `sl-clip-${++clipIds}`;
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

function weightsChart(row, scale, label, names, format) {
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

function gradientChart(row, { label, limit }, shortName, format) {
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

// ---- Numbers ---------------------------------------------------------------------------------

/** A variance, a mean, an entropy: four significant digits (260.5, 1.018, 0.003975). */
const num = (x, digits = 4) => formatNumber(x, digits);

// ---- The view --------------------------------------------------------------------------------

/** create({ engine, setState, announce }) → { element, update(ctx), destroy() } (controller/labs.js's LAB_VIEWS). */
export function createScaleLabView({ engine, setState, announce }) {
  const results = new Map(); // d_k → scaleLab(…): each d_k is computed once per visit
  const labOf = (dk) => {
    if (!results.has(dk)) results.set(dk, scaleLab(engine, { dk }));
    return results.get(dk);
  };
  let shown = null; // { dk, lang } drawn last
  let currentDk = SCALE_LAB_DEFAULTS.dk;
  let speak = false; // the next update comes from the control: say its result once

  const choose = (index) => {
    const dk = DK_STEPS[Math.max(0, Math.min(DK_STEPS.length - 1, index))];
    if (dk === currentDk) return;
    speak = true;
    setState({ labdk: dk });
  };
  const indexOf = (dk) => DK_STEPS.indexOf(dk);

  // The control: a range over the steps of d_k, its value beside it, and halve/double buttons
  // (aria-disabled at the ends rather than disabled, so that a focused button keeps the focus).
  const title = h('h2', { id: 'sl-title' });
  const lead = h('p', { class: 'explain sl-lead' });
  const controlLabel = h('label', { for: 'sl-dk', class: 'sl-control-label' });
  const slider = h('input', {
    type: 'range',
    id: 'sl-dk',
    min: 0,
    max: DK_STEPS.length - 1,
    step: 1,
    'aria-describedby': 'sl-dk-hint',
    oninput: () => choose(Number(slider.value)),
  });
  const output = h('output', { for: 'sl-dk', id: 'sl-dk-value', class: 'sl-dk-value', 'aria-hidden': 'true' });
  const halve = h(
    'button',
    { type: 'button', id: 'sl-dk-halve', class: 'sl-step', onclick: () => choose(indexOf(currentDk) - 1) },
    '÷2',
  );
  const double = h(
    'button',
    { type: 'button', id: 'sl-dk-double', class: 'sl-step', onclick: () => choose(indexOf(currentDk) + 1) },
    '×2',
  );
  const scaleMarks = h(
    'div',
    { class: 'sl-marks', 'aria-hidden': 'true' },
    DK_STEPS.map((dk) => h('span', {}, String(dk))),
  );
  const hint = h('p', { class: 'hint', id: 'sl-dk-hint' });
  const control = h(
    'div',
    { class: 'sl-control', role: 'group', 'aria-labelledby': 'sl-title' },
    h('div', { class: 'sl-control-head' }, controlLabel, output),
    h('div', { class: 'sl-control-row' }, halve, h('div', { class: 'sl-range' }, slider, scaleMarks), double),
    hint,
  );
  const body = h('div', { class: 'sl-body' });
  const element = h(
    'section',
    { class: 'lab lab-scale-lab', 'aria-labelledby': 'sl-title', dataset: { dk: currentDk } },
    title,
    lead,
    control,
    body,
  );

  function drawControl(t, dk) {
    const at = indexOf(dk);
    slider.value = String(at);
    slider.setAttribute('aria-valuetext', t('scalelab.dkValue', { dk }));
    output.textContent = t('scalelab.dkValue', { dk });
    // The names start with what the buttons show, for those who speak to their computer ("click ÷2").
    halve.setAttribute('aria-label', `÷2, ${t('scalelab.halve')}`);
    halve.title = t('scalelab.halve');
    double.setAttribute('aria-label', `×2, ${t('scalelab.double')}`);
    double.title = t('scalelab.double');
    halve.setAttribute('aria-disabled', String(at === 0));
    double.setAttribute('aria-disabled', String(at === DK_STEPS.length - 1));
    controlLabel.textContent = t('scalelab.control');
    hint.textContent = `${t('scalelab.controlHint')} ${t('scalelab.seed', { seed: SCALE_LAB_DEFAULTS.seed })}`;
  }

  function drawBody(t, lab) {
    const range = lab.edges.at(-1),
      width = lab.edges[1] - lab.edges[0];
    const name = (scale) => t(`scalelab.series.${scale}`);
    const shortName = (scale) => t(`scalelab.short.${scale}`);
    const theoryText = (scale) => t(`scalelab.theory.${scale}`, { value: num(lab.series[scale].theory) });

    // 1. The histograms, on one y axis fitted to q·k and q·k/√d_k (q·k/d_k is a spike that is cut).
    const tallest = Math.max(...['none', 'sqrt_dk'].map((scale) => Math.max(...lab.series[scale].histogram.counts)));
    const yScale = niceTicks(tallest * 1.05);
    const hists = ORDER.map((scale) => {
      const series = lab.series[scale];
      const { below, above } = series.histogram;
      const off =
        below + above
          ? t('scalelab.offAxis', { n: below + above, range, below, above })
          : t('scalelab.onAxis', { n: lab.count, range });
      const label = t('scalelab.histLabel', {
        name: name(scale),
        range,
        variance: num(series.variance),
        theory: theoryText(scale),
        off,
      });
      const chart = histogramChart(lab, scale, yScale, {
        label,
        countName: t('scalelab.axis.count'),
        valueName: t('scalelab.axis.value'),
      });
      return h(
        'figure',
        { class: `sl-hist s-${scale}`, dataset: { scale } },
        h('figcaption', {}, h('span', { class: 'sl-swatch', 'aria-hidden': 'true' }), name(scale)),
        chart,
        h(
          'dl',
          { class: 'sl-stats' },
          h(
            'div',
            { class: 'sl-stat' },
            h('dt', {}, t('scalelab.measured')),
            h('dd', { class: 'sl-measured', dataset: { value: series.variance } }, num(series.variance)),
          ),
          h(
            'div',
            { class: 'sl-stat' },
            h('dt', {}, t('scalelab.theory')),
            h('dd', { class: 'sl-theory-value', dataset: { value: series.theory } }, theoryText(scale)),
          ),
          h('div', { class: 'sl-stat' }, h('dt', {}, t('scalelab.mean')), h('dd', {}, num(series.mean, 2))),
        ),
        h('p', { class: 'sl-off', dataset: { below, above } }, off),
      );
    });
    const legend = h(
      'ul',
      { class: 'sl-legend' },
      h(
        'li',
        {},
        h('span', { class: 'sl-key bars', 'aria-hidden': 'true' }),
        t('scalelab.legend.bars', { width: tick(width) }),
      ),
      h('li', {}, h('span', { class: 'sl-key theory', 'aria-hidden': 'true' }), t('scalelab.legend.theory')),
      h('li', {}, t('scalelab.legend.clipped')),
      h('li', {}, t('scalelab.legend.off')),
    );

    // 2. One row of scores through softmax under each scaling.
    const { row } = lab;
    const by = row.byScale;
    const rows = ORDER.map((scale) => {
      const r = by[scale];
      const label = t('scalelab.rowLabel', {
        name: name(scale),
        keys: row.keys,
        largest: formatWeight(r.largest),
        entropy: num(r.entropy, 3),
      });
      return h(
        'figure',
        { class: `sl-row s-${scale}`, dataset: { scale } },
        h('figcaption', {}, h('span', { class: 'sl-swatch', 'aria-hidden': 'true' }), name(scale)),
        weightsChart(
          row,
          scale,
          label,
          { weight: t('scalelab.axis.weight'), key: t('scalelab.axis.key') },
          formatWeight,
        ),
        h(
          'dl',
          { class: 'sl-stats' },
          h(
            'div',
            { class: 'sl-stat' },
            h('dt', {}, t('scalelab.largest')),
            h('dd', { class: 'sl-largest', dataset: { value: r.largest } }, formatWeight(r.largest)),
          ),
          h(
            'div',
            { class: 'sl-stat' },
            h('dt', {}, t('scalelab.entropy')),
            h(
              'dd',
              { class: 'sl-entropy', dataset: { value: r.entropy } },
              t('scalelab.entropyOf', { value: num(r.entropy, 3), max: num(r.maxEntropy, 3) }),
            ),
          ),
          h(
            'div',
            { class: 'sl-stat' },
            h('dt', {}, t('scalelab.grad')),
            h(
              'dd',
              { class: 'sl-grad', dataset: { value: r.jacobian.value } },
              `${formatGradient(r.jacobian.value)} ≤ 0.25`,
            ),
          ),
        ),
      );
    });
    const numbers = h(
      'details',
      { class: 'sl-numbers', id: 'sl-numbers' },
      h('summary', {}, t('scalelab.table')),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'sl-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('scalelab.col.key')),
              h('th', { scope: 'col' }, t('scalelab.col.score')),
              ORDER.map((scale) => h('th', { scope: 'col' }, t('scalelab.col.weight', { name: shortName(scale) }))),
            ),
          ),
          h(
            'tbody',
            {},
            Array.from(row.scores, (score, j) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, `k${subscript(j + 1)}`),
                h('td', {}, num(score)),
                ORDER.map((scale) => h('td', {}, formatWeight(by[scale].weights[j]))),
              ),
            ),
          ),
        ),
      ),
    );

    // 3. The gradient: its largest entry under each scaling, and what that means here.
    const g = Object.fromEntries(ORDER.map((scale) => [scale, by[scale].jacobian.value]));
    const gradLabel = t('scalelab.gradLabel', {
      values: ORDER.map((scale) => `${shortName(scale)} ${formatGradient(g[scale])}`).join(', '),
    });
    const params = { dk: lab.dk, none: formatGradient(g.none), sqrt: formatGradient(g.sqrt_dk) };
    const verdict =
      lab.dk === 1
        ? t('scalelab.grad.same')
        : g.none === 0
          ? t('scalelab.grad.zero', params)
          : g.sqrt_dk / g.none >= 1.5
            ? t('scalelab.grad.ratio', { ...params, ratio: formatNumber(g.sqrt_dk / g.none, 2) })
            : t('scalelab.grad.close', params);

    body.replaceChildren(
      h(
        'section',
        { class: 'sl-part', 'aria-labelledby': 'sl-h-variance' },
        h('h3', { id: 'sl-h-variance' }, t('scalelab.h.variance')),
        h('p', { class: 'explain' }, t('scalelab.variance.text', { range })),
        legend,
        h('div', { class: 'sl-grid sl-hists' }, hists),
        h('p', { class: 'explain sl-faq' }, t('scalelab.faq')),
      ),
      h(
        'section',
        { class: 'sl-part', 'aria-labelledby': 'sl-h-softmax' },
        h('h3', { id: 'sl-h-softmax' }, t('scalelab.h.softmax')),
        h(
          'p',
          { class: 'explain' },
          t('scalelab.softmax.text', { keys: row.keys, last: subscript(row.keys), max: num(by.none.maxEntropy, 3) }),
        ),
        h('div', { class: 'sl-grid sl-rows' }, rows),
        h(
          'p',
          { class: 'explain sl-row-summary' },
          t('scalelab.rowSummary', {
            none: formatWeight(by.none.largest),
            hn: num(by.none.entropy, 3),
            sqrt: formatWeight(by.sqrt_dk.largest),
            hs: num(by.sqrt_dk.entropy, 3),
            dk: formatWeight(by.dk.largest),
            hd: num(by.dk.entropy, 3),
          }),
        ),
        numbers,
      ),
      h(
        'section',
        { class: 'sl-part', 'aria-labelledby': 'sl-h-gradient' },
        h('h3', { id: 'sl-h-gradient' }, t('scalelab.h.gradient')),
        h('p', { class: 'explain' }, t('scalelab.gradient.text')),
        h(
          'figure',
          { class: 'sl-grad-figure' },
          gradientChart(row, { label: gradLabel, limit: t('scalelab.limit') }, shortName, formatGradient),
        ),
        h('p', { class: 'explain sl-verdict' }, verdict),
        h('p', { class: 'explain sl-conclusion' }, t('scalelab.conclusion')),
      ),
    );
  }

  return {
    element,
    update({ state, t }) {
      const dk = DK_STEPS.includes(state.labdk) ? state.labdk : SCALE_LAB_DEFAULTS.dk;
      currentDk = dk;
      element.dataset.dk = String(dk);
      title.textContent = t('view.scale-lab');
      lead.textContent = t('scalelab.lead', { count: SCALE_LAB_DEFAULTS.count });
      drawControl(t, dk);
      if (shown?.dk === dk && shown.lang === state.lang) {
        speak = false;
        return;
      }
      const open = body.querySelector('#sl-numbers')?.open;
      let lab;
      try {
        lab = labOf(dk);
      } catch (error) {
        body.replaceChildren(
          h('p', { class: 'notice warn', role: 'alert' }, t('scalelab.error', { message: error.message })),
        );
        shown = null;
        return;
      }
      drawBody(t, lab);
      if (open) body.querySelector('#sl-numbers').open = true;
      shown = { dk, lang: state.lang };
      if (speak)
        announce(
          t('scalelab.announce', { dk, none: num(lab.series.none.variance), sqrt: num(lab.series.sqrt_dk.variance) }),
        );
      speak = false;
    },
    destroy() {
      results.clear();
    },
  };
}
