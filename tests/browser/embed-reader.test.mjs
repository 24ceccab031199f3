// What a reader of a blog with embeds meets, in the shipped files (dist/site behind a server, the
// blog on another origin with embed.js), in Chromium and in Firefox: each embed's footer names the
// article, linked to the post its address names (article=, opened by the host: a sandboxed frame
// cannot open a tab) and otherwise unlinked; and embed.js hears each frame's `ready` exactly once.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';

const NAME = '《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」';
const POST = 'https://blog.example.org/2026/attention-3.html';

let site, blog;
before(async () => {
  site = await pythonServer('dist/site');
  const frame = (id, hash) => `<iframe id="${id}" data-attention-playground src="${site.url}index.html#${hash}"
  sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 300px; border: 0"></iframe>`;
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Attention, part 3</title></head>
<body style="max-width: 760px; margin: 1rem auto">
<script>
  // What each frame posts, by the frame's id; and what the host was asked to open (not opened here).
  window.received = [];
  addEventListener('message', (e) => {
    const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
    if (frame && e.data && e.data.type) received.push({ frame: frame.id, type: e.data.type });
  });
  window.open = (url) => { window.opened = url; };
  // What embed.js hands the blog: each message it takes from a frame, dispatched on that <iframe>.
  window.readyEvents = {};
  document.addEventListener('attention-playground:ready', (e) => {
    readyEvents[e.target.id] = (readyEvents[e.target.id] || 0) + 1;
  }, true);
</script>
${frame('linked', `embed=1&step=9&article=${encodeURIComponent(POST)}`)}
${frame('named', 'embed=1&step=3')}
<script src="${site.url}embed.js"></script>
</body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await blog?.stop();
});

/** The frame's document once it has said it is ready. */
async function readyFrame(page, id) {
  await page.until((frameId) => document.getElementById(frameId).dataset.ready === 'true', id, 30000);
  return (await page.$(`#${id}`)).contentFrame();
}

/**
 * Waits until `frame` has handled every message posted to it so far (the host's answers among
 * them), then until the host has every message the frame posted meanwhile: the frame posts to
 * itself (its messages are handled in the order they were posted), then a marker to the host.
 */
async function settled(page, frame, id) {
  await frame.evaluate(
    () =>
      new Promise((resolve) => {
        const mark = `settled-${Math.random()}`;
        addEventListener('message', function heard(event) {
          if (event.data !== mark) return;
          removeEventListener('message', heard);
          parent.postMessage({ type: mark }, '*');
          resolve();
        });
        postMessage(mark, '*');
      }),
  );
  await page.until(
    (frameId) => window.received.some((m) => m.frame === frameId && m.type.startsWith('settled-')),
    id,
    10000,
  );
}

inEachEngine((name, driver) => {
  test(`${name}: an embed's footer names the article, linked only when its address sets article=`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 800 } });
    try {
      await page.goto(`${blog.url}post.html`);
      const linked = await readyFrame(page, 'linked');
      const named = await readyFrame(page, 'named');
      const footer = (frame) =>
        frame.evaluate(() => {
          const credit = document.getElementById('embed-article');
          const link = credit.querySelector('a');
          return {
            text: credit.textContent,
            href: link?.href ?? null,
            shown: getComputedStyle(credit.parentElement).display !== 'none' && !credit.parentElement.hidden,
          };
        });
      assert.deepEqual(await footer(linked), { text: `原文:${NAME}`, href: POST, shown: true });
      assert.deepEqual(await footer(named), { text: `原文:${NAME}`, href: null, shown: true });
      // The host opens the article the frame's own address names (the frame cannot open a tab).
      await linked.evaluate(() => document.querySelector('#embed-article a').click());
      await page.until((url) => window.opened === url, POST, 10000);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });

  test(`${name}: embed.js hears each frame's ready once`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 800 } });
    try {
      await page.goto(`${blog.url}post.html`);
      for (const id of ['linked', 'named']) {
        const frame = await readyFrame(page, id);
        await settled(page, frame, id);
        // The host hears ready once, whichever loaded first: a frame ready before embed.js posts
        // ready once more when embed.js says it listens (so this page's own listener, there from the
        // start, may see two), and never again once embed.js has heard it.
        const readies = await page.evaluate((frameId) => window.readyEvents[frameId] ?? 0, id);
        assert.equal(readies, 1, `embed.js handed on #${id}'s ready ${readies} times`);
      }
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });
});
