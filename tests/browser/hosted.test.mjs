// The hosted build (dist/site) behind `python3 -m http.server`, in Chromium and in Firefox: the
// first visit caches the page; with the server gone (no network at all), a reload still computes
// everything and the "下载离线版" link still downloads the offline file, named attention-playground.html
// (Firefox: the link the page clicks, as its driver has no download event); a new build deployed to
// the same place replaces the old cache. The origin may be shared (issue 19): the worker answers
// only the build's own files, so a neighbour page and a data file with a query string or
// cache: 'no-store' come from the network, and two builds in two folders keep their caches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inEachEngine, matrixIn, CATCH_DOWNLOADS } from './drivers.mjs';
import { pythonServer } from './static-server.mjs';

const buildOf = (page) =>
  page.evaluate(() => document.querySelector('meta[name="attention-playground-build"]').content);
const cacheNames = (page) => page.evaluate(() => caches.keys());
/** The cache of `build` in the folder `scope` (a URL ending in '/'), as web/sw.js names it. */
const cacheOf = (scope, build) => `attention-playground ${scope} ${build}`;

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
function deployCopy(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-site-'))) {
  fs.cpSync('dist/site', dir, { recursive: true });
  const hourAgo = new Date(Date.now() - 3600e3);
  for (const file of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, file), hourAgo, hourAgo);
  return dir;
}

