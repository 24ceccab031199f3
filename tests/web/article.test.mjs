// The article the page follows (web/src/article.js): which link it accepts (https: only), the hash
// field `article=` (refused with a notice naming the field, the rest of the link kept), the build
// setting (scripts/lib/page-parts.mjs), which section each step cites, and the NumPy export's
// header naming the article.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { isArticleUrl, buildArticleUrl, articleUrl, stepSource } from '../../web/src/article.js';
import { parseState, serializeState, defaultState, choosePreset } from '../../web/src/state.js';
import { STEP_LIST, stepById } from '../../web/src/steps.js';
import { translate } from '../../web/src/i18n/index.js';
import { articleMeta } from '../../scripts/lib/page-parts.mjs';
import { numpyScript } from '../../web/src/labs/export/numpy.js';
import { loadEngine } from '../../web/src/engine.js';
import { computeModel } from '../../web/src/model.js';

const POST = 'https://blog.example.org/2026/attention-3.html';

test('only an https: address may be the article link', () => {
  for (const url of [POST, 'https://例子.中国/第3篇?from=playground#top']) assert.ok(isArticleUrl(url), url);
  for (const url of [
    'http://blog.example.org/post', // not https
    'javascript:alert(1)',
    'data:text/html,<p>hi',
    '/post.html', // relative
    'https://user:secret@blog.example.org/', // credentials
    'https://blog.example.org/a b', // a space
    'https://blog.example.org/\nimport os', // a line break (would end the export's comment line)
    'https://',
    '',
    undefined,
  ])
    assert.ok(!isArticleUrl(url), String(url));
});

test('the hash field article= is kept in the link; any other address is refused by name, the rest kept', () => {
  const { state, notice } = parseState(`#step=3&preset=cat&article=${encodeURIComponent(POST)}`);
  assert.equal(notice, null);
  assert.equal(state.article, POST);
  assert.equal(articleUrl(state), POST);
  assert.equal(parseState(serializeState(state)).state.article, POST, 'a copied link keeps it');
  assert.ok(!serializeState(defaultState()).includes('article='), 'not written when none is set');

  const refused = parseState('#step=3&preset=cat&article=javascript:alert(1)');
  assert.deepEqual(refused.notice, { key: 'linkArticle', problem: 'notHttps', text: 'javascript:alert(1)' });
  assert.equal(refused.state.article, '');
  assert.equal(refused.state.step, 3, 'the rest of the link is read');
  assert.equal(refused.state.preset, 'cat');
  for (const lang of ['zh-CN', 'en'])
    assert.match(
      translate(lang, 'notice.linkArticle', { text: refused.notice.text }),
      /article.*javascript:alert\(1\)/,
    );
});

test('the link the build names (its <meta>) is used when the hash names none', () => {
  const page = (content) => ({
    querySelector: (selector) =>
      selector === 'meta[name="attention-playground-article"]' && content !== undefined ? { content } : null,
  });
  assert.equal(buildArticleUrl(page(POST)), POST);
  assert.equal(buildArticleUrl(page('http://insecure.example/')), null);
  assert.equal(buildArticleUrl(page(undefined)), null);
  assert.equal(buildArticleUrl(undefined), null, 'outside a page: none');
  assert.equal(articleUrl(defaultState(), page(POST)), POST);
  const own = { ...defaultState(), article: 'https://other.example/post' };
  assert.equal(articleUrl(own, page(POST)), 'https://other.example/post', "the link's own wins");
});

test("the build setting ATTENTION_PLAYGROUND_ARTICLE becomes the page's <meta>, or stops the build", () => {
  assert.equal(articleMeta(''), '');
  assert.equal(articleMeta(undefined), '');
  assert.equal(
    articleMeta('https://blog.example.org/p?a=1&b="2"'),
    '<meta name="attention-playground-article" content="https://blog.example.org/p?a=1&amp;b=&quot;2&quot;">',
  );
  assert.throws(
    () => articleMeta('http://blog.example.org/'),
    /ATTENTION_PLAYGROUND_ARTICLE must be an https: address/,
  );
});

test('each step cites its section of the article; the heads cite the next article, the backward pass says it is not in it', () => {
  const zh = (source) =>
    translate('zh-CN', source.key, {
      ...source.params,
      article: translate('zh-CN', 'article.short'),
    });
  assert.equal(zh(stepSource(stepById('x'))), '原文:《Transformer 由浅入深》第 3 篇第 1 节');
  assert.equal(zh(stepSource(stepById('scores'))), '原文:《Transformer 由浅入深》第 3 篇第 3 节');
  assert.equal(zh(stepSource(stepById('scale'))), '原文:《Transformer 由浅入深》第 3 篇第 4 节');
  assert.equal(zh(stepSource(stepById('weights'))), '原文:《Transformer 由浅入深》第 3 篇第 5 节');
  assert.equal(zh(stepSource(stepById('output'))), '原文:《Transformer 由浅入深》第 3 篇第 6 节');
  assert.equal(zh(stepSource(stepById('concat'))), '第 4 篇:多头注意力');
  assert.equal(zh(stepSource(stepById('outproj'))), '第 4 篇:多头注意力');
  assert.match(zh(stepSource(stepById('dout'))), /^反向传播\(原文没有这一步\)/);
  for (const step of STEP_LIST) assert.ok(stepSource(step), `${step.id} cites its source`);
});

test('the NumPy export names the article in its header, with its link when one is set', async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  const engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
  const state = choosePreset(defaultState(), 'article');
  const header = (s) => numpyScript(computeModel(engine, s), s).split('\n').slice(0, 3);
  assert.deepEqual(header(state)[1], '# 原文:《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」');
  assert.deepEqual(
    header({ ...state, article: POST })[1],
    `# 原文:《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」 ${POST}`,
  );
  assert.match(header({ ...state, lang: 'en' })[1], /^# The article: part 3 of the series 《Transformer 由浅入深》/);
});
