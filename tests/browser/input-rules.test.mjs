// Issue 19 item 8: what the page says about a number matches the number. The offline file, in
// Chromium and in Firefox, applies wasm/vocabulary.mjs's rules — the API's — at the temperature
// field, at a matrix cell and in a link: τ = 1e-46 is below float32's smallest number (not "0"),
// 1e39 beyond its largest (not "±∞ in the core"), 3.4028235e38 is accepted as float32's largest,
// and a 400-digit cell is too large, as 1e39 is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile, matrixIn, setField } from './drivers.mjs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh-CN.js';

const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
const MAX = '3.4028235×10³⁸'; // float32's largest number, as the page writes it
const MIN = '1.4×10⁻⁴⁵'; // float32's smallest positive number

const text = (page, selector) => page.evaluate((s) => document.querySelector(s).textContent, selector);

inChromium((name, driver) => {
  test(`${name}: the temperature field names float32's limits, in English and Chinese`, async () => {
    for (const [lang, words] of [
      ['en', en],
      ['zh-CN', zh],
    ]) {
      const page = await openOfflineFile(driver, `#lang=${lang}&step=4`);
      const cases = [
        ['1e-46', fill(words['err.temperatureBelow'], { value: '1e-46', min: MIN })],
        ['1e39', fill(words['err.temperatureAbove'], { value: '1e39', max: MAX })],
        ['9'.repeat(400), fill(words['err.temperatureAbove'], { value: '9'.repeat(400), max: MAX })],
        ['0', words['err.temperature']],
      ];
      for (const [typed, message] of cases) {
        await setField(page, '#temperature', typed);
        await page.until((s) => document.querySelector(s).textContent !== '', '#err-temperature');
        assert.equal(await text(page, '#err-temperature'), message, `${lang} τ = ${typed.slice(0, 8)}`);
        assert.doesNotMatch(message, /it is 0|现在是 0|\binf\b/);
      }
      // The two ends of float32 are accepted: 1e-45 rounds to its smallest number, 3.4028235e38 to its largest.
      for (const typed of ['1e-45', '3.4028235e38']) {
        await setField(page, '#temperature', typed);
        await page.until((s) => document.querySelector(s).textContent === '', '#err-temperature');
        await page.until(
          (v) => Number(decodeURIComponent(/temperature=([^&]*)/.exec(location.hash)[1])) === v,
          Number(typed),
        );
      }
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });

  test(`${name}: a cell takes 3.4028235e38, and calls 1e39 and 400 digits the same: too large`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=1');
    await setField(page, '#in-q-0-1', '3.4028235e38');
    await page.until(() => decodeURIComponent(location.hash).includes('&q=1,3.4028235e+38;'));
    assert.equal(await text(page, '#err-q'), '');
    for (const typed of ['1e39', '9'.repeat(400)]) {
      await setField(page, '#in-q-0-1', typed);
      await page.until((s) => document.querySelector(s).textContent !== '', '#err-q');
      const said = await text(page, '#err-q');
      assert.ok(
        said.includes(
          fill(en['err.tooLarge'], { text: typed.slice(0, 24) + (typed.length > 24 ? '…' : ''), max: MAX }),
        ),
        said,
      );
      assert.ok(!said.includes('∞ (infinity)'), said);
    }
    await setField(page, '#in-q-0-1', 'Infinity');
    await page.until((s) => document.querySelector(s).textContent.includes('(infinity)'), '#err-q');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: a link with τ = 1e-46 or 1e39 opens as it says, with τ = 1 and a notice naming why`, async () => {
    for (const [tau, lang, words, key, limit] of [
      ['1e-46', 'en', en, 'err.temperatureBelow', { min: MIN }],
      ['1e39', 'zh-CN', zh, 'err.temperatureAbove', { max: MAX }],
    ]) {
      const page = await openOfflineFile(
        driver,
        `#lang=${lang}&step=9&preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0,1&k=1,0;0,1&v=1,2;3,4&temperature=${tau}`,
      );
      const message = fill(words[key], { value: tau, ...limit });
      assert.equal(await text(page, '#notice'), fill(words['notice.linkTemperature'], { message }));
      assert.notEqual(await text(page, '#notice'), words['notice.badHash']);
      // The rest of the link holds: step 9, its own V, computed at τ = 1.
      assert.deepEqual(await matrixIn(page, 'v'), [
        ['1', '2'],
        ['3', '4'],
      ]);
      assert.equal(await page.evaluate(() => document.querySelector('#temperature').value), '1');
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });
});
