// Every string exists in both languages, with the same {placeholders}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { translate, DICTIONARIES } from '../../web/src/i18n/index.js';
import { STEPS } from '../../web/src/state.js';
import { PRESETS } from '../../web/src/presets.js';

// The merged dictionaries: the stepper's words and every lab's.
const { 'zh-CN': zh, en } = DICTIONARIES;
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('zh-CN and en have the same keys', () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort());
});

test('each key has the same placeholders in both languages, and no empty text', () => {
  for (const key of Object.keys(zh)) {
    assert.deepEqual(placeholders(en[key]), placeholders(zh[key]), key);
    assert.ok(zh[key].trim() && en[key].trim(), key);
  }
});

test('every step and preset has its texts', () => {
  for (const id of STEPS)
    for (const part of ['title', 'text']) assert.ok(`step.${id}.${part}` in zh, `step.${id}.${part}`);
  for (const p of [...PRESETS, 'custom']) assert.ok(`preset.${p}` in zh, p);
});

test('the English dictionary is English and the Chinese one Chinese', () => {
  const han = /[\u4e00-\u9fff]/;
  // the example's own words; the switch names the other language; the article's own title (article.js)
  const allowed = new Set(['preset.cat', 'lang.switch', 'article.name', 'article.short']);
  for (const [key, text] of Object.entries(en)) if (!allowed.has(key)) assert.doesNotMatch(text, han, key);
  assert.ok(Object.values(zh).filter((text) => han.test(text)).length > Object.keys(zh).length * 0.9);
});

test('every key the sources use exists', () => {
  const sources = fs
    .readdirSync(new URL('../../web/src/views/', import.meta.url))
    .map((f) => `views/${f}`)
    .concat(['main.js']);
  for (const file of sources) {
    const text = fs.readFileSync(new URL(`../../web/src/${file}`, import.meta.url), 'utf8');
    for (const [, key] of text.matchAll(/\bt\('([\w.]+)'/g)) assert.ok(key in zh, `${file}: ${key}`);
  }
});

test('translate fills placeholders and falls back to the key', () => {
  assert.equal(translate('en', 'nav.position', { step: 3, total: 9 }), 'Step 3 of 9');
  assert.equal(translate('zh-CN', 'nav.position', { step: 3, total: 9 }), '第 3 / 9 步');
  assert.equal(translate('en', 'no.such.key'), 'no.such.key');
});

test('keys and placeholders are own properties only: prototype names are not words', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    assert.equal(translate('en', name), name, `key ${name}`);
    assert.equal(
      translate('toString', 'nav.next'),
      translate('zh-CN', 'nav.next'),
      'an unknown language falls back to zh-CN',
    );
    assert.equal(translate('en', `a {${name}} b`), `a {${name}} b`, `placeholder {${name}}`);
  }
});
