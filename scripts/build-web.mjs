// The single web build step: bundles the page, pre-renders its formulas with KaTeX, and copies
// the wasm core and KaTeX's CSS + woff2 fonts, all into build/web/ (open build/web/index.html
// through `npm start`). Fast (well under a second) and idempotent: build/web is rebuilt from scratch.
//
// Needs the wasm core built first (build/wasm/attention_core.{mjs,wasm}); scripts/build.sh does that.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import katex from 'katex';
import { STEP_IDS, VARIANTS, variantKey, mainFormula, detailFormula } from '../web/formulas/formulas.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
const out = at('build', 'web');
// Both builds of the core: SIMD128, and scalar for browsers without wasm SIMD (engine.js picks).
const wasmFiles = ['attention_core.wasm', 'attention_core_scalar.wasm'].map((f) => at('build', 'wasm', f));
const started = performance.now();

for (const needed of [...wasmFiles, at('wasm', 'attention.mjs'), at('wasm', 'attention-scalar.mjs')]) {
  if (!fs.existsSync(needed)) {
    console.error(`build-web: ${path.relative(root, needed)} is missing — build the wasm core first (bash scripts/build.sh)`);
    process.exit(1);
  }
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'katex', 'fonts'), { recursive: true });

// 1. The page's script: one ES module with the wasm glue inside; the .wasm files sit next to it.
await esbuild.build({
  entryPoints: [at('web', 'src', 'main.js')],
  outfile: path.join(out, 'main.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of wasmFiles) fs.copyFileSync(file, path.join(out, path.basename(file)));

// 2. Formulas: every step × scaling, as <template>s the stage clones (KaTeX HTML + MathML).
const render = (tex) => katex.renderToString(tex, {
  displayMode: true,
  throwOnError: true,
  strict: 'ignore',
  trust: (context) => context.command === '\\htmlClass',
});
// One <template> per distinct rendering; data-variants lists every "scale/softmax/axis" it
// serves, so that a formula the options do not change is written once.
const templates = [];
for (const step of STEP_IDS) {
  for (const [kind, tex] of [['main', mainFormula], ['detail', detailFormula]]) {
    const byHtml = new Map();
    for (const v of VARIANTS) {
      const html = render(tex(step, v.scale, v.softmax, v.axis));
      byHtml.set(html, [...(byHtml.get(html) ?? []), variantKey(v)]);
    }
    for (const [html, keys] of byHtml)
      templates.push(`<template data-formula="${kind}" data-step="${step}" data-variants="${keys.join(' ')}">${html}</template>`);
  }
}
const html = fs.readFileSync(at('web', 'index.html'), 'utf8');
if (!html.includes('<!-- FORMULAS -->')) throw new Error('web/index.html has no <!-- FORMULAS --> placeholder');
fs.writeFileSync(path.join(out, 'index.html'), html.replace('<!-- FORMULAS -->', templates.join('\n')));

// 3. Styles: ours, and KaTeX's with only the woff2 fonts (every browser we support reads woff2).
fs.copyFileSync(at('web', 'styles.css'), path.join(out, 'styles.css'));
const katexDist = at('node_modules', 'katex', 'dist');
const katexCss = fs.readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8')
  .replace(/,\s*url\([^)]*\.woff\)\s*format\("woff"\)/g, '')
  .replace(/,\s*url\([^)]*\.ttf\)\s*format\("truetype"\)/g, '');
fs.writeFileSync(path.join(out, 'katex', 'katex.min.css'), katexCss);
for (const font of fs.readdirSync(path.join(katexDist, 'fonts'))) {
  if (font.endsWith('.woff2')) fs.copyFileSync(path.join(katexDist, 'fonts', font), path.join(out, 'katex', 'fonts', font));
}

console.log(`build-web: build/web ready in ${Math.round(performance.now() - started)} ms`);
