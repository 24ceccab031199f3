// Dimensions derived, not threaded (issue 28, item 2): what an option does to the names, formulas
// and words is written once, in its description (options.js `forms`), and the views, the
// controller and the exports read it there (optionForms) — none of them compares an option's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTIONS, OPTION_KEYS, optionForms, optionDefaults } from '../../web/src/options.js';
import { defaultState, figureLooks, articleSetting } from '../../web/src/state.js';
import { stepMatrices } from '../../web/src/labs/export/matrices.js';
import { symbol } from '../../web/src/views/names.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['web/src/views', 'web/src/controller', 'web/src/labs/export'];

/** Every .js/.mjs file under `dir` (from the repository's root). */
const sources = (dir) =>
  fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));

// `state.axis === 'column'`, `ctx.state.softmax !== 'naive'`, `1 !== state.temperature` — an
// option's value compared, on either side of the operator, for every option of the table.
const keys = OPTION_KEYS.join('|');
const COMPARISON = new RegExp(
  `\\bstate\\.(?:${keys})\\b\\s*[!=]==?|[!=]==?\\s*(?:[\\w$]+\\.)*state\\.(?:${keys})\\b`,
  'g',
);

/** The comparisons of an option's value in `text`, each as 'line: source'. */
function comparisons(text) {
  return text.split('\n').flatMap((source, i) => (source.match(COMPARISON) ? [`${i + 1}: ${source.trim()}`] : []));
}

test('the scan finds an option compared, on either side, and not an option read', () => {
  // What the rule forbids: so that the scan below cannot pass by matching nothing.
  assert.equal(comparisons("const column = state.axis === 'column';").length, 1);
  assert.equal(comparisons('if (ctx.state.temperature !== 1) tau();').length, 1);
  assert.equal(comparisons("x = 'naive' == state.softmax;").length, 1);
  // What it allows: an option read, indexed, put in a key or handed on.
  assert.deepEqual(comparisons('const key = JSON.stringify([state.axis, state.temperature]);'), []);
  assert.deepEqual(comparisons('const rule = SCALE_RULES[state.scale];'), []);
  assert.deepEqual(comparisons('mn(formatInput(state.temperature))'), []);
  // Another field of the state is not an option of the table.
  assert.deepEqual(comparisons("state.loss === 'mse'"), []);
});

test('no view, controller or export compares an option’s value: they read the options’ forms', () => {
  const found = SCANNED.flatMap(sources).flatMap((file) =>
    comparisons(fs.readFileSync(file, 'utf8')).map((hit) => `${path.relative(ROOT, file)}:${hit}`),
  );
  assert.deepEqual(found, [], 'compare in options.js `forms`, once, and read optionForms(state)');
});

test('every value of every option has its forms, with the same facts', () => {
  for (const o of OPTIONS.filter((o) => o.forms && o.values)) {
    const facts = o.values.map((value) => Object.keys(o.forms(value)).sort());
    for (const [i, value] of o.values.entries()) assert.deepEqual(facts[i], facts[0], `${o.key} = ${value}`);
  }
  // The article's own setting: ÷√dₖ, no τ, the max subtracted, along the rows.
  const forms = optionForms(optionDefaults());
  assert.equal(forms.divisor.text, '√dₖ');
  assert.equal(forms.tau, false);
  assert.equal(forms.shiftsMax, true);
  assert.equal(forms.explainsNonFiniteFrom, null);
  assert.equal(forms.byColumn, false);
  assert.equal(forms.rowsSumToOne, true);
});

test('the names follow the forms: S/√dₖ/τ with a temperature, E = exp(x) without the max', () => {
  const name = (id, over) => symbol(id, { ...defaultState(), ...over }).text;
  assert.equal(name('scaled', {}), 'S/√dₖ');
  assert.equal(name('scaled', { temperature: 2 }), 'S/√dₖ/τ');
  assert.equal(name('scaled', { scale: 'dk' }), 'S/dₖ');
  assert.equal(name('scaled', { scale: 'none', temperature: 0.5 }), 'S/τ');
  assert.equal(name('scaled', { scale: 'none' }), 'S');
  assert.equal(name('exps', {}), 'E = exp(S/√dₖ − max)');
  assert.equal(name('exps', { softmax: 'naive' }), 'E = exp(S/√dₖ)');
  assert.equal(optionForms({ ...defaultState(), axis: 'column' }).reduceWords, 'col');
});

test('the dimensions are read from the state whole: the map and stage keys, the exercise’s setting, a step’s matrices', () => {
  const article = defaultState();
  const key = (over) => JSON.stringify(figureLooks({ ...article, ...over }));
  // What changes which steps there are, or their figures' names and shapes, changes the key …
  for (const over of [
    { mode: 'x' },
    { n: 3 },
    { dk: 4 },
    { heads: 2 },
    { loss: 'mse' },
    { axis: 'column' },
    { temperature: 2 },
  ])
    assert.notEqual(key(over), key({}), JSON.stringify(over));
  // … and what does not, does not: the step shown, the digits, τ = 2 against τ = 3 (both name S/√dₖ/τ).
  for (const over of [{ step: 5 }, { digits: 6 }]) assert.equal(key(over), key({}), JSON.stringify(over));
  assert.equal(key({ temperature: 3 }), key({ temperature: 2 }));
  // The exercise is asked in the article's setting: every dimension and option back to its default, the sizes kept.
  const busy = { ...article, mode: 'x', heads: 2, loss: 'mse', axis: 'column', softmax: 'naive', temperature: 2, n: 3 };
  const setting = articleSetting(busy);
  assert.deepEqual(
    [setting.mode, setting.heads, setting.loss, setting.axis, setting.softmax, setting.temperature, setting.n],
    ['qkv', 1, 'none', 'row', 'stable', 1, 3],
  );
  // A step's matrices follow the state's own dimensions: the row max beside the shifted scores, with or without heads.
  assert.deepEqual(stepMatrices('max', article), ['scaled', 'rowMax', 'shifted']);
  assert.deepEqual(stepMatrices('max', { ...article, axis: 'column', heads: 2, dk: 4, dv: 4 }), [
    'scaled',
    'rowMax',
    'shifted',
  ]);
});
