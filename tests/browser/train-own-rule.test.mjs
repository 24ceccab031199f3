// The training lab's own rule (issue 26, item 7) in Chromium, in the offline file: the reader types
// a vocabulary (甲乙丙丁) and a rule as pairs, Play trains the layer on them until the held-out
// accuracy (on those pairs) reaches 0.9 and the page says so, and A on the probe — the first pair's
// input — is labelled with the reader's words. The link then holds the rule.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile, setField } from './drivers.mjs';
import { axeViolations, screenshot } from './helpers.mjs';

// Reverse over 甲乙丙丁, typed as 4 pairs (the first is the probe): learned within 100 steps.
const PAIRS = ['甲乙丙丁 → 丁丙乙甲', '丁丁甲乙 → 乙甲丁丁', '乙丙丙甲 → 甲丙丙乙', '丙甲丁乙 → 乙丁甲丙'].join('\n');

inChromium((name, driver) => {
  test(`${name}: a vocabulary and a rule typed as pairs are learned, the words label A, the link holds them`, async () => {
    const page = await openOfflineFile(driver, '#view=train-lab&lang=en&traintask=own&trainseed=8&trainsteps=100');
    await page.until(() => document.querySelector('#train-where:not([hidden])') !== null);
    await setField(page, '#train-vocab', '甲 乙 丙 丁');
    await setField(page, '#train-pairs', PAIRS);
    await page.until(() => new URLSearchParams(location.hash.slice(1)).get('trainrule') === 'typed');
    await page.until(() => document.querySelector('#train-status').dataset.steps === '0');
    await page.click('#train-play');
    await page.until(() => document.querySelector('#train-status').dataset.steps === '100', { timeout: 120000 });
    const verdict = await page.evaluate(() => document.querySelector('#train-task-note').dataset.verdict);
    assert.equal(verdict, 'learned');
    const heads = await page.$$eval('.train-a thead th[scope=col]', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(heads.slice(0, 4), ['甲', '乙', '丙', '丁'], 'A labelled with the reader’s words');
    const hash = new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
    assert.equal(hash.get('trainvocab'), '甲,乙,丙,丁');
    assert.equal(hash.get('trainpairs').split(';')[0], '甲,乙,丙,丁>丁,丙,乙,甲');
    await screenshot(page, 'train-own-rule');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: a link whose vocabulary repeats a word: the notice names trainvocab, the rest of the link opens`, async () => {
    const page = await openOfflineFile(
      driver,
      `#view=train-lab&lang=en&traintask=own&trainseed=42&trainrule=first&trainvocab=${encodeURIComponent('甲,甲')}`,
    );
    const notice = await page.evaluate(() => document.getElementById('notice').textContent);
    assert.equal(
      notice,
      'This link\'s trainvocab field ("甲,甲") cannot be read and was left at its default; the rest of the link opens as it is.',
    );
    assert.equal(await page.evaluate(() => document.getElementById('train-rule').value), 'first');
    assert.equal(await page.evaluate(() => document.getElementById('train-seed').value), '42');
    assert.equal(await page.evaluate(() => document.getElementById('train-vocab').value), '甲 乙 丙 丁');
    await page.closeAll();
  });
});
