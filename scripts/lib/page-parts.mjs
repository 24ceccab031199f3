// The parts every build of the page shares (scripts/build-web.mjs for `npm start`,
// scripts/build-dist.mjs for the offline file and the hosted site): the formulas pre-rendered by
// KaTeX, KaTeX's stylesheet cut down to the fonts those formulas use, and the page's HTML frame
// with its Content-Security-Policy.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import { VARIANTS, variantKey, mainFormulaPieces, headsPieces, detailFormula } from '../../web/formulas/formulas.js';
import { STEPS, stepById } from '../../web/src/steps.js';
import { isArticleUrl } from '../../web/src/article.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const at = (...parts) => path.join(ROOT, ...parts);
const KATEX_DIST = at('node_modules', 'katex', 'dist');
const katexStylesheet = () => fs.readFileSync(path.join(KATEX_DIST, 'katex.min.css'), 'utf8');

/**
 * The formulas as <template>s the stage clones (KaTeX HTML + MathML): the main formula once per
 * distinct rendering (and the pieces heads add to it) (it is the same on every step, which the page marks by class), each step's
 * detail formula per distinct rendering. data-variants lists every "scale/softmax/axis" a template
 * serves, so a formula the options do not change is written once.
 */
export function formulaTemplates() {
  // `output`: KaTeX's HTML with its MathML, or MathML alone for a step whose description asks for
  // it (steps.js formula.output: the backward steps, laid out natively as the popover's sums are).
  const render = (tex, output = 'htmlAndMathml') =>
    katex.renderToString(tex, {
      displayMode: true,
      throwOnError: true,
      strict: 'ignore',
      output,
      trust: (context) => context.command === '\\htmlClass',
    });
  const templates = [];
  const group = (attributes, texOf, { rendered = false, output } = {}) => {
    const byHtml = new Map();
    for (const v of VARIANTS) {
      const html = rendered ? texOf(v) : render(texOf(v), output);
      byHtml.set(html, [...(byHtml.get(html) ?? []), variantKey(v)]);
    }
    for (const [html, keys] of byHtml)
      templates.push(`<template ${attributes} data-variants="${keys.join(' ')}">${html}</template>`);
  };
  // The main formula's two pieces side by side, each a display of its own: they wrap on a phone.
  group('data-formula="main"', (v) => mainFormulaPieces(v.scale).map(render).join(''), { rendered: true });
  // With heads, the stage puts the heads' pieces after them: one template, the same for every option.
  group('data-formula="heads"', () => headsPieces().map(render).join(''), { rendered: true });
  for (const step of STEPS)
    group(`data-formula="detail" data-step="${step}"`, (v) => detailFormula(step, v.scale, v.softmax, v.axis), {
      output: stepById(step).formula.output,
    });
  return templates.join('\n');
}

// KaTeX's @font-face rules, keyed "family|weight|style" (e.g. "KaTeX_Math|normal|italic").
function fontFaces(css) {
  const faces = new Map();
  for (const [rule] of css.matchAll(/@font-face\{[^}]*\}/g)) {
    const family = /font-family:([^;}]+)/.exec(rule)[1].trim();
    const weight = /font-weight:([^;}]+)/.exec(rule)?.[1].trim() ?? 'normal';
    const style = /font-style:([^;}]+)/.exec(rule)?.[1].trim() ?? 'normal';
    const woff2 = /url\(([^)]+\.woff2)\)/.exec(rule)[1];
    faces.set(`${family}|${weight === '700' || weight === 'bold' ? 'bold' : 'normal'}|${style}`, { rule, woff2 });
  }
  return faces;
}

/**
 * The fonts a piece of KaTeX markup uses, found from KaTeX's own stylesheet: every rule that sets
 * a font-family applies when some element carries all the classes of the rule's last compound
 * selector (".katex .delimsizing.size1" → an element with both "delimsizing" and "size1"). The
 * base face (KaTeX_Main regular) and `extra` ("family|weight|style" keys the page's own CSS uses)
 * are always kept. A browser test checks that every glyph of every formula is drawn with a face
 * this returns.
 */
export function usedFaces(html, extra = []) {
  const css = katexStylesheet();
  const elements = [...html.matchAll(/class="([^"]*)"/g)].map((m) => new Set(m[1].split(/\s+/)));
  const used = new Set(['KaTeX_Main|normal|normal', ...extra]);
  const body = css.replace(/@font-face\{[^}]*\}/g, '');
  for (const [, selectors, declarations] of body.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const family = /font-family:\s*(KaTeX_\w+)/.exec(declarations)?.[1];
    if (!family) continue;
    const weight = /font-weight:\s*(bold|700)/.test(declarations) ? 'bold' : 'normal';
    const style = /font-style:\s*italic/.test(declarations) ? 'italic' : 'normal';
    for (const selector of selectors.split(',')) {
      const last = selector.trim().split(/\s+/).pop();
      const classes = [...last.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
      if (classes.length && elements.some((el) => classes.every((c) => el.has(c))))
        used.add(`${family}|${weight}|${style}`);
    }
  }
  return used;
}

