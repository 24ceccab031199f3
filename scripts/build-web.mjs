// The development page that `npm start` serves: build/web/ holds the page, its ES module (and, in
// parts/, the modules of the parts it loads when first needed), the .wasm files next to it,
// KaTeX's CSS and the woff2 fonts the formulas use. Rebuilt from scratch in well under a second. The offline file and the hosted site are built by
// scripts/build-dist.mjs from the same parts.
//
// Needs the wasm core built first (build/wasm/attention_core{_relaxed,,_scalar}.{mjs,wasm}); scripts/build.sh does that.

import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import {
  at,
  ROOT,
  formulaTemplates,
  usedFaces,
  katexCss,
  PAGE_FACES,
  pageStyles,
  cspMeta,
  fillPage,
  iconLink,
  sha256,
} from './lib/page-parts.mjs';
import { labsWorkerPlugin } from './lib/labs-worker.mjs';
import zh from '../web/src/i18n/zh-CN.js';
import en from '../web/src/i18n/en.js';

const out = at('build', 'web');
const wasmFiles = ['attention_core_relaxed.wasm', 'attention_core.wasm', 'attention_core_scalar.wasm'].map((f) =>
  at('build', 'wasm', f),
);
const started = performance.now();

for (const needed of [
  ...wasmFiles,
  ...['attention-relaxed.mjs', 'attention.mjs', 'attention-scalar.mjs'].map((f) => at('wasm', f)),
]) {
  if (!fs.existsSync(needed)) {
    console.error(
      `build-web: ${path.relative(ROOT, needed)} is missing — build the wasm core first (bash scripts/build.sh)`,
    );
    process.exit(1);
  }
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'katex', 'fonts'), { recursive: true });

// 1. The page's script: an ES module with the wasm glue inside (main.js); the .wasm files sit
//    next to it. The parts of the page that load when first needed (web/src/parts.js: the labs,
//    the exports) are files of their own in parts/, which main.js imports when it needs them, and
//    so are the modules they share with it.
await esbuild.build({
  entryPoints: [at('web', 'src', 'main.js')],
  outdir: out,
  entryNames: '[name]',
  chunkNames: 'parts/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // The labs' Web Worker (cost and training labs), as text the page starts from a Blob URL (web/src/labs/labs-worker-source.js).
  plugins: [labsWorkerPlugin()],
});
for (const file of wasmFiles) fs.copyFileSync(file, path.join(out, path.basename(file)));
fs.copyFileSync(at('web', 'embed.js'), path.join(out, 'embed.js'));

// 2. Styles: ours, and KaTeX's with only the fonts the formulas use.
const formulas = formulaTemplates();
const katex = katexCss({ keep: usedFaces(formulas, PAGE_FACES) });
fs.writeFileSync(path.join(out, 'katex', 'katex.min.css'), katex.css);
for (const { file } of katex.faces) fs.copyFileSync(file, path.join(out, 'katex', 'fonts', path.basename(file)));
fs.writeFileSync(path.join(out, 'styles.css'), pageStyles());

// 3. The page. Opened from file://, Chromium does not run module scripts; a small inline script
//    then says which file to open instead (the offline file works from anywhere). In a sandboxed
//    frame (an opaque origin) the module script cannot load at all: the script says so at once,
//    in the words of the dictionaries (embed.frameFailed), rather than "loading…" for ever.
const frameFailed = `${zh['embed.frameFailed']} ${en['embed.frameFailed']}`;
const fallback = `(function () {
  var said = false;
  function say(text) {
    var loading = document.getElementById('loading');
    if (said || document.body.dataset.ready || !loading) return;
    said = true;
    loading.textContent = text;
  }
  addEventListener('error', function (event) {
    if (event.target && event.target.tagName === 'SCRIPT' && window.top !== window) say(${JSON.stringify(frameFailed)});
  }, true);
  setTimeout(function () {
    if (location.protocol === 'file:') say('这是开发用的页面,从本地文件打开时浏览器不会加载它的脚本。请打开离线版 dist/attention-playground.html(由 npm run build 生成),或运行 npm start。 ' +
      'This is the development page; opened from a file, the browser does not load its script. Open the offline file dist/attention-playground.html (made by npm run build) or run npm start.');
  }, 2000);
})();`;
const html = fillPage({
  CSP: cspMeta({
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'", `'sha256-${sha256(fallback)}'`],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  }),
  // The embed snippet of this page points at the self-contained build (web/src/embed/snippet.js),
  // which scripts/serve.mjs serves at site/ next to it.
  META: `${iconLink()}\n<meta name="attention-playground-embed-page" content="site/index.html">`,
  STYLES: '<link rel="stylesheet" href="katex/katex.min.css">\n<link rel="stylesheet" href="styles.css">',
  FALLBACK: `<script>${fallback}</script>`,
  FORMULAS: formulas,
  SCRIPT: '<script type="module" src="main.js"></script>',
});
fs.writeFileSync(path.join(out, 'index.html'), html);

console.log(`build-web: build/web ready in ${Math.round(performance.now() - started)} ms`);
