// A chapter is a folder (web/src/features/index.js): everything a feature owns is in its folder,
// the rest of the page reaches it only through the registry, and the registry's description is
// what the page uses — its view in the view switch, its fields in the link, its words in both
// dictionaries, its sheets in the page's styles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { FEATURES } from '../../web/src/features/index.js';
import { VIEWS, defaultState, parseState, serializeState } from '../../web/src/state.js';
import { DICTIONARIES } from '../../web/src/i18n/index.js';
import { pageStyles } from '../../scripts/lib/page-parts.mjs';

const FEATURES_DIR = 'web/src/features';
// The registry: what the page always loads, the labs' views (loaded when a lab first opens), and
// what runs in the labs' worker.
const REGISTRY = ['index.js', 'lab-views.js', 'workers.js'].map((f) => path.join(FEATURES_DIR, f));
const folders = fs
  .readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every .js/.mjs file under `dir`. */
const sources = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));

/** The relative modules `file` imports (static, dynamic and re-exports), as paths from the repository root. */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(([, spec]) =>
    path.normalize(path.join(path.dirname(file), spec)),
  );
}

/** The feature folder `file` is in, or null. */
const featureFolder = (file) => {
  const inside = path.relative(FEATURES_DIR, file).split(path.sep);
  return inside.length > 1 && !inside[0].startsWith('..') ? inside[0] : null;
};

test('no file outside a feature’s folder imports from it, but the registry', () => {
  const crossings = [];
  for (const file of [...sources('web'), ...sources('scripts'), ...sources('wasm')]) {
    if (REGISTRY.includes(file)) continue;
    for (const target of importsOf(file)) {
      const owner = featureFolder(target);
      if (owner && featureFolder(file) !== owner) crossings.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test('each folder is a feature in the registry, and each registered feature a folder', () => {
  const registered = importsOf(REGISTRY[0]).map(featureFolder).filter(Boolean);
  assert.deepEqual([...registered].sort(), [...folders].sort());
  assert.equal(FEATURES.length, folders.length);
  for (const name of folders) assert.ok(fs.existsSync(path.join(FEATURES_DIR, name, 'feature.js')), name);
});

test('a feature’s view is a view of the page, in the registry’s order', () => {
  const views = FEATURES.map((feature) => feature.view);
  assert.deepEqual(
    VIEWS.filter((view) => views.includes(view)),
    views,
  );
  assert.deepEqual(views, ['scale-lab', 'cost-lab', 'exercise', 'train-lab', 'efficiency-lab']);
});

test('a feature’s fields are in the link only in its view, and read back as written', () => {
  for (const feature of FEATURES) {
    for (const field of feature.fields) {
      const other = { ...defaultState(), view: 'steps' };
      assert.doesNotMatch(serializeState(other), new RegExp(`[#&]${field.key}=`), `${field.key} outside its view`);
      const own = { ...defaultState(), view: feature.view };
      const written = serializeState(own);
      const { state } = parseState(written);
      assert.deepEqual(state[field.key], own[field.key], `${feature.view}: ${field.key}`);
    }
  }
  // The scale lab's d_k of §4 (256), and back from the link.
  const link = serializeState({ ...defaultState(), view: 'scale-lab', labdk: 256 });
  assert.match(link, /labdk=256/);
  assert.equal(parseState(link).state.labdk, 256);
});

test('a link the exercise refuses: a question beyond its series', () => {
  const { state, notice } = parseState('#view=exercise&ex=12&exlen=10');
  assert.equal(state.view, 'steps', 'the link falls back to the default');
  assert.ok(notice);
  assert.equal(parseState('#view=exercise&ex=3&exlen=10').state.ex, 3);
});

test('a feature’s words are in both dictionaries, the same keys in each language', () => {
  for (const feature of FEATURES) {
    const zh = Object.keys(feature.words['zh-CN']).sort();
    assert.deepEqual(Object.keys(feature.words.en).sort(), zh, feature.view);
    for (const key of zh) {
      assert.equal(DICTIONARIES['zh-CN'][key], feature.words['zh-CN'][key], key);
      assert.equal(DICTIONARIES.en[key], feature.words.en[key], key);
    }
  }
});

test('a feature’s style sheets are in the page’s styles', () => {
  const styles = pageStyles();
  for (const name of folders)
    for (const sheet of fs.readdirSync(path.join(FEATURES_DIR, name)).filter((f) => f.endsWith('.css')))
      assert.ok(styles.includes(fs.readFileSync(path.join(FEATURES_DIR, name, sheet), 'utf8')), `${name}/${sheet}`);
});
