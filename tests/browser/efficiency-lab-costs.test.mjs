// The efficiency lab's shared-heads, linear-attention and costs panels (view=efficiency-lab,
// web/src/features/efficiency-lab/) in Chromium on the development page: each panel draws the
// core's numbers for the article's worked example Q = K = I₂, V = 10·I₂ — grouped attention equal
// to the heads with their group's K, V repeated, the KV cache ÷ h/g, a g that does not divide h
// refused beside its field; linear attention's two orders equal, their multiply-adds, the KL
// divergence from softmax's weights — and a short cost run finishes with every slope and the
// crossover on the page. In Chromium and Firefox, what differs between engines: the run in the
// labs' Blob-URL worker from the single offline file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, axeViolations } from './helpers.mjs';
import { inEachEngine, openOfflineFile, setField, OFFLINE_FILE } from './drivers.mjs';
import { SHORT_COST_PLAN } from '../../web/src/features/efficiency-lab/efficiency-costs.js';

const b = browserForFile();

const e = Math.E;
/** The data-* numbers of the agreement line inside `selector` (efficiency-parts.js agreement). */
const agreementOf = (page, selector) =>
  page.$eval(`${selector} .eff-agreement`, (p) => ({
    equal: p.classList.contains('equal'),
    largest: Number(p.dataset.largest),
    differing: Number(p.dataset.differing),
  }));

const SERIES = ['cached', 'recompute', 'window', 'causal', 'linear', 'quadratic'];
/** The slopes the legends show once a run is done, by series. */
const shownSlopes = (page) =>
  page.$$eval('#eff-costs .eff-cost-legend li', (items) =>
    Object.fromEntries(items.map((li) => [li.dataset.series, li.dataset.slope])),
  );

test('shared heads on the worked example: GQA equal to the repeated heads, the cache ÷ 2, the price 10·e/(e+1) − 5', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=heads');
  await page.waitForSelector('#eff-heads-equal .eff-agreement');
  // h = 2 query heads of d_k = 1 each, one shared key–value head: MQA.
  assert.equal(await page.inputValue('#eff-heads-h'), '2');
  assert.equal(await page.inputValue('#eff-heads-g'), '1');
  assert.deepEqual(await agreementOf(page, '#eff-heads-equal'), { equal: true, largest: 0, differing: 0 });
  assert.equal(await page.getAttribute('#eff-heads-ratio', 'data-ratio'), '2');
  const bytes = await page.$$eval('.eff-heads-cache tbody tr', (rows) => rows.map((tr) => Number(tr.dataset.bytes)));
  assert.deepEqual(bytes, [2 * 2 * 2 * 4, 2 * 1 * 2 * 4]);
  const price = await agreementOf(page, '#eff-heads-price');
  assert.ok(Math.abs(price.largest - ((10 * e) / (e + 1) - 5)) < 1e-4, `price ${price.largest}`);

  // g = 3 does not divide h = 2: refused beside its field, nothing computed shown.
  await page.selectOption('#eff-heads-g', '3');
  await page.waitForFunction(() => document.getElementById('eff-heads-g-error').textContent !== '');
  assert.equal(await page.getAttribute('#eff-heads-g', 'aria-invalid'), 'true');
  assert.equal(await page.locator('#eff-heads-body > *').count(), 0);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /effg=3/, 'a refused g never reaches the link');

  // h = 8 cannot split d_k = 2: random inputs, said so; g = 2 shares four heads per group.
  await page.selectOption('#eff-heads-h', '8');
  await page.selectOption('#eff-heads-g', '2');
  await page.waitForSelector('#eff-heads-ratio[data-ratio="4"]');
  assert.equal(await page.getAttribute('#eff-heads-g', 'aria-invalid'), 'false');
  await page.waitForFunction(() => /effh=8&effg=2/.test(location.hash)); // h and g are in the link
  assert.match(await page.textContent('#eff-heads-source'), /随机/);
  assert.equal((await agreementOf(page, '#eff-heads-equal')).differing, 0);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('linear attention on the worked example: both orders 50/9 and 40/9, 20 against 24 multiply-adds, KL from softmax’s A', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=linear&lang=en');
  await page.waitForSelector('#eff-linear-orders .eff-agreement');
  assert.ok((await agreementOf(page, '#eff-linear-orders')).largest <= 1e-5);
  const counts = await page.$$eval('.eff-linear-counts tbody tr', (rows) =>
    Object.fromEntries(rows.map((tr) => [tr.dataset.order, Number(tr.dataset.count)])),
  );
  assert.deepEqual(counts, { quadratic: 20, linear: 24 });
  const p = 1 / (1 + Math.exp(-Math.SQRT1_2)); // softmax's 0.6698
  const kl = p * Math.log(p / (5 / 9)) + (1 - p) * Math.log((1 - p) / (4 / 9));
  const shown = Number(await page.getAttribute('#eff-linear-kl-largest', 'data-kl'));
  assert.ok(Math.abs(shown - kl) < 1e-5, `KL ${shown}, expected ${kl}`);
  const output = await agreementOf(page, '#eff-linear-output');
  assert.ok(Math.abs(output.largest - (10 * p - 50 / 9)) < 1e-4, `output ${output.largest}`);
  assert.deepEqual(await page.$$eval('.eff-linear-phi tbody td', (tds) => tds.map((td) => td.textContent)), [
    '0.5556',
    '0.4444',
    '0.4444',
    '0.5556',
  ]);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('a short cost run in the worker ends with every slope and the crossover shown; the memory table up to 16,384', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=costs');
  const last = await page.$eval('.eff-cost-memory tbody tr:last-child', (tr) => ({ ...tr.dataset }));
  assert.equal(Number(last.n), 16384);
  assert.equal(Number(last.scores), 16384 * 16384 * 4);
  assert.equal(Number(last.tiles), 16384 * 128 * 4);
  assert.equal(await page.inputValue('#eff-cost-plan'), 'short');
  await page.click('#eff-cost-run');
  await page.waitForSelector('#eff-costs[data-status="done"]', { timeout: 120000 });
  assert.equal(await page.getAttribute('#eff-cost-where', 'data-mode'), 'worker');
  const slopes = await shownSlopes(page);
  for (const series of SERIES)
    assert.ok(Number.isFinite(Number.parseFloat(slopes[series])), `${series}: ${slopes[series]}`);
  assert.notEqual(await page.textContent('#eff-cost-linear-note'), '');
  // a point per size of each series, the recompute timed up to its largest n
  const { decode } = SHORT_COST_PLAN;
  const recomputed = decode.sizes.filter((n) => n <= decode.recomputeMax).length;
  assert.equal(await page.locator('#eff-cost-chart-decode .mark').count(), decode.sizes.length + recomputed);
  assert.equal(await page.isDisabled('#eff-cost-run'), false);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
});

