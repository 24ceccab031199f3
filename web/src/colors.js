// Heatmap colours. Pure. Two maps, both safe for the common colour-vision deficiencies because
// they vary in lightness, not only in hue:
//   - sequential (weights, exponentials, sums): from the cell background to a deep blue;
//   - diverging, centred at 0 (signed values): blue below 0, the background at 0, brown above.
// The text colour is black or white, whichever contrasts more with the cell: pure black and white
// are needed, because only they guarantee ≥ 4.5:1 at the lightness where one gives way to the other.
import { FIGURES } from './steps.js';

const BLACK = [0, 0, 0];
const WHITE = [255, 255, 255];

const THEMES = {
  light: {
    base: [255, 255, 255],
    seq: [8, 48, 107],
    neg: [33, 82, 160],
    pos: [140, 60, 8],
    nonFinite: [222, 222, 226],
  },
  dark: {
    base: [30, 33, 38],
    seq: [146, 208, 255],
    neg: [120, 175, 255],
    pos: [255, 176, 110],
    nonFinite: [70, 72, 80],
  },
};

// sRGB channel (0–255) → linear light, as a table: it is looked up for every cell of every edit.
const LINEAR = Array.from({ length: 256 }, (_, c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
});
const toLinear = (c) => LINEAR[Math.max(0, Math.min(255, Math.round(c)))];
const luminance = ([r, g, b]) => 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
const css = ([r, g, b]) => `rgb(${r} ${g} ${b})`;

/** The scale of one matrix: sequential from 0 to max, or diverging over ±max. */
export function scaleFor(data, kind) {
  let max = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return { kind, max: max || 1 };
}

/** The background of one cell as [r, g, b] (heatmaps without text need only this). */
export function cellBackground(value, scale, themeName = 'light') {
  const theme = THEMES[themeName] ?? THEMES.light;
  if (!Number.isFinite(value)) return theme.nonFinite;
  const target = scale.kind === 'seq' ? theme.seq : value < 0 ? theme.neg : theme.pos;
  return mix(theme.base, target, Math.min(1, Math.abs(value) / scale.max));
}

/** Background and text colour of one cell as CSS strings. */
export function cellColors(value, scale, themeName = 'light') {
  const theme = THEMES[themeName] ?? THEMES.light;
  if (!Number.isFinite(value)) {
    const fg = contrast(theme.nonFinite, BLACK) >= contrast(theme.nonFinite, WHITE) ? BLACK : WHITE;
    return { bg: css(theme.nonFinite), fg: css(fg), rgb: theme.nonFinite, fgRgb: fg };
  }
  const t = Math.min(1, Math.abs(value) / scale.max);
  const target = scale.kind === 'seq' ? theme.seq : value < 0 ? theme.neg : theme.pos;
  const bg = mix(theme.base, target, t);
  const fg = contrast(bg, BLACK) >= contrast(bg, WHITE) ? BLACK : WHITE;
  return { bg: css(bg), fg: css(fg), rgb: bg, fgRgb: fg };
}

// ---- Canvases (heatmaps, the map's thumbnails): one lookup table per map and theme ------------
// 256 levels are more than the eye can tell apart, and a table lookup per value keeps a 64×64
// heatmap far below a millisecond.
const LEVELS = 256;
const ramps = new Map();

/** The colours of one map as flat RGB bytes: seq from 0 to max; div from −max through 0 to +max. */
function rampOf(kind, themeName) {
  const key = `${kind}/${themeName}`;
  if (!ramps.has(key)) {
    const bytes = new Uint8ClampedArray(LEVELS * 3);
    for (let level = 0; level < LEVELS; level++) {
      const t = level / (LEVELS - 1);
      const value = kind === 'seq' ? t : 2 * t - 1;
      bytes.set(cellBackground(value, { kind, max: 1 }, themeName), level * 3);
    }
    ramps.set(key, bytes);
  }
  return ramps.get(key);
}

/** The level (0…255) of `value` on a ramp of `scale`; finite values only. */
function levelOf(value, scale) {
  const t = Math.min(1, Math.abs(value) / scale.max);
  return scale.kind === 'seq'
    ? Math.round(t * (LEVELS - 1))
    : Math.round((((value < 0 ? -t : t) + 1) / 2) * (LEVELS - 1));
}

const styles = new Map();

/**
 * A table cell's colours as CSS strings { bg, fg }, from the same 256-level ramp as the canvases,
 * with the text colour chosen for that very background (≥ 4.5:1). Made once per map and theme:
 * an edit repaints hundreds of cells, and this is a lookup each.
 */
export function cellStyle(value, scale, themeName = 'light') {
  const key = `${scale.kind}/${themeName}`;
  if (!styles.has(key)) {
    const ramp = rampOf(scale.kind, themeName);
    const pair = (bg) => ({ bg: css(bg), fg: css(contrast(bg, BLACK) >= contrast(bg, WHITE) ? BLACK : WHITE) });
    const levels = Array.from({ length: LEVELS }, (_, level) =>
      pair(Array.from(ramp.subarray(level * 3, level * 3 + 3))),
    );
    styles.set(key, { levels, off: pair((THEMES[themeName] ?? THEMES.light).nonFinite) });
  }
  const table = styles.get(key);
  return Number.isFinite(value) ? table.levels[levelOf(value, scale)] : table.off;
}

/** Writes `data` into an RGBA ImageData of the same number of values, coloured on `scale`. */
export function paintImage(image, data, scale, themeName = 'light') {
  const ramp = rampOf(scale.kind, themeName);
  const off = (THEMES[themeName] ?? THEMES.light).nonFinite;
  const out = image.data;
  for (let k = 0; k < data.length; k++) {
    const value = data[k];
    let r, g, b;
    if (Number.isFinite(value)) {
      const level = levelOf(value, scale);
      r = ramp[level * 3];
      g = ramp[level * 3 + 1];
      b = ramp[level * 3 + 2];
    } else [r, g, b] = off;
    out[4 * k] = r;
    out[4 * k + 1] = g;
    out[4 * k + 2] = b;
    out[4 * k + 3] = 255;
  }
}

/** The map as a CSS gradient (left = 0 or −max, right = max), for colour bars and the legend. */
export function gradientCss(kind, themeName = 'light') {
  const stops = kind === 'seq' ? [0, 0.25, 0.5, 0.75, 1] : [-1, -0.5, 0, 0.5, 1];
  return `linear-gradient(90deg, ${stops.map((v) => css(cellBackground(v, { kind, max: 1 }, themeName))).join(', ')})`;
}

/** The colour of values that are masked or not finite, as CSS. */
export const offColor = (themeName = 'light') => css((THEMES[themeName] ?? THEMES.light).nonFinite);

/**
 * The map each intermediate is drawn with: signed values diverge around 0; exponentials, their
 * sums and the weights are never negative and run from 0 to their maximum (each figure's `kind`,
 * steps.js FIGURES).
 */
export const KIND_OF = Object.freeze(Object.fromEntries(Object.entries(FIGURES).map(([id, f]) => [id, f.kind])));