/**
 * KaTeX's stylesheet and the faces in `keep`, each as one woff2 file (every browser the page
 * supports reads woff2). With `fontFaceRules` the CSS keeps an @font-face rule per kept face,
 * pointing next to it (`fonts/…`); without, the CSS has no @font-face at all and the caller loads
 * the returned `faces` itself (the self-contained builds hand the bytes to the FontFace API, so
 * that not even a data: URL is requested).
 * Returns { css, faces: [{ family, weight, style, file }] }.
 */
export function katexCss({ keep, fontFaceRules = true }) {
  const css = katexStylesheet();
  const all = fontFaces(css);
  const faces = [];
  const rules = [];
  for (const key of keep) {
    const face = all.get(key);
    if (!face) throw new Error(`KaTeX has no font face ${key}`);
    const [family, weight, style] = key.split('|');
    faces.push({ family, weight, style, file: path.join(KATEX_DIST, face.woff2) });
    rules.push(face.rule.replace(/src:[^;}]+/, `src:url(${face.woff2}) format("woff2")`));
  }
  const rest = css.replace(/@font-face\{[^}]*\}/g, '');
  return { css: (fontFaceRules ? rules.join('') : '') + rest, faces };
}

/**
 * The page's styles as one text: web/styles.css (the stepper and the frame), then the views' own
 * sheets — in web/styles/ (the chapters not yet in a folder, the exports, the printed handout) and
 * in each feature's folder (web/src/features/<name>/*.css) — in the order of their file names,
 * wherever they are (print.css after the sheets its rules override for paper).
 */
export function pageStyles() {
  const sheetsIn = (dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.css'))
      .map((f) => path.join(dir, f));
  const features = at('web', 'src', 'features');
  const sheets = [
    ...sheetsIn(at('web', 'styles')),
    ...fs
      .readdirSync(features, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => sheetsIn(path.join(features, entry.name))),
  ].sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1));
  return [at('web', 'styles.css'), ...sheets].map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

export const faceKey = (family, weight = 'normal', style = 'normal') => `${family}|${weight}|${style}`;

/** The faces styles.css draws with (matrix names and operators in KaTeX's math italic). */
export const PAGE_FACES = [faceKey('KaTeX_Math', 'normal', 'italic')];

export const sha256 = (text) => crypto.createHash('sha256').update(text).digest('base64');

/**
 * The Content-Security-Policy of a page, as a <meta> tag. Scripts run only from the page's own
 * origin or, when inlined, by their sha256 (never 'unsafe-inline' or 'unsafe-eval' for scripts);
 * 'wasm-unsafe-eval' lets the page compile its WebAssembly. Styles allow 'unsafe-inline' because
 * KaTeX's pre-rendered markup places every glyph with a style attribute.
 */
export function cspMeta(directives) {
  const text = Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${text}">`;
}

/**
 * The page's icon as a <link> with the SVG inline (a data: URL), so that the icon costs no
 * request of its own. The offline file has none: Firefox would report even a data: URL as a request.
 */
export function iconLink() {
  const svg = fs.readFileSync(at('web', 'icon.svg'), 'utf8').trim();
  return `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(svg)}">`;
}

/**
 * The build setting ATTENTION_PLAYGROUND_ARTICLE: where the article lives (an https: address), so
 * that every "原文" of this build links to it (web/src/article.js); unset, the page names the
 * article without a link. Any other value stops the build, naming the setting.
 */
export function articleMeta(url = process.env.ATTENTION_PLAYGROUND_ARTICLE) {
  if (!url) return '';
  if (!isArticleUrl(url))
    throw new Error(`ATTENTION_PLAYGROUND_ARTICLE must be an https: address (it is ${JSON.stringify(url)})`);
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<meta name="attention-playground-article" content="${attribute}">`;
}

/** Fills the page frame (web/index.html): each `<!-- NAME -->` placeholder from `parts`, and the build's article link (articleMeta) with META. */
export function fillPage(parts) {
  parts = { ...parts, META: [parts.META, articleMeta()].filter(Boolean).join('\n') };
  let html = fs.readFileSync(at('web', 'index.html'), 'utf8');
  for (const [name, value] of Object.entries(parts)) {
    const mark = `<!-- ${name} -->`;
    if (!html.includes(mark)) throw new Error(`web/index.html has no ${mark} placeholder`);
    html = html.replace(mark, () => value);
  }
  const left = /<!-- ([A-Z_]+) -->/.exec(html);
  if (left) throw new Error(`web/index.html: placeholder ${left[0]} was not filled`);
  return html;
}
