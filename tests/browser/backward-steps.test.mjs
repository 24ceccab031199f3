// One training step through the stepper (issue 17, item 6), in Chromium and in Firefox: on the
// article's worked example (Q = K = I₂, V = 10·I₂) the reader chooses L = ½‖AV − Y‖² under AV and
// walks the backward steps — dO = AV − Y = [[−3.302, 3.302], [3.302, −3.302]] — and with L = (AV)₁₁
// (dO given) docs/api.md's gradients, dZ = [[2.212, −2.212], [0, 0]], one of them expanded term by
// term in the popover; the training lab hands its probe's step over to the stepper. In the offline
// file (file://, no network), as a reader who downloaded it would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, matrixIn, stageText, stepInUrl, openOfflineFile } from './drivers.mjs';
import { axeViolations } from './helpers.mjs';

const title = (page) => page.evaluate(() => document.getElementById('step-title').textContent);
const popoverLines = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#cell-explain ol.expansion > li .line')].map((line) =>
      line.textContent.replace(/\s+/g, '').replace(/\u2212/g, '-'),
    ),
  );

inChromium((name, driver) => {
  test(`${name}: under AV the reader chooses L = ½‖AV − Y‖² and walks dO = AV − Y, dV … dK; the link keeps it`, async () => {
    const page = await openOfflineFile(driver, '#step=9');
    assert.match(await title(page), /第 9 \/ 9 步/);
    await page.click('#loss-mse');
    await page.until(() => /loss=mse&y=10,0;0,10/.test(location.hash));
    assert.match(await stageText(page), /损失 L = 21\.8/);
    assert.match(await title(page), /第 9 \/ 14 步/, 'five backward steps after the nine (no W: Q, K, V given)');
    // Y typed in the loss box: a text that does not read is refused at its field, kept as typed.
    await page.evaluate(() => {
      document.getElementById('loss-matrix').value = '10 0\n0 x';
    });
    await page.click('#loss-apply');
    await page.until(() => document.getElementById('loss-matrix-error').textContent !== '');
    assert.equal(await page.evaluate(() => document.getElementById('loss-matrix').value), '10 0\n0 x');
    assert.match(await page.evaluate(() => location.hash), /y=10,0;0,10/, 'the last good Y stays');
    await page.evaluate(() => {
      document.getElementById('loss-matrix').value = '10 0\n0 8';
    });
    await page.click('#loss-apply');
    await page.until(() => /y=10,0;0,8/.test(location.hash));
    assert.equal(await page.evaluate(() => document.getElementById('loss-matrix-error').textContent), '');
    await page.evaluate(() => {
      document.getElementById('loss-matrix').value = '10 0\n0 10';
    });
    await page.click('#loss-apply');
    await page.until(() => /y=10,0;0,10/.test(location.hash));
    await page.click('#next');
    await page.until(() => document.querySelector('figure[data-name="gradOutput"]'));
    await stepInUrl(page, 10);
    assert.match(await title(page), /反向第 1 步/);
    assert.deepEqual(await matrixIn(page, 'gradOutput'), [
      ['-3.302', '3.302'],
      ['3.302', '-3.302'],
    ]);
    assert.deepEqual(await matrixIn(page, 'target'), [
      ['10', '0'],
      ['0', '10'],
    ]);
    // A number of dO expands: AV₁₁ − Y₁₁ = 6.698 − 10 = −3.302.
    await page.click('figure[data-name="gradOutput"] td.pick[data-i="0"][data-j="0"]');
    await page.until(() => !document.getElementById('cell-explain').hidden);
    assert.match((await popoverLines(page))[0], /6\.698-10=-3\.302$/);
    await page.keyboard.press('Escape');
    assert.deepEqual(await axeViolations(page), [], 'axe on the dO step');
    await page.click('.map-node[data-step="13"]');
    await page.until(() => document.querySelector('figure[data-name="gradScores"]'));
    assert.match(await title(page), /softmax/);
    assert.deepEqual(await matrixIn(page, 'gradScaled'), [
      ['-14.61', '14.61'],
      ['14.61', '-14.61'],
    ]);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: with L = (AV)₁₁ docs/api.md's gradients; dZ₁₁ = 0.6698·(10 − 6.698) = 2.212, term by term`, async () => {
    const page = await openOfflineFile(driver, '#step=13&lang=en&loss=given&dout=1,0;0,0');
    assert.match(await title(page), /Step 13 of 14/);
    assert.deepEqual(await matrixIn(page, 'gradScaled'), [
      ['2.212', '-2.212'],
      ['0', '0'],
    ]);
    assert.deepEqual(await matrixIn(page, 'gradScores'), [
      ['1.564', '-1.564'],
      ['0', '0'],
    ]);
    await page.click('figure[data-name="gradScaled"] td.pick[data-i="0"][data-j="0"]');
    await page.until(() => !document.getElementById('cell-explain').hidden);
    const lines = await popoverLines(page);
    assert.equal(lines.length, 2);
    assert.match(lines[0], /0\.6698·10\+0\.3302·0=6\.698$/, 'the row’s Σ_t A_1t·dA_1t');
    assert.match(lines[1], /0\.6698·\(10-6\.698\)=2\.212$/);
    // Made of row 1 of A and of dA, marked.
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('figure[data-name="gradWeights"] tr.hl-row').length),
      1,
    );
    await page.keyboard.press('Escape');
    await page.click('#next');
    await page.until(() => document.querySelector('figure[data-name="gradQ"]'));
    assert.deepEqual(await matrixIn(page, 'gradQ'), [
      ['1.564', '-1.564'],
      ['0', '0'],
    ]);
    assert.deepEqual(await matrixIn(page, 'gradK'), [
      ['1.564', '0'],
      ['-1.564', '0'],
    ]);
    assert.deepEqual(await axeViolations(page), [], 'axe on the dQ, dK step');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the training lab opens its probe's training step in the stepper, dO given, through to dW`, async () => {
    const page = await openOfflineFile(
      driver,
      '#view=train-lab&lang=en&traintask=reverse&trainseed=7&traindk=8&trainsteps=100',
    );
    await page.until(() => !document.getElementById('train-where').hidden, undefined, 30000);
    await page.click('#train-step');
    await page.until(() => document.getElementById('train-status').dataset.steps === '1', undefined, 30000);
    await page.until(() => document.getElementById('train-walk').getAttribute('aria-disabled') === 'false');
    await page.click('#train-walk');
    await page.until(
      () => /loss=given/.test(location.hash) && document.querySelector('figure[data-name="gradOutput"]'),
    );
    assert.doesNotMatch(await page.evaluate(() => location.hash), /view=/, 'the stepper');
    assert.match(await title(page), /Step 10 of 15 Backward 1/);
    assert.match(await stageText(page), /dO is given as it is/);
    const dO = await matrixIn(page, 'gradOutput');
    assert.equal(dO.length, 6, 'one row per probe token');
    assert.equal(dO[0].length, 8, 'd_k = 8 of the one head');
    await page.click('.map-node[data-step="15"]');
    await page.until(() => document.querySelector('figure[data-name="gradWq"]'));
    assert.match(await title(page), /dW/);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