/** Opens `url` in `page` and waits until the service worker controls it and has cached the build. */
async function visit(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.until(() => Boolean(navigator.serviceWorker.controller), undefined, 20000);
  const build = await buildOf(page);
  await page.until(
    async (name) => (await caches.keys()).includes(name),
    cacheOf(new URL('./', url.replace(/#.*$/, '')).href, build),
    20000,
  );
  return build;
}

// What a page of the origin gets for `url` when it fetches it (`init`: fetch's options).
const fetchText = (page, url, init = {}) => page.evaluate(async ([u, i]) => (await fetch(u, i)).text(), [url, init]);

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
      assert.deepEqual(await cacheNames(page), [cacheOf(server.url, build)]);
      // The build's own files and nothing else, by exact URL.
      assert.deepEqual(
        await page.evaluate(
          async (name) => (await (await caches.open(name)).keys()).map((r) => r.url).sort(),
          cacheOf(server.url, build),
        ),
        ['attention-playground.html', 'embed.js', 'index.html'].map((file) => server.url + file),
      );
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
        async () => JSON.stringify(await caches.keys()) === `["attention-playground ${location.origin}/ nextbuild123"]`,
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
      assert.deepEqual(await cacheNames(page), [cacheOf(server.url, 'nextbuild123')], 'and the old cache is gone');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${name}: on an origin shared with a blog, only the build's own files come from the cache`, async () => {
    const dir = deployCopy();
    const write = (file, text) => fs.writeFileSync(path.join(dir, file), text); // now-dated, unlike the site
    write('blog.html', '<!doctype html><title>blog</title><link rel="icon" href="data:,"><p>post 1</p>');
    write('data.json', '{"v":1}');
    const server = await pythonServer(dir);
    const page = await driver.newPage();
    const post = () => page.evaluate(() => document.querySelector('p').textContent);
    try {
      await visit(page, `${server.url}index.html`);
      // The blog, a page of the worker's scope, and its data, each loaded once with the worker in control…
      await page.goto(`${server.url}blog.html`);
      assert.ok(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'in the scope');
      assert.equal(await post(), 'post 1');
      assert.equal(await fetchText(page, '/data.json?v=1'), '{"v":1}');
      // …then changed on the server: the blog's next post and the data's version 2.
      write('blog.html', '<!doctype html><title>blog</title><link rel="icon" href="data:,"><p>post 2</p>');
      write('data.json', '{"v":2}');
      assert.equal(await fetchText(page, '/data.json?v=2', { cache: 'no-store' }), '{"v":2}');
      assert.equal(await fetchText(page, '/data.json?v=1', { cache: 'no-cache' }), '{"v":2}');
      await page.reload();
      assert.equal(await post(), 'post 2', 'the blog is not frozen');
      // A file of the build with a query string is not the build's file: the network answers.
      assert.match(await fetchText(page, '/embed.js?v=2'), /./);
      const stored = await page.evaluate(async () => {
        const keys = await caches.keys();
        const urls = await Promise.all(keys.map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url)));
        return urls.flat().sort();
      });
      assert.deepEqual(
        stored,
        ['attention-playground.html', 'embed.js', 'index.html'].map((f) => server.url + f),
        'nothing but the build is stored',
      );
      // With the server gone, the blog fails as it would without a worker; the playground still opens.
      await server.stop();
      page.expectFailures = true;
      assert.equal(
        await page.evaluate(() =>
          fetch('blog.html').then(
            () => 'answered',
            () => 'failed',
          ),
        ),
        'failed',
      );
      assert.deepEqual(
        page.problems.splice(0).filter((p) => !/ERR_CONNECTION_REFUSED/.test(p)),
        [],
      );
      await page.goto(`${server.url}index.html#step=9`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.deepEqual(await matrixIn(page, 'output'), [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ]);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test(`${name}: two builds in two folders of one origin keep each other's caches; both reload offline`, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-origin-'));
    const [, b] = ['a', 'b'].map((folder) => deployCopy(path.join(root, folder)));
    redeploy(b, 'buildinb0001'); // another build, as a second copy deployed later would be
    const server = await pythonServer(root);
    const page = await driver.newPage();
    try {
      const buildA = await visit(page, `${server.url}a/index.html#step=9`);
      await visit(page, `${server.url}b/#step=9`);
      assert.notEqual(buildA, 'buildinb0001');
      assert.deepEqual(
        (await cacheNames(page)).sort(),
        [cacheOf(`${server.url}a/`, buildA), cacheOf(`${server.url}b/`, 'buildinb0001')].sort(),
      );
      await server.stop();
      page.expectFailures = true;
      for (const [url, build] of [
        [`${server.url}a/index.html#step=9`, buildA],
        [`${server.url}b/#step=9`, 'buildinb0001'],
      ]) {
        await page.goto(url);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
        assert.equal(await buildOf(page), build, url);
        assert.deepEqual(await matrixIn(page, 'output'), [
          ['6.698', '3.302'],
          ['3.302', '6.698'],
        ]);
      }
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test(`${name}: with the server gone, the "下载离线版" link still gets the offline file`, async () => {
    const dir = deployCopy();
    const server = await pythonServer(dir);
    const page = await driver.newPage(name === 'firefox' ? { initScript: CATCH_DOWNLOADS } : {});
    // The file as deployed here (a build meanwhile may replace dist/site's).
    const offlineFile = () => fs.readFileSync(path.join(dir, 'attention-playground.html'), 'utf8');
    try {
      const build = await visit(page, `${server.url}index.html`);
      await server.stop();
      page.expectFailures = true;
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      const href = await page.evaluate(() => {
        const link = document.getElementById('offline-link');
        return link.hidden ? null : link.href;
      });
      assert.equal(href, `${server.url}attention-playground.html`);
      if (name === 'chromium') {
        // The link itself downloads the file, whole.
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('#offline-link')]);
        assert.equal(await download.failure(), null);
        // Named as the link names it, although it comes from the cache through a blob: URL (whose
        // name would be a UUID).
        assert.equal(download.suggestedFilename(), 'attention-playground.html');
        // Saved where this process can read it: the run's shared Chromium keeps its downloads to itself.
        const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attn-download-')), download.suggestedFilename());
        await download.saveAs(saved);
        assert.ok(fs.readFileSync(saved, 'utf8') === offlineFile(), 'the deployed file, whole');
        fs.rmSync(path.dirname(saved), { recursive: true, force: true });
      } else {
        // Firefox: puppeteer-core's WebDriver BiDi page has no download event (its bidi/ code has
        // no word of downloads), so the download is caught where the page makes it — the <a download>
        // it clicks, whose name is the file's name the browser saves under — and its blob is read.
        await page.click('#offline-link');
        await page.until(() => window.downloads.length > 0);
        const saved = await page.evaluate(async () => {
          const { name, href, blob } = window.downloads[0];
          return { name, href, text: blob ? await blob.text() : '(not a blob of this page)' };
        });
        assert.match(saved.href, /^blob:/, 'from the cache, through a blob: URL (whose own name would be a UUID)');
        assert.equal(saved.name, 'attention-playground.html');
        assert.ok(saved.text === offlineFile(), 'the deployed file, whole');
      }
      // The file it points at opens and computes: the offline page (no service worker of its own).
      await page.goto(`${href}#step=9`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
      assert.equal(await buildOf(page), build);
      assert.equal(await page.evaluate(() => document.querySelector('meta[name="attention-playground-sw"]')), null);
      assert.deepEqual(await matrixIn(page, 'output'), [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ]);
      // (The offline file carries no icon, so that it makes no request at all; opened over http,
      // Firefox asks for /favicon.ico, which the file's CSP refuses: that report is not this test's.)
      assert.deepEqual(
        page.problems.filter((p) => !/favicon\.ico/.test(p)),
        [],
      );
    } finally {
      await page.closeAll();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
