// Multi-head attention in what ships, in Chromium and in Firefox: the preset "它 是 猫" with 2
// heads on the hosted site (dist/site behind python3 -m http.server) — each head's weights as the
// float64 fixture has them, to 4 digits; the concat and ·W_O steps; the popover's term-by-term
// sum O_ij = Σ_t concat_it · (W_O)_tj; choosing a head in the overview; the printed handout with
// each head's steps; axe; 375 px without a sideways scroll — and a heads link in the offline file.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { inChromium, matrixIn, setField, stageText, stepInUrl } from './drivers.mjs';
import { pythonServer } from './static-server.mjs';
import { axeViolations } from './helpers.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;
const HEADS = '#preset=heads&heads=2&head=1';

// The fixture's weights (tests/fixtures/multi-head.json) as the page writes them, 4 significant digits.
const HEAD_1 = [
  ['0.3333', '0.3333', '0.3333'],
  ['0.9411', '0.05562', '0.003288'],
  ['0.05562', '0.9411', '0.003288'],
];
const HEAD_2 = [
  ['0.9411', '0.05562', '0.003288'],
  ['0.05562', '0.9411', '0.003288'],
  ['0.0002064', '0.0002064', '0.9996'],
];

let site;
before(async () => {
  site = await pythonServer('dist/site');
});
after(async () => {
  await site?.stop();
});

const ready = (page) => page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
const title = (page) => page.evaluate(() => document.getElementById('step-title').textContent);

