// The self-contained builds' script in pieces (scripts/build-dist.mjs): the stepper's bundle, run
// at once, and one bundle per part of the page that web/src/parts.js loads when first needed (the
// labs, the exports), carried as text that is run only then (web/src/parts-inline.js, which takes
// parts.js's place in these builds).
//
// A part's bundle does not carry its own copy of what the stepper's bundle has (steps.js, the
// dictionaries, dom.js, …): it takes those modules from the stepper's, through a registry the
// stepper's bundle fills (the virtual module 'inline-parts'), so that there is one copy of each
// module's state. Which modules that takes is found by building: the stepper's bundle, then the
// parts against what it holds, then the stepper's again with the modules the parts ask for, until
// nothing new is asked. A module two parts use and the stepper does not joins the stepper's
// bundle (one copy, not two).

import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { at, ROOT } from './page-parts.mjs';

/** The global through which parts and the stepper meet (web/src/parts-inline.js). */
const KEY = '__attentionPlaygroundParts';
const PARTS_FILE = at('web', 'src', 'parts.js');
const INLINE_FILE = at('web', 'src', 'parts-inline.js');

/** The parts web/src/parts.js loads, from its LOADERS: [{ name, file }]. */
export function partEntries() {
  const text = fs.readFileSync(PARTS_FILE, 'utf8');
  const entries = [...text.matchAll(/^ {2}'?([\w-]+)'?: \(\) => import\('(\.[^']+)'\),$/gm)].map(([, name, file]) => ({
    name,
    file: path.resolve(path.dirname(PARTS_FILE), file),
  }));
  if (!entries.length) throw new Error('lazy-parts: no `name: () => import(…)` loader found in web/src/parts.js');
  return entries;
}

const id = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * esbuild plugin for the stepper's bundle: parts.js becomes parts-inline.js, and the virtual
 * module 'inline-parts' exports the registry's KEY and `modules`: for the i-th module of `shared`
 * (Map: absolute path → the names the parts import from it), a function that gives those names'
 * values. It is called when a part runs, after the stepper's modules have all run.
 */
function stepperSide(shared) {
  return {
    name: 'inline-parts-stepper',
    setup(build) {
      build.onResolve({ filter: /parts\.js$/ }, (args) =>
        path.resolve(args.resolveDir, args.path) === PARTS_FILE ? { path: INLINE_FILE } : undefined,
      );
      build.onResolve({ filter: /^inline-parts$/ }, () => ({ path: 'inline-parts', namespace: 'inline-parts' }));
      build.onLoad({ filter: /.*/, namespace: 'inline-parts' }, () => {
        const lines = [];
        const entries = [...shared].map(([file, names], i) => {
          const list = [...names].sort();
          // (An empty list still brings the module into the stepper's bundle.)
          lines.push(
            `import { ${list.map((name, j) => `${name} as m${i}_${j}`).join(', ')} } from ${JSON.stringify(file)};`,
          );
          return `() => ({ ${list.map((name, j) => `${name}: m${i}_${j}`).join(', ')} })`;
        });
        return {
          loader: 'js',
          resolveDir: ROOT,
          contents: `${lines.join('\n')}
export const KEY = ${JSON.stringify(KEY)};
export const modules = [${entries.join(',\n')}];`,
        };
      });
    },
  };
}

/**
 * esbuild plugin for a part's first build (ESM): every module the stepper's bundle holds
 * (`stepper`, absolute paths) is left external, named by its path, so that the output's import
 * statements say which of its names the part uses; every other file is bundled, and listed in `own`.
 */
function partSide(stepper, own) {
  return {
    name: 'inline-parts-part',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point') return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { inner: true },
        });
        if (found.errors.length || found.namespace !== 'file') return undefined;
        if (!stepper.has(found.path)) {
          own.add(found.path);
          return undefined;
        }
        return { path: found.path, external: true };
      });
    },
  };
}

/**
 * The imports of esbuild's (unminified) ESM output, `import d, { a, b as c } from "file";`:
 * [{ file, names }] ('default' for d).
 */
