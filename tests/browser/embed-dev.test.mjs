// Issue 18 item 6: the embed snippet copied from the development page (`npm start`, build/web
// behind scripts/serve.mjs) works on a blog. A sandboxed frame cannot load the development page's
// module scripts, so the snippet points at the self-contained build the same server serves at
// site/, and the dialog says what to deploy. A frame given the development page itself (an old
// snippet) says why it cannot start, in both languages, instead of "正在加载计算核心…" for ever.
// In Chromium and in Firefox.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../scripts/serve.mjs';
import { inEachEngine, matrixIn } from './drivers.mjs';
import { blogServer } from './static-server.mjs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh-CN.js';

let dev;
before(async () => {
  dev = await startServer({ root: 'build/web', mounts: { '/site/': 'dist/site' } });
});
after(async () => {
  await dev?.close();
});

/** Polls `fn` in `frame` until it returns true (frames of another origin included). */
async function untilIn(frame, fn, what, ms = 20000) {
  const end = Date.now() + ms;
  while (!(await frame.evaluate(fn).catch(() => false))) {
    if (Date.now() > end) assert.fail(what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

inEachEngine((name, driver) => {
  test(`${name}: the development page's snippet points at the built site and works on a blog`, async () => {
    const page = await driver.newPage();
    const blog = { stop: async () => {} };
    try {
      await page.goto(`${dev.url}#lang=en&step=8`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      await page.click('#embed-button');
      await page.waitForSelector('#embed-snippet');
      const snippet = await page.evaluate(() => document.getElementById('embed-snippet').value);
      assert.ok(snippet.includes(`src="${dev.url}site/index.html#step=8&amp;`), snippet);
      assert.ok(snippet.includes('&amp;embed=1"'), snippet);
      assert.ok(snippet.includes(`<script src="${dev.url}site/embed.js"`), snippet);
      assert.equal(
        await page.evaluate(() => document.getElementById('embed-deploy').textContent),
        en['embed.devServer'],
      );
      Object.assign(
        blog,
        await blogServer({
          'post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>post</title></head><body>${snippet}</body></html>`,
        }),
      );
      await page.goto(`${blog.url}post.html`);
      await page.until(() => document.querySelector('iframe').dataset.ready === 'true', undefined, 30000);
      const frame = page.frames().find((f) => f.url().startsWith(`${dev.url}site/`));
      assert.deepEqual(await matrixIn(frame, 'weights'), [
        ['0.6698', '0.3302'],
        ['0.3302', '0.6698'],
      ]);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await blog.stop();
    }
  });

  test(`${name}: a sandboxed frame of the development page itself says why it cannot start`, async () => {
    const blog = await blogServer({
      'post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>post</title></head><body><iframe src="${dev.url}#embed=1&step=8" sandbox="allow-scripts"
title="Attention Playground" style="width: 100%; height: 300px; border: 0"></iframe></body></html>`,
    });
    const page = await driver.newPage();
    page.expectFailures = true; // the module script is refused to an opaque origin: that is the case
    try {
      await page.goto(`${blog.url}post.html`);
      const frame = page.frames().find((f) => f.url().startsWith(dev.url));
      const said = `${zh['embed.frameFailed']} ${en['embed.frameFailed']}`;
      await untilIn(
        frame,
        () => document.getElementById('loading')?.textContent.includes('dist/site/index.html'),
        'the frame says why within seconds',
        10000,
      );
      assert.equal(await frame.evaluate(() => document.getElementById('loading').textContent), said);
    } finally {
      await page.closeAll();
      await blog.stop();
    }
  });
});