inChromium((name, driver) => {
  test(`${name}: the preset shows head 1, then head 2, with the fixture's weights; concat and ·W_O follow AV`, async () => {
    const page = await driver.newPage();
    await page.goto(`${site.url}index.html${HEADS}&step=8`);
    await ready(page);
    assert.match(await title(page), /第 8 \/ 11 步/);
    assert.deepEqual(await matrixIn(page, 'weights'), HEAD_1, 'head 1: 是 → 它, 猫 → 是 (the previous word)');
    assert.match(await stageText(page), /正在看头 1 \/ 2/);

    // The projections: W_Q's and Q's columns in the heads' blocks, named and coloured.
    await page.click('.map-node[data-step="2"]');
    await page.until(() => document.querySelector('figure[data-name="qAll"]'));
    assert.deepEqual(
      await page.evaluate(() =>
        [...document.querySelectorAll('figure[data-name="wq"] th.head-block')].map((th) => [
          th.textContent,
          th.colSpan,
        ]),
      ),
      [
        ['头 1', 2],
        ['头 2', 2],
      ],
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the projections in blocks');
    await page.click('.map-node[data-step="8"]');
    await page.until(() => document.querySelector('figure[data-name="weights"]'));

    await setField(page, '#head', '2');
    await page.until(() => /head=2/.test(location.hash));
    assert.deepEqual(await matrixIn(page, 'weights'), HEAD_2, 'head 2: each word → itself');

    await page.click('.map-node[data-step="10"]');
    await page.until(() => document.querySelector('figure[data-name="concat"]'));
    assert.match(await title(page), /拼接/);
    assert.deepEqual((await matrixIn(page, 'concat'))[0], ['0.6667', '0.6667', '0.9444', '0.05891']);
    assert.deepEqual(
      await page.evaluate(() =>
        [...document.querySelectorAll('figure[data-name="concat"] th.head-block')].map((th) => th.textContent),
      ),
      ['头 1', '头 2'],
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the concat step and its overview');

    await page.click('#next');
    await page.until(() => document.querySelector('figure[data-name="projected"]'));
    await stepInUrl(page, 11);
    assert.deepEqual((await matrixIn(page, 'projected'))[0], ['0.8055', '0.3628', '-0.1389', '0.3039']);
    assert.match(await stageText(page), /264 次乘加[^]*264 次/, "the core's counts: the same multiply-adds");
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: a number of concat·W_O expands term by term: 0.6667·0.5000 + 0 + 0.9444·0.5000 + 0 = 0.8055`, async () => {
    const page = await driver.newPage();
    await page.goto(`${site.url}index.html${HEADS}&step=11`);
    await ready(page);
    await page.click('figure[data-name="projected"] td.pick[data-i="0"][data-j="0"]');
    await page.until(() => !document.getElementById('cell-explain').hidden);
    const lines = await page.evaluate(() =>
      [...document.querySelectorAll('#cell-explain ol.expansion > li .line')].map((line) =>
        line.textContent.replace(/\s+/g, '').replace(/\u2212/g, '-'),
      ),
    );
    assert.equal(lines.length, 1);
    assert.match(lines[0], /0\.6667·0\.5000\+0\.6667·0\+0\.9444·0\.5000\+0\.05891·0=0\.8055$/);
    // What it is made of: row 1 of concat and column 1 of W_O, marked.
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('figure[data-name="concat"] tr.hl-row').length),
      1,
    );
    assert.equal(await page.evaluate(() => document.querySelectorAll('figure[data-name="wo"] td.hl-col').length), 4);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: choosing head 1 in the overview opens its own steps at its scores`, async () => {
    const page = await driver.newPage();
    await page.goto(`${site.url}index.html#preset=heads&heads=2&head=2&step=10&lang=en`);
    await ready(page);
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('.head-card').length),
      2,
      "every head's A side by side",
    );
    const lines = await page.evaluate(() =>
      [...document.querySelectorAll('.heads-lines .head-line')].map((g) => g.getAttribute('aria-label')),
    );
    assert.ok(lines.includes('head 1: is → it, weight 0.9411'), lines.join(' | '));
    assert.ok(lines.includes('head 2: cat → cat, weight 0.9996'), lines.join(' | '));
    await page.click('#head-open-1');
    await page.until(() => /head=1/.test(location.hash) && /step=3/.test(location.hash));
    assert.match(await title(page), /Step 3 of 11/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'step-title');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the printed handout has each head's steps; at 375 px nothing scrolls sideways`, async () => {
    const page = await driver.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(`${site.url}index.html${HEADS}&step=10`);
    await ready(page);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'no horizontal overflow at 375 px',
    );
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    const printed = await page.evaluate(() =>
      [...document.querySelectorAll('#handout .handout-step')].map((s) => `${s.dataset.head ?? '-'}:${s.dataset.step}`),
    );
    for (const head of ['1', '2'])
      for (const step of ['scores', 'weights', 'output'])
        assert.ok(printed.includes(`${head}:${step}`), printed.join(' '));
    assert.ok(printed.includes('-:concat') && printed.includes('-:outproj'), printed.join(' '));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: 3 heads cannot split d_k = 4: the core's refusal is worded at the heads field, and 4 heads of d_k = 1 work`, async () => {
    const page = await driver.newPage();
    await page.goto(`${site.url}index.html${HEADS}&step=3`);
    await ready(page);
    await setField(page, '#heads', '3');
    await page.until(() => document.getElementById('err-heads').textContent !== '');
    assert.match(await page.evaluate(() => document.getElementById('err-heads').textContent), /W_Q 有 4 列,3 个头/);
    assert.match(await page.evaluate(() => location.hash), /heads=2/, 'the last good state stays');
    await setField(page, '#heads', '4');
    await page.until(() => /heads=4/.test(location.hash));
    assert.equal(await page.evaluate(() => document.getElementById('err-heads').textContent), '');
    assert.equal((await matrixIn(page, 'q'))[0].length, 1, "one head's Q has d_k = 4 / 4 = 1 column");
    assert.match(await title(page), /第 3 \/ 11 步/);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the offline file opens a heads link with no request at all`, async () => {
    const page = await driver.newPage({ blockNetwork: true });
    await page.goto(`${FILE}${HEADS.replace('head=1', 'head=2')}&step=8`);
    await ready(page);
    assert.deepEqual(await matrixIn(page, 'weights'), HEAD_2);
    const others = page.requests.filter((url) => url.replace(/#.*$/, '') !== FILE && !url.startsWith('blob:'));
    assert.deepEqual(others, [], 'no request besides the file itself');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
