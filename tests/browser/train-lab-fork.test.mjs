// The training lab's fork from a snapshot (issue 26, item 6; web/src/features/train-lab/train-lab-fork.js) in
// Chromium: back on the timeline at step 20, another learning rate, "Fork at step 20" — the link
// carries the fork, the lab retrains to step 20, Play trains the fork and the run it left side by
// side (the original faint), the summary says what changed after which step, and the same link
// opened afresh shows the same numbers. A bad fork field in a link is refused alone, by name, and a
// fork the run cannot have (in the race, or beyond its steps) is dropped, the notice saying why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, axeViolations } from './helpers.mjs';
import { untilStarted, untilSteps, untilStill, scrubTo } from './train-lab-waits.mjs';

const b = browserForFile();
const LAB = '#view=train-lab&lang=en&traintask=reverse&trainseed=7&traindk=16&trainsteps=100';

/** Every number the lab shows about its runs: the status, the summary, the legend, A and the W's. */
const shown = (page) =>
  page.evaluate(() => {
    const text = (selector) => [...document.querySelectorAll(selector)].map((el) => el.textContent);
    return {
      status: text('#train-status'),
      summary: text('#train-loss-summary'),
      legend: text('#train-legend li'),
      attention: text('.train-a td'),
      curves: [...document.querySelectorAll('.train-chart path.line')].map((p) => p.getAttribute('d')),
      weights: text('#train-params figure'),
    };
  });

