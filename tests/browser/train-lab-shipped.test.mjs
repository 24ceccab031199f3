// The training lab in what ships, in Chromium and in Firefox: from the single offline file
// (file://, every network request blocked — and none attempted) it trains reverse in its Blob-URL
// worker under the file's Content-Security-Policy, the same run as a second visit; embedded in a
// blog post's <iframe sandbox="allow-scripts"> from the hosted build, it trains too, in a worker
// or, where none may start, in slices on the frame's thread, and says which.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { frameUntil, inEachEngine } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;
const RUN = 'view=train-lab&lang=en&traintask=reverse&trainseed=7&trainsteps=100';

let site, blog;
before(async () => {
  site = await pythonServer('dist/site');
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>看注意力学习</title></head>
<body style="max-width: 760px; margin: 1rem auto">
<iframe id="train" data-attention-playground src="${site.url}index.html#embed=1&${RUN}"
  sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 200px; border: 0"></iframe>
<script src="${site.url}embed.js"></script>
</body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await blog?.stop();
});

/** Plays the lab in `frame` to its 100th step; returns { mode, status, loss }. */
async function playToTheEnd(frame, until) {
  await until(() => document.getElementById('train-where')?.hidden === false, undefined, 60000);
  await frame.click('#train-play');
  await until(() => document.getElementById('train-status').dataset.steps === '100', undefined, 120000);
  return frame.evaluate(() => ({
    mode: document.getElementById('train-where').dataset.mode,
    status: document.getElementById('train-status').textContent,
  }));
}

inEachEngine((name, driver) => {
  test(`${name}: the offline file trains reverse in its Blob-URL worker, with no request at all, the same run twice`, async () => {
    const page = await driver.newPage({ blockNetwork: true });
    await page.goto(`${FILE}#${RUN}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    const first = await playToTheEnd(page, page.until);
    assert.equal(first.mode, 'worker');
    const loss = Number(/loss ([\d.e−-]+)/.exec(first.status)[1]);
    assert.ok(loss < 0.5, `loss after 100 steps: ${loss} (chance: ln 6 = 1.79)`);
    await page.click('#train-reset');
    await page.until(() => document.getElementById('train-status').dataset.steps === '0');
    const second = await playToTheEnd(page, page.until);
    assert.equal(second.status, first.status, 'the same seed, the same numbers');
    const others = page.requests.filter((url) => url.replace(/#.*$/, '') !== FILE && !url.startsWith('blob:'));
    assert.deepEqual(others, [], 'no request attempted');
    assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
    await page.closeAll();
  });

  test(`${name}: embedded in <iframe sandbox="allow-scripts">, the lab trains and says where`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 800 } });
    await page.goto(`${blog.url}post.html`);
    await page.until(() => document.getElementById('train').dataset.ready === 'true', undefined, 20000);
    const frame = await (await page.$('#train')).contentFrame();
    const run = await playToTheEnd(frame, frameUntil(name, frame));
    assert.ok(['worker', 'main-thread'].includes(run.mode), run.mode);
    assert.match(run.status, /^Step 100 \/ 100 · this batch’s loss /);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
