// The lab "watch attention learn" (view=train-lab, web/src/features/train-lab/train-lab-view.js) in Chromium:
// Play trains reverse in a Web Worker until its loss falls and A turns anti-diagonal, counted in
// steps; Pause stops, Step adds exactly one, Reset goes back to step 0; the timeline shows an
// earlier snapshot's number on hover and by keyboard; the √d_k race draws both runs; a link
// replays the same run; where no Worker may start it runs in slices on the page's thread and gives
// the same numbers; and on a 375 px screen nothing overflows and axe finds nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, axeViolations } from './helpers.mjs';
import { untilStarted, untilSteps } from './train-lab-waits.mjs';

const b = browserForFile();

const steps = (page) => page.$eval('#train-status', (p) => Number(p.dataset.steps));
const untilPaused = (page) =>
  page.waitForFunction(() => document.querySelector('#train-pause').getAttribute('aria-disabled') === 'true');
/** The loss in the status line ("… this batch’s loss 0.001463 · accuracy 1"). */
const shownLoss = async (page) => Number(/loss ([\d.e−-]+)/.exec(await page.textContent('#train-status'))[1]);

test('reverse: Play trains in a Web Worker until the loss falls below 0.1 and A is anti-diagonal, within 200 steps', async () => {
  const page = await b.open('#view=train-lab&lang=en&traintask=reverse&trainsteps=200');
  await untilStarted(page);
  assert.equal(await page.getAttribute('#train-where', 'data-mode'), 'worker');
  assert.match(await page.textContent('#train-status'), /^Step 0 \/ 200: not trained yet/);
  // One run: no legend (its swatches name the race's two runs, and would stand here without words).
  assert.equal(await page.isVisible('#train-legend'), false);
  await page.click('#train-play');
  await untilSteps(page, 200);
  await untilPaused(page);
  assert.match(await page.textContent('#train-status'), /^Step 200 \/ 200 · this batch’s loss /);
  assert.match(await page.textContent('#train-status'), / · held-out accuracy 1 on 64 fixed sequences \(step 200\)$/);
  assert.equal(await page.locator('#train-chart-accuracy circle.point').count(), 21, 'steps 0, 10, … 200');
  const loss = await shownLoss(page);
  assert.ok(loss < 0.1, `loss after 200 steps: ${loss} (chance: ln 6 = 1.79)`);
  // A on the probe 0 1 2 3 4 5 at step 200: each query's largest weight on its mirror key.
  const rows = await page.$$eval('.train-a tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td.pick')].map((td) => Number(td.dataset.value))),
  );
  rows.forEach((row, i) => assert.equal(row.indexOf(Math.max(...row)), 5 - i, `query ${i}: ${row}`));
  assert.equal(await page.getAttribute('#train-play', 'aria-disabled'), 'true', 'Play is off at the last step');
  assert.equal(await page.locator('#train-params canvas.heatmap').count(), 2, 'W_Q and W_K of one head');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Pause stops the run, Step then adds exactly one step, Reset goes back to step 0', async () => {
  // The lab's largest model (4 heads of d_k = 256): its 2,000 steps take seconds, so Pause, clicked
  // once 20 are done, comes before the end even on a busy machine (at the defaults they took a
  // third of a second, and a slow click came after the last).
  const page = await b.open('#view=train-lab&lang=en&trainsteps=2000&traindk=256&trainheads=4');
  await untilStarted(page);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('#train-status').dataset.steps) >= 20, null, {
    timeout: 60000,
  });
  await page.click('#train-pause');
  await untilPaused(page);
  const paused = await steps(page);
  assert.ok(paused < 2000);
  await page.click('#train-step');
  await untilSteps(page, paused + 1);
  await page.click('#train-step');
  await untilSteps(page, paused + 2);
  assert.match(await page.textContent('#train-status'), new RegExp(`^Step ${paused + 2} / 2000`));
  await page.click('#train-reset');
  await untilSteps(page, 0);
  await page.waitForFunction(() => /^Step 0 \/ 2000/.test(document.querySelector('#train-status').textContent));
  assert.equal(await page.locator('#train-chart-loss .hint').count(), 1, 'the empty chart says to press Play');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("the timeline: scrubbed back to step 0, a cell's number is step 0's, on hover and by keyboard", async () => {
  const page = await b.open('#view=train-lab&lang=en&trainsteps=100');
  await untilStarted(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  const cell = '.train-a td.pick[data-i="0"][data-j="5"]';
  const late = Number(await page.getAttribute(cell, 'data-value'));
  assert.ok(late > 0.3, `query 1 on its mirror key 6 after 100 steps: ${late}`);
  assert.match(await page.textContent('#train-timeline-value'), /^the snapshot at step 100 \(latest\)$/);
  await page.$eval('#train-timeline', (input) => {
    input.value = '0';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(
    () => document.querySelector('#train-timeline-value').textContent === 'the snapshot at step 0',
  );
  const early = Number(await page.getAttribute(cell, 'data-value'));
  assert.ok(early < late, `step 0: ${early}, before any learning`);
  await page.hover(cell);
  const readout = await page.textContent('#train-readout');
  assert.match(readout, /^head 1, query 1 \(0\) on key 6 \(5\): 0\.\d+ \(step 0\)$/);
  assert.equal(Number(/: (0\.\d+) \(/.exec(readout)[1]).toFixed(2), early.toFixed(2));
  // By keyboard: the first cell is the table's tab stop, arrows move along the row.
  await page.focus('.train-a td.pick[data-i="0"][data-j="0"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() =>
    /query 1 \(0\) on key 2 \(1\): .* \(step 0\)$/.test(document.querySelector('#train-readout').textContent),
  );
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the √d_k race at d_k = 256: both runs on one chart, compared at step 1 and by the step each learns, then over 16 seeds', async () => {
  const page = await b.open('#view=train-lab&lang=en&trainscale=race&traindk=256&trainsteps=300');
  await untilStarted(page);
  assert.equal(await page.isVisible('#train-race'), true);
  assert.deepEqual(await page.$$eval('#train-legend li', (lis) => lis.map((li) => li.textContent)), [
    '÷√dₖ',
    'unscaled',
  ]);
  await page.click('#train-play');
  await untilSteps(page, 300);
  await untilPaused(page);
  const lines = await page.$$eval('#train-chart-loss path.line', (paths) =>
    paths.map((p) => `${p.getAttribute('class')} ${p.getAttribute('d').length > 100}`),
  );
  assert.deepEqual(lines, ['line run-0 true', 'line run-0 dashed true', 'line run-1 true', 'line run-1 dashed true']);
  // Seed 7 (tests/web/train-race.test.mjs has the same figures): like with like, never two converged values.
  const race = await page.textContent('#train-race-result');
  assert.match(
    race,
    /^Step 1 \(the same initial weights\): the gradient through the softmax ‖∂ℓ\/∂Z‖ is 0\.110 with ÷√dₖ and 0\.0273 unscaled; /,
  );
  assert.match(race, /Loss first below 0\.1 nats: at step 36 with ÷√dₖ, not within 300 steps unscaled\./);
  const [, scaledAt100, unscaledAt100] = /Loss at step 100: ([\d.e−-]+) with ÷√dₖ, ([\d.e−-]+) unscaled/.exec(race);
  assert.ok(Number(scaledAt100) < 0.1 && Number(unscaledAt100) > 1, race);
  assert.doesNotMatch(
    await page.textContent('#train-loss-summary'),
    /gradient/,
    'no two last-step gradients side by side',
  );
  assert.equal(await page.locator('.train-run').count(), 2, 'A of both runs, side by side');
  // The race over seeds 7 … 22, in the worker: all 16 learn with ÷√dₖ, none unscaled within 300 steps.
  await page.click('#train-seeds-run');
  await page.waitForFunction(() => document.querySelector('.train-seeds').dataset.seeds === '16', null, {
    timeout: 120000,
  });
  await page.waitForFunction(
    () => document.querySelector('#train-seeds-run').getAttribute('aria-disabled') === 'false',
  );
  assert.equal(
    await page.textContent('#train-seeds-result'),
    '16 seeds done: ÷√dₖ: all 16 seeds learned, in a median of 46.5 steps (from 35 to 74). ' +
      'unscaled: none of 16 seeds learned within 300 steps.',
  );
  assert.equal(await page.locator('#train-seeds-chart circle.dot').count(), 32);
  assert.equal(await page.locator('#train-seeds-chart circle.dot.run-1.missed').count(), 16);
  await screenshot(page, 'train-lab-race-en-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link replays the same run: the hash carries every field, the same loss after 100 steps', async () => {
  const page = await b.open('#view=train-lab&lang=en');
  await untilStarted(page);
  await page.selectOption('#train-task', 'shift');
  await page.selectOption('#train-lr', '0.03');
  await page.selectOption('#train-dk', '8');
  await page.selectOption('#train-heads', '2');
  await page.selectOption('#train-steps', '100');
  await page.fill('#train-seed', '3');
  await page.press('#train-seed', 'Enter');
  await page.waitForFunction(() => location.hash.includes('trainseed=3'));
  const hash = await page.evaluate(() => location.hash);
  assert.match(
    hash,
    /traintask=shift&trainseed=3&trainlr=0\.03&traindk=8&trainscale=sqrt_dk&trainheads=2&trainsteps=100/,
  );
  await page.click('#train-play');
  await untilSteps(page, 100);
  const first = await page.textContent('#train-status');
  await page.context().close();

  const again = await b.open(hash);
  await untilStarted(again);
  await again.click('#train-play');
  await untilSteps(again, 100);
  assert.equal(await again.textContent('#train-status'), first);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

test("where no Web Worker may start, it trains in slices on the page's thread, says so, and gives the same numbers", async () => {
  const hash = '#view=train-lab&lang=en&trainsteps=100';
  const inWorker = await b.open(hash);
  await untilStarted(inWorker);
  await inWorker.click('#train-play');
  await untilSteps(inWorker, 100);
  const expected = await inWorker.textContent('#train-status');
  await inWorker.context().close();

  const page = await b.open(hash, {
    initScript: () => {
      window.Worker = function Worker() {
        throw new DOMException('workers are blocked here', 'SecurityError');
      };
    },
  });
  await untilStarted(page);
  assert.equal(await page.getAttribute('#train-where', 'data-mode'), 'main-thread');
  assert.match(await page.textContent('#train-where'), /on the page’s own thread in small slices/);
  await page.click('#train-play');
  // The page answers between slices: a language switch is handled and the run goes on.
  await page.click('#lang-switch');
  await page.waitForFunction(() => document.querySelector('.lab-train-lab h2').textContent === '看注意力学习');
  await untilSteps(page, 100);
  await page.click('#lang-switch');
  await page.waitForFunction(() => document.querySelector('.lab-train-lab h2').textContent === 'Watch attention learn');
  assert.equal(await page.textContent('#train-status'), expected);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a 375 px screen, dark, in Chinese: nothing overflows sideways, and axe finds no violation after a race', async () => {
  const page = await b.open('#view=train-lab&trainscale=race&trainheads=2&trainsteps=100', {
    viewport: { width: 375, height: 800 },
    colorScheme: 'dark',
  });
  await untilStarted(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await page.hover('.train-a td.pick[data-i="1"][data-j="4"]');
  assert.match(await page.textContent('#train-readout'), /第 1 个头,查询 2/);
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'train-lab-phone-zh-dark');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the own rule: a vocabulary that repeats a word and a pair without an arrow are refused beside their fields, the link as it was', async () => {
  const page = await b.open('#view=train-lab&lang=en&traintask=own&trainseed=8&trainsteps=100');
  await untilStarted(page);
  const hash = await page.evaluate(() => location.hash);
  await page.fill('#train-vocab', '甲 乙 甲');
  await page.press('#train-vocab', 'Enter');
  await page.waitForSelector('#train-vocab-error:not([hidden])');
  assert.equal(
    await page.textContent('#train-vocab-error'),
    'The vocabulary cannot be read: no word may repeat, and it may not be empty.',
  );
  assert.equal(await page.getAttribute('#train-vocab', 'aria-invalid'), 'true');
  // The pairs' second line has no arrow: that line is named, beside the field.
  await page.fill('#train-pairs', '甲乙丙丁 → 丁丙乙甲\n甲乙丙丁');
  await page.focus('#train-seed');
  await page.waitForSelector('#train-pairs-error:not([hidden])');
  assert.equal(await page.textContent('#train-pairs-error'), 'Line 2 cannot be read: write it as "input → output".');
  assert.equal(await page.getAttribute('#train-pairs', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => location.hash), hash);
  // Fixed, each is read into the link and its error goes.
  await page.fill('#train-vocab', '甲 乙 丙 丁');
  await page.press('#train-vocab', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('trainvocab') === '甲,乙,丙,丁');
  assert.equal(await page.isVisible('#train-vocab-error'), false);
  assert.equal(await page.getAttribute('#train-vocab', 'aria-invalid'), 'false');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('induction and sort say why one layer cannot fully learn them; a seed that is no whole number is refused beside its field', async () => {
  const page = await b.open('#view=train-lab&lang=en&traintask=induction&trainsteps=100');
  await untilStarted(page);
  assert.match(await page.textContent('#train-task-note'), /two look-ups in a chain, which takes two layers/);
  assert.equal(await page.getAttribute('#train-task-note', 'class'), 'train-task-note train-limit');
  await page.selectOption('#train-task', 'sort');
  await page.waitForFunction(() => location.hash.includes('traintask=sort'));
  assert.match(await page.textContent('#train-task-note'), /comparing tokens with each other/);
  // A bad seed: the error next to the field, the link and the run as they were.
  const hash = await page.evaluate(() => location.hash);
  await page.fill('#train-seed', '-3');
  await page.press('#train-seed', 'Enter');
  await page.waitForSelector('#train-seed-error:not([hidden])');
  assert.equal(await page.textContent('#train-seed-error'), 'The seed must be a whole number from 0 to 4294967295');
  assert.equal(await page.getAttribute('#train-seed', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => location.hash), hash);
  await page.fill('#train-seed', '12');
  await page.press('#train-seed', 'Enter');
  await page.waitForFunction(() => location.hash.includes('trainseed=12'));
  assert.equal(await page.isVisible('#train-seed-error'), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