function importsOf(text) {
  const found = [];
  for (const [, clause, file] of text.matchAll(/^import ([^;]+?) from "([^"]+)";$/gm)) {
    if (clause.includes('*'))
      throw new Error(`lazy-parts: a part imports all of ${id(file)} (import * as …): import the names it uses`);
    const [, whole, braces = ''] = /^([\w$]+)?[\s,]*(?:\{([^}]*)\})?$/.exec(clause.trim()) ?? [];
    const names = new Set(
      braces
        .split(',')
        .map((item) => item.trim().split(/\s+as\s+/)[0])
        .filter(Boolean),
    );
    if (whole) names.add('default');
    found.push({ file, names });
  }
  if (/^import\s*["'(]/m.test(text)) throw new Error('lazy-parts: a part imports a module for its side effects only');
  return found;
}

/**
 * esbuild plugin for a part's second build (IIFE, from the first's output): each module of the
 * stepper is its entry in the registry (`index`: absolute path → { at: its place in `modules`,
 * names }). The names are taken once, when the part runs, as plain bindings the minifier may
 * rename: the stepper is fully running by then, and no shared module exports a `let` or `var`
 * whose value could change afterwards (checked here).
 */
function fromRegistry(index) {
  return {
    name: 'inline-parts-registry',
    setup(build) {
      build.onResolve({ filter: /^\// }, (args) =>
        index.has(args.path) ? { path: args.path, namespace: 'stepper-module' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'stepper-module' }, (args) => {
        const { at, names } = index.get(args.path);
        if (/^export\s+(let|var)\b/m.test(fs.readFileSync(args.path, 'utf8')))
          throw new Error(`lazy-parts: ${id(args.path)} exports a let or var, which a part would not see change`);
        const plain = [...names].filter((name) => name !== 'default');
        return {
          loader: 'js',
          contents: [
            `const m = globalThis[${JSON.stringify(KEY)}].modules[${at}]();`,
            plain.length ? `export const { ${plain.join(', ')} } = m;` : '',
            names.has('default') ? 'export default m.default;' : '',
          ].join('\n'),
        };
      });
    },
  };
}

/**
 * Builds the stepper's bundle and the parts' (esbuild `options` for all: format iife, minify, …;
 * `plugins` are added to each build). Returns { stepper: text, parts: [{ name, text }] }.
 */
export async function buildWithParts({ entry, plugins = [], ...options }) {
  const entries = partEntries();
  let shared = new Map(); // absolute path → the names parts import from it
  for (;;) {
    const stepper = await esbuild.build({
      ...options,
      entryPoints: [entry],
      absWorkingDir: ROOT,
      write: false,
      metafile: true,
      plugins: [stepperSide(shared), ...plugins],
    });
    const held = new Set(Object.keys(stepper.metafile.inputs).map((file) => path.resolve(ROOT, file)));
    const wanted = new Map();
    const want = (file, names) => {
      if (!wanted.has(file)) wanted.set(file, new Set());
      for (const name of names) wanted.get(file).add(name);
    };
    const ownBy = new Map(); // a file bundled by parts → how many
    const firsts = [];
    for (const { name, file } of entries) {
      const own = new Set();
      const result = await esbuild.build({
        ...options,
        format: 'esm',
        minify: false,
        stdin: {
          contents: `import * as part from ${JSON.stringify(file)};\nglobalThis[${JSON.stringify(KEY)}].parts[${JSON.stringify(name)}] = part;`,
          resolveDir: ROOT,
          loader: 'js',
        },
        absWorkingDir: ROOT,
        write: false,
        plugins: [partSide(held, own), ...plugins],
      });
      const text = result.outputFiles[0].text;
      for (const { file: used, names } of importsOf(text)) want(used, names);
      for (const f of own) ownBy.set(f, (ownBy.get(f) ?? 0) + 1);
      firsts.push({ name, text });
    }
    // A module two parts bundle (and the stepper does not) joins the stepper: one copy, one state.
    // (The next round's parts say which of its names they use.)
    for (const [f, count] of ownBy) if (count > 1) want(f, []);
    const covered = [...wanted].every(([f, names]) => shared.has(f) && [...names].every((n) => shared.get(f).has(n)));
    if (!covered) {
      for (const [f, names] of wanted) shared.set(f, new Set([...(shared.get(f) ?? []), ...names]));
      continue;
    }
    const index = new Map([...shared].map(([f, names], at) => [f, { at, names }]));
    const parts = [];
    for (const { name, text } of firsts) {
      const result = await esbuild.build({
        ...options,
        stdin: { contents: text, resolveDir: ROOT, loader: 'js' },
        absWorkingDir: ROOT,
        write: false,
        plugins: [fromRegistry(index)],
      });
      parts.push({ name, text: result.outputFiles[0].text });
    }
    return { stepper: stepper.outputFiles[0].text, parts };
  }
}
