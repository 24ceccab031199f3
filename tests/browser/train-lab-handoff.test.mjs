// The training lab's hand-off to the stepper (web/src/features/train-lab/train-lab-walk.js, train-lab-view.js)
// in Chromium: any snapshot on the timeline is handed over — the untrained model too, whose
// gradients are large — the button says which step; the stepper's wide matrices scroll inside
// their figure with a faded edge as a cue, and the panel's weight editors keep every value whole;
// and Back returns to the lab with its run trained to the same step and the timeline where it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, matrixText } from './helpers.mjs';
import { untilStarted, untilSteps, untilStill, scrubTo } from './train-lab-waits.mjs';

const b = browserForFile();

/** The largest |value| of a matrix on the stage. */
const largest = async (page, name) =>
  Math.max(...(await matrixText(page, name)).flat().map((s) => Math.abs(Number(s.replace('−', '-')))));

test('the untrained snapshot is handed over (the button says step 0), its dO is large, and Back finds the run at step 100', async () => {
  const page = await b.open('#view=train-lab&lang=en&traintask=reverse&trainseed=7&traindk=16&trainsteps=100');
  await untilStarted(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await untilStill(page, 30000);
  assert.equal(await page.textContent('#train-walk'), 'Open the model after step 100 in the stepper');
  // The converged model: its dO is small (≈ 2·10⁻⁴) — the walk would show little.
  await scrubTo(page, 0);
  assert.equal(await page.textContent('#train-walk'), 'Open the untrained model (step 0) in the stepper');
  await page.click('#train-walk');
  await page.waitForFunction(
    () => /loss=given/.test(location.hash) && document.querySelector('figure[data-name="gradOutput"]'),
  );
  const dO = await matrixText(page, 'gradOutput');
  assert.deepEqual([dO.length, dO[0].length], [6, 16]);
  const big = await largest(page, 'gradOutput');
  assert.ok(big > 0.05, `the untrained model's dO reaches ${big}`);
  // Wide matrices stay readable: the 6×16 dO scrolls inside its figure, its far edge faded as a cue;
  // the 22×16 weight editors scroll inside the panel with every value whole; the page does not widen.
  const layout = await page.evaluate(() => {
    const box = document.querySelector('figure[data-name="gradOutput"] .table-scroll');
    const inputs = [...document.querySelectorAll('.editor .grid input')];
    return {
      dO: box.dataset.more,
      fade: getComputedStyle(box).maskImage !== 'none',
      editors: [...document.querySelectorAll('.editor .grid')].map((g) => g.dataset.more),
      cut: inputs.filter((i) => i.scrollWidth > i.clientWidth).length,
      inputs: inputs.length,
      pageWider: document.documentElement.scrollWidth > innerWidth,
      dOBox: getComputedStyle(document.querySelector('.loss-matrix textarea')).whiteSpace,
    };
  });
  assert.deepEqual(layout, {
    dO: 'right',
    fade: true,
    editors: ['right', 'right', 'right'],
    cut: 0,
    inputs: 3 * 22 * 16,
    pageWider: false,
    dOBox: 'pre',
  });
  await page.evaluate(() => {
    const box = document.querySelector('figure[data-name="gradOutput"] .table-scroll');
    box.scrollLeft = box.scrollWidth;
  });
  await page.waitForFunction(
    () => document.querySelector('figure[data-name="gradOutput"] .table-scroll').dataset.more === 'left',
  );
  await screenshot(page, 'train-lab-handoff-stepper-en-light');

  await page.goBack();
  await page.waitForSelector('#train-status');
  await untilSteps(page, 100); // retrained from the link to where it was
  await page.waitForFunction(() => /step 0\b/.test(document.querySelector('#train-timeline-value').textContent));
  assert.equal(await page.textContent('#train-walk'), 'Open the untrained model (step 0) in the stepper');
  assert.match(await page.textContent('#train-status'), /^Step 100 \/ 100 · this batch’s loss 0\.00/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('continue from a rewound snapshot: back at step 20, Play trains on to the same numbers as the run never rewound', async () => {
  const page = await b.open('#view=train-lab&lang=en&traintask=reverse&trainseed=7&traindk=16&trainsteps=100');
  await untilStarted(page);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await untilStill(page, 30000);
  const straight = await page.textContent('#train-status');
  assert.equal(await page.isHidden('#train-rewind'), true, 'at the live end there is nothing to rewind');
  await scrubTo(page, 20);
  assert.equal(await page.textContent('#train-rewind'), 'Continue training from this snapshot (step 20)');
  await page.click('#train-rewind');
  await untilSteps(page, 20);
  assert.match(await page.textContent('#train-status'), /^Step 20 \/ 100 · /);
  assert.equal(await page.isHidden('#train-rewind'), true);
  await page.click('#train-play');
  await untilSteps(page, 100);
  await untilStill(page, 30000);
  assert.equal(await page.textContent('#train-status'), straight);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
