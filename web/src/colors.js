// Heatmap colours. Pure. Two maps, both safe for the common colour-vision deficiencies because
// they vary in lightness, not only in hue:
//   - sequential (weights, exponentials, sums): from the cell background to a deep blue;
//   - diverging, centred at 0 (signed values): blue below 0, the background at 0, brown above.
// The text colour is black or white, whichever contrasts more with the cell: pure black and white
// are needed, because only they guarantee ≥ 4.5:1 at the lightness where one gives way to the other.
const BLACK = [0, 0, 0];
const WHITE = [255, 255, 255];

const THEMES = {
  light: { base: [255, 255, 255], seq: [8, 48, 107], neg: [33, 82, 160], pos: [140, 60, 8],
    nonFinite: [222, 222, 226] },
  dark: { base: [30, 33, 38], seq: [146, 208, 255], neg: [120, 175, 255], pos: [255, 176, 110],
    nonFinite: [70, 72, 80] },
};

// sRGB channel (0–255) → linear light, as a table: it is looked up for every cell of every edit.
const LINEAR = Array.from({ length: 256 }, (_, c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
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
