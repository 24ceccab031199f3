// The stage keeps each step's matrices once shown, laid out but not drawn, and builds the next
// step while the reader reads (web/src/views/panes.js, stage.js): a kept step must come back with
// today's numbers, be invisible and nameless while kept, and a built-ahead step must be the one
// shown, not built again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, matrixText } from './helpers.mjs';

const b = browserForFile();

const numbers = async (page, name) => (await matrixText(page, name)).map((row) => row.map(Number));

test('a step seen before comes back with the numbers of an edit made since, and only the shown step is named', async () => {
  const page = await b.open('#step=1');
  for (let step = 2; step <= 9; step++) await page.keyboard.press('ArrowRight');
  // At step 9, Q = I₂ becomes [[2, 0], [0, 1]]: steps 3 and 8, kept since, are out of date.
  await page.fill('#in-q-0-0', '2');
  await page.click('.step-link[data-step="3"]');
  assert.deepEqual(await numbers(page, 'scores'), [
    [2, 0],
    [0, 1],
  ]);
  await page.click('.step-link[data-step="8"]');
  // softmax([2, 0] / √2): 1 / (1 + e^−1.4142) = 0.8044, and the second row as the article's, 0.6698.
  const [[a11, a12], [a21, a22]] = await numbers(page, 'weights');
  assert.ok(Math.abs(a11 - 0.8044) < 1e-3 && Math.abs(a12 - 0.1956) < 1e-3, `row 1: ${a11}, ${a12}`);
  assert.ok(Math.abs(a21 - 0.3302) < 1e-3 && Math.abs(a22 - 0.6698) < 1e-3, `row 2: ${a21}, ${a22}`);
  const kept = await page.evaluate(() => ({
    panes: document.querySelectorAll('.step-pane.kept').length,
    named: document.querySelectorAll('.step-pane.kept figure[data-name], .step-pane.kept figure[id]').length,
    drawn: [...document.querySelectorAll('.step-pane.kept figure')].filter((f) => f.checkVisibility()).length,
    weights: document.querySelectorAll('figure[data-name="weights"]').length,
  }));
  assert.ok(kept.panes >= 7, `the other steps are kept (${kept.panes})`);
  assert.equal(kept.named, 0, 'a kept figure has no id or data-name');
  assert.equal(kept.drawn, 0, 'a kept figure is not drawn');
  assert.equal(kept.weights, 1, 'one figure answers to "weights": the shown one');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the next step is built while the reader reads, and that very pane is the one shown', async () => {
  const page = await b.open('#preset=cat&step=2');
  await page.waitForFunction(() => document.querySelector('.step-pane.step-scores.kept'));
  await page.evaluate(() => {
    document.querySelector('.step-pane.step-scores').dataset.builtAhead = 'yes';
  });
  await page.click('#next');
  assert.equal(
    await page.evaluate(
      () => document.querySelector('figure[data-name="scores"]').closest('.step-pane').dataset.builtAhead,
    ),
    'yes',
  );
  assert.equal(await page.locator('.step-pane.step-scores').count(), 1, 'not built a second time');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('with a lab open, the hidden stage builds no steps ahead', async () => {
  const page = await b.open('#preset=random&mode=x&n=16&d=16&dk=16&dv=16&seed=11&step=1');
  // In one go: a new language (every kept step is dropped, and building ahead starts over), then a lab.
  const atOpening = await page.evaluate(() => {
    document.getElementById('lang-switch').click();
    document.querySelector('#views a[data-view="scale-lab"]').click();
    return document.querySelectorAll('.step-pane').length;
  });
  assert.equal(atOpening, 1, 'only the step that was on screen');
  // Idle moments in which the stage would build steps 2 … 9, one per moment (stage.js, prepareAhead):
  // idle callbacks run in the order they were asked for, so after ten of ours, queued behind
  // the stage's, each of its would have run.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let left = 10;
        const next = () => (left-- > 0 ? requestIdleCallback(next, { timeout: 1000 }) : resolve());
        next();
      }),
  );
  assert.equal(
    await page.evaluate(() => document.querySelectorAll('.step-pane').length),
    1,
    'none built behind the lab',
  );
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
