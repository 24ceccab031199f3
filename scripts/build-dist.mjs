// `npm run build` → dist/ (not committed): the two ways the playground ships.
//
//   dist/attention-playground.html   one self-contained file for classrooms: the script, both
//                                    .wasm builds, the styles, the fonts the formulas use and
//                                    both languages inside; opened from file://, a USB stick or
//                                    an e-mail, it makes no request at all.
//   dist/site/                       the hosted build for any static web server, no special
//                                    headers needed:
//     index.html                     the same self-contained page, plus a service worker that
//                                    caches the site's own files (and only those) for offline use. Self-contained because a
//                                    blog's <iframe sandbox="allow-scripts"> has an opaque origin:
//                                    it may fetch nothing from the host without CORS headers
//                                    (no module script, no .wasm, no font), but inline code runs.
//     attention-playground.html      the offline file again, for the page's download link
//     embed.js                       the host script for blog embeds (web/embed.js)
//     sw.js                          the service worker (web/sw.js with this build's id)
//
// Prints the size of every output and fails when one is over its budget (BUDGETS).
// Needs the wasm core built first; scripts/build.sh runs this after scripts/build-web.mjs.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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
import { buildWithParts } from './lib/lazy-parts.mjs';

/** The most each output may weigh, in bytes. */
export const BUDGETS = {
  'attention-playground.html': 1.5e6,
  'site/index.html': 1.5e6,
  'site/attention-playground.html': 1.5e6,
  'site/embed.js': 4e3,
  'site/sw.js': 3e3,
};

const out = at('dist');
const started = performance.now();

// The fonts the formulas use. They travel inside the script and reach the browser through the
// FontFace API (web/src/main-inline.js): as data: URLs in the CSS, Firefox would still report a
// "request" for each, and this page makes none.
const formulas = formulaTemplates();
const katex = katexCss({ keep: usedFaces(formulas, PAGE_FACES), fontFaceRules: false });
const inlineFonts = {
  name: 'inline-fonts',
  setup(b) {
    b.onResolve({ filter: /^inline-fonts$/ }, () => ({ path: 'inline-fonts', namespace: 'inline-fonts' }));
    b.onLoad({ filter: /.*/, namespace: 'inline-fonts' }, () => ({
      loader: 'js',
      contents: `export default ${JSON.stringify(
        katex.faces.map(({ family, weight, style, file }) => ({
          family,
          weight,
          style,
          base64: fs.readFileSync(file).toString('base64'),
        })),
      )};`,
    }));
  },
};

// The SIMD128 and scalar .wasm, gzipped for the bundle (web/src/main-inline.js inflates the one
// it runs): a .wasm is about a third of its size in gzip (427 kB → 150 kB). zlib writes no time
// into the header, so the same .wasm gives the same bytes and the same build id.
for (const name of ['attention_core', 'attention_core_scalar'])
  fs.writeFileSync(
    at('build', 'wasm', `${name}.wasm.gz`),
    zlib.gzipSync(fs.readFileSync(at('build', 'wasm', `${name}.wasm`)), { level: 9 }),
  );

// 1. The script: one classic script (an inline <script type="module"> would work too, but a
//    classic one needs no top-level await and runs the same in every browser we support), and the
//    parts of the page that load when first needed (web/src/parts.js: the labs, the exports), each
//    carried as text the browser does not parse, run by its hash when needed (scripts/lib/lazy-parts.mjs).
const bundles = await buildWithParts({
  entry: at('web', 'src', 'main-inline.js'),
  bundle: true,
  format: 'iife',
  target: ['chrome91', 'firefox102', 'safari16'],
  minify: true,
  // The words as they are (the file is UTF-8): escaped, each Chinese character would take 6 bytes, not 3.
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
  loader: { '.wasm': 'base64', '.gz': 'base64' },
  // The labs' Web Worker (cost and training labs) travels inside as text and starts from a Blob URL, which the CSP's
  // `worker-src blob:` allows (web/src/labs/labs-worker-source.js); the page posts it the .wasm bytes.
  plugins: [inlineFonts, labsWorkerPlugin({ minify: true })],
  // The Emscripten glue reads import.meta.url only to find its .wasm, which this bundle carries.
  define: { 'import.meta.url': '""' },
});
const script = bundles.stepper;
// Inside an inline <script>, "</script" would end it and "<!--" changes how it is parsed.
for (const text of [script, ...bundles.parts.map((part) => part.text)])
  if (/<\/script|<!--/i.test(text))
    throw new Error('build-dist: a bundle contains "</script" or "<!--"; it cannot be inlined');

