// One colour per head (multi-head attention), the same on every view: the column blocks of W_Q,
// W_K, W_V and of Q, K, V, the concat, the heads overview and each head's word lines. Pure.
//
// The hues are Okabe and Ito's, chosen to stay apart for the common colour-vision deficiencies,
// each set darker for the light theme and lighter for the dark one, so that text in a head's colour
// keeps at least 4.5:1 against the page and its panels in both (tests/web/heads.test.mjs). The
// colour is never the only sign of a head: every block and every line also carries its number.

export const HEAD_COLORS = Object.freeze({
  light: Object.freeze(['#0072B2', '#B34700', '#007A55', '#A8427A', '#8F5B00', '#3D6E99', '#6E6400', '#545454']),
  dark: Object.freeze(['#56B4E9', '#F0883E', '#2EC4A0', '#E08CC0', '#E6A400', '#9CC9F0', '#F0E442', '#C8C8C8']),
});

/** Head `index`'s colour (0-based) in a theme ('light' | 'dark'), as CSS. */
export const headColor = (index, theme = 'light') => (HEAD_COLORS[theme] ?? HEAD_COLORS.light)[index];
