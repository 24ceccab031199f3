// The stepper loads first: the labs' code (with the labs' worker) and the exports' (NumPy, JSON,
// CSV, PNG, the handout) are loaded, parsed and run only when the reader opens them
// (web/src/parts.js). In Chromium and in Firefox, in the three ways the page ships:
//   - the offline file (file://, every request blocked) and the hosted site carry each part as
//     text in a <script type="text/plain" id="part-NAME"> that is run when needed: a part once run
//     stands in the page's registry (window.__attentionPlaygroundParts.parts), the marker read here;
//   - the development page loads each part as a module file of its own (build/web/parts/):
//     the marker there is the request for that file.
// Each page first shows the worked example's output (AV ≈ [[6.7, 3.3], [3.3, 6.7]]), then opens a
// lab (the scale lab), then prints the handout. And a blog's sandboxed frame opens the scale lab.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { inEachEngine, matrixIn, frameUntil } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';
import { startServer } from '../../scripts/serve.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;
const OUTPUT = [
  ['6.698', '3.302'],
  ['3.302', '6.698'],
];

let site, dev, blog;
before(async () => {
  site = await pythonServer('dist/site');
  dev = await startServer({ root: 'build/web' });
  // A blog post embedding the hosted site's scale lab in an opaque-origin frame.
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Why divide by √d_k</title></head>
<body><iframe id="lab" sandbox="allow-scripts" src="${site.url}index.html#embed=1&view=scale-lab"
  title="Attention Playground" style="width: 100%; height: 600px; border: 0"></iframe></body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await dev?.close();
  await blog?.stop();
});

/** The parts that have run on the page (the self-contained builds' registry). */
const partsRun = (page) =>
  page.evaluate(() =>
    Object.keys(window.__attentionPlaygroundParts?.parts ?? {})
      .sort()
      .join(','),
  );

/** The development page's part files requested so far, by name: "export-files", "lab-views". */
const partsRequested = (page) =>
  [
    ...new Set(
      page.requests.map((url) => /\/parts\/(lab-views|export-files)-[\w]+\.js$/.exec(url)?.[1]).filter(Boolean),
    ),
  ]
    .sort()
    .join(',');

/** A page whose print dialog is replaced by a counter (headless has none). */
async function openAt(driver, url, options = {}) {
  const page = await driver.newPage({
    ...options,
    initScript: () => {
      window.print = () => {
        window.printed = (window.printed ?? 0) + 1;
      };
    },
  });
  await page.goto(`${url}#step=9`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  assert.deepEqual(await matrixIn(page, 'output'), OUTPUT, "the worked example's AV");
  return page;
}

/** Opens the scale lab from the view switch and waits for its chart's control. */
async function openScaleLab(page) {
  await page.click('#views a[data-view="scale-lab"]');
  await page.until(() => document.querySelector('#lab-body')?.children.length > 0, undefined, 30000);
}

/** Prints the handout from its button and waits until it has the nine steps. */
async function printHandout(page) {
  await page.click('#print-handout');
  await page.until(() => window.printed === 1 && document.querySelectorAll('#handout .handout-step').length === 9);
}

inEachEngine((name, driver) => {
  for (const [way, url, options] of [
    ['the offline file', FILE, { blockNetwork: true }],
    ['the hosted site', () => `${site.url}index.html`, {}],
  ])
    test(`${name}: ${way} runs no lab or export code until the reader opens one`, async () => {
      const page = await openAt(driver, typeof url === 'function' ? url() : url, options);
      assert.equal(
        await page.evaluate(() =>
          [...document.querySelectorAll('script[id^="part-"]')].map((s) => `${s.id}:${s.type}`).join(' '),
        ),
        'part-labs:text/plain part-exports:text/plain',
        'the parts travel as text the browser does not run',
      );
      assert.equal(await partsRun(page), '', 'after the first number, no part has run');
      await openScaleLab(page);
      assert.equal(await partsRun(page), 'labs', 'the labs run when a lab opens; the exports still not');
      await page.click('#views a[data-view="steps"]');
      await page.waitForSelector('#print-handout');
      await printHandout(page);
      assert.equal(await partsRun(page), 'exports,labs');
      if (options.blockNetwork)
        assert.deepEqual(
          page.requests.filter((u) => u.replace(/#.*$/, '') !== FILE),
          [],
          'no request',
        );
      assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
      await page.closeAll();
    });

  test(`${name}: in a blog's sandboxed frame (an opaque origin), the hosted site runs its labs' code and opens the lab`, async () => {
    const page = await driver.newPage();
    await page.goto(`${blog.url}post.html`);
    const frame = await (await page.$('#lab')).contentFrame();
    await frameUntil(name, frame)(() => document.querySelector('#lab-body')?.children.length > 0, undefined, 30000);
    assert.deepEqual(
      await frame.evaluate(() => [window.origin, Object.keys(window.__attentionPlaygroundParts.parts).join(',')]),
      ['null', 'labs'],
    );
    assert.match(await frame.evaluate(() => document.getElementById('lab-body').textContent), /√d/);
    assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
    await page.closeAll();
  });

  test(`${name}: the development page requests the labs' and the exports' modules only when they are opened`, async () => {
    const page = await openAt(driver, `${dev.url}index.html`);
    assert.equal(partsRequested(page), '', 'the first number comes without them');
    await openScaleLab(page);
    assert.equal(partsRequested(page), 'lab-views');
    await page.click('#views a[data-view="steps"]');
    await page.waitForSelector('#print-handout');
    await printHandout(page);
    assert.equal(partsRequested(page), 'export-files,lab-views');
    assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
    await page.closeAll();
  });
});