test('a run stops at once on Stop, and leaving the panel ends it', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=costs');
  await setField(page, '#eff-cost-plan', 'full');
  await page.click('#eff-cost-run');
  await page.waitForSelector('#eff-costs[data-status="running"]');
  await page.click('#eff-cost-stop');
  await page.waitForSelector('#eff-costs[data-status="stopped"]');
  assert.match(await page.textContent('#eff-cost-status'), /已停止/);
  await page.click('#eff-cost-run');
  await page.waitForSelector('#eff-costs[data-status="running"]');
  await page.click('.eff-panel-button[data-panel="linear"]');
  await page.waitForSelector('#eff-linear');
  assert.equal(await page.locator('#eff-costs').count(), 0);
  assert.deepEqual(page.problems, []);
});

test('where no Worker may start, the run goes on the page’s thread in slices, says so, and still ends with the slopes', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=costs&lang=en', {
    initScript: () => {
      window.Worker = function Worker() {
        throw new Error('no workers here');
      };
    },
  });
  await page.click('#eff-cost-run');
  await page.waitForSelector('#eff-costs[data-status="done"]', { timeout: 120000 });
  assert.equal(await page.getAttribute('#eff-cost-where', 'data-mode'), 'main-thread');
  assert.match(await page.textContent('#eff-cost-where'), /A Web Worker may not start here/);
  const slopes = await shownSlopes(page);
  for (const series of SERIES)
    assert.ok(Number.isFinite(Number.parseFloat(slopes[series])), `${series}: ${slopes[series]}`);
  assert.deepEqual(page.problems, []);
});

inEachEngine((name, driver) => {
  test(`${name}: the cost run from the offline file, in its Blob-URL worker, ends with the slopes shown`, async () => {
    const page = await openOfflineFile(driver, '#view=efficiency-lab&effpanel=costs');
    await page.until(() => document.getElementById('eff-cost-run') !== null, undefined, 30000);
    await page.click('#eff-cost-run');
    await page.until(() => document.getElementById('eff-costs').dataset.status !== 'running', undefined, 120000);
    assert.equal(await page.evaluate(() => document.getElementById('eff-costs').dataset.status), 'done');
    assert.equal(await page.evaluate(() => document.getElementById('eff-cost-where').dataset.mode), 'worker');
    const slopes = await shownSlopes(page);
    for (const series of SERIES)
      assert.ok(Number.isFinite(Number.parseFloat(slopes[series])), `${series}: ${slopes[series]}`);
    assert.deepEqual(page.problems, []);
    const file = (url) => url.replace(/#.*$/, '') === OFFLINE_FILE;
    assert.deepEqual(
      page.requests.filter((url) => !file(url) && !url.startsWith('blob:')),
      [],
    );
    await page.closeAll();
  });
});
