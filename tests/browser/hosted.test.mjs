// The hosted build (dist/site) behind `python3 -m http.server`, in Chromium and in Firefox: the
// first visit caches the page; with the server gone (no network at all), a reload still computes
// everything; a new build deployed to the same place replaces the old cache.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inEachEngine, matrixIn } from './drivers.mjs';
import { pythonServer } from './static-server.mjs';

const buildOf = (page) =>
  page.evaluate(() => document.querySelector('meta[name="attention-playground-build"]').content);
const cacheNames = (page) => page.evaluate(() => caches.keys());

/** Polls `fn` in the page until it returns true; on timeout fails with what `report` says then. */
async function waitIn(page, fn, report, what, ms = 20000) {
  const until = Date.now() + ms;
  while (!(await page.evaluate(fn))) {
    if (Date.now() > until) assert.fail(`${what}: ${JSON.stringify(await page.evaluate(report))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const swState = async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  return {
    caches: await caches.keys(),
    controller: Boolean(navigator.serviceWorker.controller),
    installing: reg?.installing?.state,
    waiting: reg?.waiting?.state,
    active: reg?.active?.state,
    notice: document.getElementById('notice').textContent,
  };
};

/** Waits until the service worker controls the page and has cached it. */
async function cached(page) {
  await page.until(() => Boolean(navigator.serviceWorker.controller), undefined, 20000);
  await page.until(async () => (await caches.keys()).length === 1, undefined, 20000);
}

/**
 * A copy of dist/site to deploy and redeploy, dated an hour ago: the browser revalidates sw.js with
 * If-Modified-Since, whose resolution is one second, so a redeployment within the same second as
 * the first copy would be answered "304 Not Modified" (as it would on a real host).
 */
function deployCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-site-'));
  fs.cpSync('dist/site', dir, { recursive: true });
  const hourAgo = new Date(Date.now() - 3600e3);
  for (const file of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, file), hourAgo, hourAgo);
  return dir;
}

/** "A new build": the same site with another build id, as a rebuild after any change gets. */
function redeploy(dir, id) {
  const old = /<meta name="attention-playground-build" content="([A-Za-z0-9]+)">/.exec(
    fs.readFileSync(path.join(dir, 'index.html'), 'utf8'),
  )[1];
  for (const file of ['index.html', 'sw.js']) {
    const p = path.join(dir, file);
    fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replaceAll(old, id));
  }
}

inEachEngine((name, driver) => {
  test(`${name}: after one visit, a reload with the server gone still computes every step`, async () => {
    const dir = deployCopy();
    const server = await pythonServer(dir);
    const page = await driver.newPage();
    try {
      await page.goto(`${server.url}index.html#step=9`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      await cached(page);
      const build = await buildOf(page);
      assert.deepEqual(await cacheNames(page), [`attention-playground-${build}`]);
      await server.stop(); // the network is gone: nothing answers on that port any more
      page.expectFailures = true;
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.deepEqual(await matrixIn(page, 'output'), [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ]);
      await page.click('#lang-switch');
      await page.click('.step-link[data-step="4"]');
      assert.deepEqual(await matrixIn(page, 'scaled'), [
        ['0.7071', '0'],
        ['0', '0.7071'],
      ]);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${name}: a new build replaces the old cache`, async () => {
    const dir = deployCopy();
    let server = await pythonServer(dir);
    const page = await driver.newPage();
    try {
      await page.goto(`${server.url}index.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      await cached(page);
      const first = await buildOf(page);
      await server.stop();
      redeploy(dir, 'nextbuild123');
      server = await pythonServer(dir, server.port); // the same origin, new files
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
      await waitIn(
        page,
        async () => JSON.stringify(await caches.keys()) === '["attention-playground-nextbuild123"]',
        swState,
        'the new cache',
      );
      await waitIn(
        page,
        () => /新版本/.test(document.getElementById('notice').textContent),
        swState,
        'the notice of the update',
      );
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.notEqual(first, 'nextbuild123');
      assert.equal(await buildOf(page), 'nextbuild123', 'the reload shows the new build');
      assert.deepEqual(await cacheNames(page), ['attention-playground-nextbuild123'], 'and the old cache is gone');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
