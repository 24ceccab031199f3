// The page names its article (web/src/article.js) wherever it says 原文: beside each step's title
// with its section, in the footer, in the printed handout and in the embed dialog's fields; links it
// when a link is set (hash field article=, https: only) and otherwise names it without a link; and
// its last step offers the series' next article, 第 4 篇:多头注意力, which opens the heads.
// Chromium, on the development page (the shipped files' embed footer: embed-reader.test.mjs);
// the embed dialog's step range (issue 29, item 5) in Chromium and Firefox, on the hosted build.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserForFile, stepInUrl } from './helpers.mjs';
import { inEachEngine } from './drivers.mjs';
import { pythonServer } from './static-server.mjs';

const b = browserForFile();
const NAME = '《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」';
const POST = 'https://blog.example.org/2026/attention-3.html';
const noProblems = (page) => assert.deepEqual(page.problems, [], 'no console errors, page errors or failed requests');

test('without a link set, each step and the footer name the article and its section, and link nowhere', async () => {
  const page = await b.open('#step=3');
  assert.equal(await page.textContent('#article-credit'), `原文:${NAME} 第 1–8 节`);
  assert.equal(await page.locator('#article-credit a').count(), 0, 'no dead link');
  assert.equal(await page.textContent('.step-source'), '原文:《Transformer 由浅入深》第 3 篇第 3 节');
  assert.equal(await page.locator('.step-source a').count(), 0);
  await page.keyboard.press('ArrowRight');
  await stepInUrl(page, 4);
  assert.equal(await page.textContent('.step-source'), '原文:《Transformer 由浅入深》第 3 篇第 4 节');
  await page.click('#lang-switch');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(
    await page.textContent('#article-credit'),
    /^The article: part 3 of the series 《Transformer 由浅入深》/,
  );
  assert.equal(await page.textContent('.step-source'), 'The article: 《Transformer 由浅入深》 part 3, §4');
  noProblems(page);
  await page.context().close();
});

test('article=https://… links each step, the footer and the handout to the post, and stays in the link', async () => {
  const page = await b.open(`#step=6&article=${encodeURIComponent(POST)}`);
  assert.equal(await page.getAttribute('#article-credit a', 'href'), POST);
  assert.equal(await page.getAttribute('.step-source a', 'href'), POST);
  assert.equal(await page.textContent('.step-source a'), '原文:《Transformer 由浅入深》第 3 篇第 5 节');
  await page.keyboard.press('ArrowRight');
  await stepInUrl(page, 7);
  assert.ok((await page.evaluate(() => location.hash)).includes(`article=${encodeURIComponent(POST)}`));
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await page.waitForSelector('#handout .handout-source a', { state: 'attached' });
  assert.equal(await page.getAttribute('#handout .handout-source a', 'href'), POST);
  assert.equal(await page.textContent('#handout .handout-source cite'), NAME);
  noProblems(page);
  await page.context().close();
});

test('an article= that is not https: is refused with a notice naming the field; the rest of the link opens', async () => {
  const page = await b.open('#step=3&preset=cat&article=javascript:alert(1)');
  assert.equal(
    await page.textContent('#notice'),
    '链接里的 article 字段("javascript:alert(1)")不是 https: 网址,已忽略;链接的其余部分照常打开。',
  );
  assert.equal(await page.inputValue('#preset'), 'cat', 'the example of the link');
  assert.match(await page.textContent('#step-title'), /第 3 \/ 9 步/);
  assert.equal(await page.locator('#article-credit a').count(), 0, 'no link to what was refused');
  noProblems(page);
  await page.context().close();
});

test('the last step offers 第 4 篇:多头注意力, which opens "它 是 猫" with two heads at their concat', async () => {
  const page = await b.open('#step=9');
  const offer = page.locator('.next-article');
  assert.match(await offer.textContent(), /^第 4 篇:多头注意力/);
  await page.click('.next-article-link');
  await page.waitForFunction(() => location.hash.includes('preset=heads'));
  await page.waitForFunction(() => /第 10 \/ 11 步/.test(document.getElementById('step-title').textContent));
  assert.equal(await page.textContent('.step-source'), '第 4 篇:多头注意力');
  assert.ok(await page.isVisible('.heads-overview'), "every head's A side by side");
  assert.equal(await page.locator('.next-article').count(), 0, 'with heads, nothing more is offered');
  noProblems(page);
  await page.context().close();
});

// The embed dialog's step range, in Chromium and Firefox: the hosted build (dist/site, copied, as
// a build meanwhile may replace it) behind python's http.server, where the dialog gives its snippet
// (the offline file, a file: page, has none to give).
inEachEngine((name, driver) => {
  let site;
  let server;
  before(async () => {
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-site-'));
    fs.cpSync('dist/site', site, { recursive: true });
    server = await pythonServer(site);
  });
  after(async () => {
    await server?.stop();
    if (site) fs.rmSync(site, { recursive: true, force: true });
  });

  test(`${name}: the embed dialog's step range is the state's, as the step counter says it: 1…9, 1…11 with heads, more with a loss`, async () => {
    const totals = [];
    for (const hash of [
      '#step=2',
      '#step=2&preset=heads',
      '#step=2&preset=heads&loss=given&dout=1,0,0,0;0,0,0,0;0,0,0,0',
    ]) {
      const page = await driver.newPage();
      await page.goto(`${server.url}index.html${hash}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
      const title = await page.evaluate(() => document.getElementById('step-title').textContent);
      const total = Number(/第 2 \/ (\d+) 步/.exec(title)?.[1]);
      totals.push(total);
      await page.click('#embed-button');
      await page.until(() => Boolean(document.getElementById('embed-fields')?.textContent));
      const fields = await page.evaluate(() => document.getElementById('embed-fields').textContent);
      assert.match(fields, new RegExp(`step=1…${total} 选步骤`), hash);
      assert.match(fields, /article=https:\/\/…/);
      // (Firefox asks an http page for /favicon.ico, which the build does not ship: not this test's.)
      assert.deepEqual(
        page.problems.filter((p) => !/favicon\.ico/.test(p)),
        [],
        hash,
      );
      await page.closeAll();
    }
    assert.deepEqual(totals.slice(0, 2), [9, 11]);
    assert.ok(totals[2] > 11, `with a loss: ${totals[2]} steps`);
  });
});