test('fork at step 20 with learning rate 0.1: the link carries it, and opened afresh it shows the same numbers', async () => {
  const page = await b.open(LAB);
  await untilStarted(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await untilStill(page);
  const unforked = (await page.textContent('#train-loss-summary')).match(/^Step 100: (loss .*)$/)[1];
  await scrubTo(page, 20);
  assert.equal(await page.textContent('#train-fork'), 'Fork at step 20');
  assert.equal(await page.getAttribute('#train-fork', 'aria-disabled'), 'true', 'the run’s own setting: no fork');
  assert.equal(
    await page.textContent('#train-fork-hint'),
    'Choose a scaling or learning rate other than this run’s to fork.',
  );
  await page.selectOption('#train-fork-lr', '0.1');
  assert.equal(await page.getAttribute('#train-fork', 'aria-disabled'), 'false');
  await page.click('#train-fork');

  // The link holds the fork; the lab trains the fork and the original run to step 100, where the
  // run had got: the original to the numbers it had.
  await page.waitForFunction(() => /&trainfork=20&trainforklr=0\.1(&|$)/.test(location.hash));
  await page.waitForSelector('#train-fork-current:not([hidden])'); // drawn once the forked run has started
  await untilSteps(page, 100);
  await untilStill(page);
  const hash = await page.evaluate(() => location.hash);
  assert.doesNotMatch(hash, /trainforkscale/);
  assert.equal(
    await page.textContent('#train-fork-current'),
    'The fork now: after step 20, learning rate 0.01 → 0.1. Forking again replaces it; a fork always leaves the original run.',
  );
  const forked = await shown(page);
  assert.ok(forked.summary[0].endsWith(`· original run · ${unforked}`), 'the original run, kept to its numbers');
  assert.deepEqual(forked.legend, ['fork (after step 20: learning rate 0.01 → 0.1)', 'original run']);
  assert.match(
    forked.summary[0],
    /^Forked after step 20: learning rate 0\.01 → 0\.1; the faint curves are the original run\. Step 100: fork · loss [\d.]+, gradient [\d.]+ · original run · loss [\d.]+/,
  );
  const faint = await page.$$eval('#train-chart-loss path.line.faint', (paths) => paths.length);
  assert.equal(faint, 2, 'the original run’s loss and gradient, faint');
  // The fork's curve starts at step 20: its first point is the original's at step 20.
  const starts = await page.$$eval('#train-chart-loss path.line.run-0:not(.dashed)', (paths) =>
    paths.map((p) => p.getAttribute('d').match(/^M([\d.]+)/)[1]),
  );
  const origin = await page.$$eval('#train-chart-loss path.line.run-1:not(.dashed)', (paths) =>
    paths.map((p) => p.getAttribute('d').match(/^M([\d.]+)/)[1]),
  );
  assert.ok(Number(starts[0]) > Number(origin[0]), `the fork starts right of step 0: ${starts[0]} > ${origin[0]}`);
  await screenshot(page, 'train-lab-fork-en-light');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // The same link, opened afresh: the same fork, the same numbers.
  const again = await b.open(hash);
  await untilStarted(again);
  await untilStill(again);
  await again.click('#train-play');
  await untilSteps(again, 100);
  await untilStill(again);
  assert.deepEqual(await shown(again), forked);
  assert.deepEqual(again.problems, []);
  await again.context().close();
});

test('a link whose fork scaling cannot be read: the notice names trainforkscale, the rest of the fork opens', async () => {
  const page = await b.open(`${LAB}&trainfork=20&trainforklr=0.1&trainforkscale=half`);
  await untilStarted(page);
  assert.equal(
    await page.textContent('#notice'),
    'This link\'s trainforkscale field ("half") cannot be read and was left at its default; the rest of the link opens as it is.',
  );
  assert.equal(
    await page.textContent('#train-fork-current'),
    'The fork now: after step 20, learning rate 0.01 → 0.1. Forking again replaces it; a fork always leaves the original run.',
  );
  assert.equal(await page.inputValue('#train-seed'), '7');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a race link with a fork: the race opens without it, and the notice says a fork does not apply to the race', async () => {
  const page = await b.open(`${LAB.replace('trainsteps=100', 'trainscale=race')}&trainfork=20&trainforklr=0.1`);
  await untilStarted(page);
  assert.equal(
    await page.textContent('#notice'),
    'This link\'s trainfork field ("20") belongs to a fork, which does not apply to the race: the race already runs both scalings side by side. The link opened without the fork; the rest of it opens as it is.',
  );
  assert.equal(await page.isHidden('#train-race'), false, 'the race is open');
  assert.equal(await page.isHidden('#train-fork-current'), true, 'no fork');
  assert.equal(await page.inputValue('#train-seed'), '7');
  assert.doesNotMatch(new URL(page.url()).hash, /trainfork/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link whose fork is beyond its steps (300 of 100): the run opens without it, and the notice says why', async () => {
  const page = await b.open(`${LAB}&trainfork=300&trainforklr=0.1`);
  await untilStarted(page);
  assert.equal(
    await page.textContent('#notice'),
    'This link\'s trainfork field ("300") forks after step 300, but this run has only 100 steps, so the fork would never start. The link opened without the fork; the rest of it opens as it is.',
  );
  assert.equal(await page.isHidden('#train-fork-current'), true, 'no fork');
  assert.equal(await page.inputValue('#train-seed'), '7');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('in Chinese on a 375 px dark screen: a fork to no scaling at d_k = 64 is worded, fits, and axe finds nothing', async () => {
  const page = await b.open(
    '#view=train-lab&lang=zh-CN&traintask=reverse&trainseed=7&traindk=64&trainsteps=100&trainfork=30&trainforkscale=none',
    { viewport: { width: 375, height: 800 }, colorScheme: 'dark' },
  );
  await untilStarted(page);
  await untilStill(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await untilStill(page);
  const { legend, summary } = await shown(page);
  assert.deepEqual(legend, ['分叉(第 30 步之后:缩放 ÷√dₖ → 不缩放)', '原来的训练']);
  assert.match(summary[0], /^第 30 步之后分叉:缩放 ÷√dₖ → 不缩放;淡色的曲线是原来的训练。第 100 步:分叉 · 损失 /);
  assert.equal(await page.textContent('#train-fork'), '从第 100 步分叉');
  const wider = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  assert.equal(wider, false, 'nothing overflows sideways');
  await screenshot(page, 'train-lab-fork-zh-dark-375');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the walk hands over the fork’s model with the fork’s scaling: a fork to no scaling at step 0 opens the stepper unscaled', async () => {
  const page = await b.open(`${LAB}&trainfork=0&trainforkscale=none`);
  await untilStarted(page);
  await untilStill(page);
  assert.match(await page.textContent('#train-walk-which'), /With a fork, the fork’s model is handed over/);
  await page.click('#train-walk');
  await page.waitForFunction(() => /loss=given/.test(location.hash));
  const hash = new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
  assert.equal(hash.get('scale'), 'none');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