// 2. The styles: KaTeX's (without @font-face), then ours, minified.
const { code: css } = await esbuild.transform(katex.css + pageStyles(), { loader: 'css', minify: true });
if (/<\/style/i.test(css)) throw new Error('build-dist: the styles contain "</style"');

// 3. The pages. The build id is a hash of what the page is made of: a new build (new content)
//    gets a new service-worker cache, the same content the same id.
const build = sha256(script + bundles.parts.map((part) => part.text).join('') + css + formulas)
  .replace(/[^A-Za-z0-9]/g, '')
  .slice(0, 12);
// The stepper's script first, so that it runs before the parser reads the parts' text.
const inlineScript = [
  `<script>${script}</script>`,
  ...bundles.parts.map(({ name, text }) => `<script type="text/plain" id="part-${name}">${text}</script>`),
].join('\n');
const scriptHashes = [script, ...bundles.parts.map((part) => part.text)].map((text) => `'sha256-${sha256(text)}'`);
function page({ hosted }) {
  return fillPage({
    // No default source: what is not listed cannot be loaded at all. The hosted page adds only
    // its service worker (worker-src 'self'); the offline file may fetch nothing whatsoever.
    CSP: cspMeta({
      'default-src': ["'none'"],
      'script-src': [...scriptHashes, "'wasm-unsafe-eval'"],
      'style-src': ["'unsafe-inline'"],
      'img-src': ['data:', 'blob:'],
      'worker-src': hosted ? ["'self'", 'blob:'] : ['blob:'],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
    }),
    META: [
      `<meta name="attention-playground-build" content="${build}">`,
      hosted ? '<meta name="attention-playground-sw" content="sw.js">' : '',
      hosted ? '<meta name="attention-playground-offline-file" content="attention-playground.html">' : '',
      hosted ? iconLink() : '',
    ]
      .filter(Boolean)
      .join('\n'),
    STYLES: `<style>${css}</style>`,
    FALLBACK: '',
    FORMULAS: formulas,
    SCRIPT: inlineScript,
  });
}

const offline = page({ hosted: false });
const outputs = {
  'attention-playground.html': offline,
  'site/index.html': page({ hosted: true }),
  'site/attention-playground.html': offline,
  'site/embed.js': (
    await esbuild.transform(fs.readFileSync(at('web', 'embed.js'), 'utf8'), { minify: true, target: 'es2015' })
  ).code,
};
// The service worker's manifest: the site's own files, which it caches on install and is the only
// thing it ever answers (web/sw.js). './' is the folder, the same page as index.html. The worker's
// text changes with every build id, which is what makes browsers update it.
const manifest = [
  './',
  ...Object.keys(outputs)
    .filter((name) => name.startsWith('site/'))
    .map((name) => name.slice(5)),
];
const worker = fs
  .readFileSync(at('web', 'sw.js'), 'utf8')
  .replace("'__BUILD__'", JSON.stringify(build))
  .replace('__MANIFEST__', JSON.stringify(manifest));
outputs['site/sw.js'] = (await esbuild.transform(worker, { minify: true, target: 'es2020' })).code;

fs.rmSync(out, { recursive: true, force: true });
let over = 0;
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
console.log(`build-dist: build ${build}`);
for (const [name, text] of Object.entries(outputs)) {
  const file = path.join(out, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const size = fs.statSync(file).size;
  const budget = BUDGETS[name];
  const ok = size <= budget;
  if (!ok) over++;
  console.log(
    `  ${path.relative(ROOT, file).padEnd(38)} ${kB(size).padStart(10)}  (budget ${kB(budget)})${ok ? '' : '  OVER BUDGET'}`,
  );
}
if (over) {
  console.error(`build-dist: ${over} output(s) over budget`);
  process.exit(1);
}
console.log(`build-dist: dist/ ready in ${Math.round(performance.now() - started)} ms`);
