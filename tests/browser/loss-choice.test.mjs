// The loss's choice and a link's loss, in Chromium and in Firefox, on the offline file:
// - issue 26, item 5: the chosen loss's radio button is checked, on a click and on a fresh link, and
//   the document holds one radio group named `loss` however many steps' loss boxes the stage keeps
//   (a kept, hidden copy took the check before);
// - issue 29: a hand-written `#step=9&loss=mse` without its Y opens with the rest of the link kept
//   and the notice naming the field; undoing a preset change shows the preset's name again, and
//   offers Redo at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile, setField, stepInUrl } from './drivers.mjs';

/** The radio buttons named `loss` in the whole document, and which of them is checked. */
const lossRadios = (page) =>
  page.evaluate(() => {
    const radios = [...document.querySelectorAll('input[type="radio"][name="loss"]')];
    return { count: radios.length, checked: radios.filter((r) => r.checked).map((r) => r.value) };
  });

/** Waits until the stage holds a second loss box: the next or the previous step's, kept hidden. */
const keptCopy = (page) => page.until(() => document.querySelectorAll('.loss-choice').length >= 2);

inEachEngine((name, driver) => {
  test(`${name}: the chosen loss is checked, on a click and on a fresh link; one radio group named loss`, async () => {
    const page = await openOfflineFile(driver, '#step=9');
    await page.click('#loss-mse');
    await page.until(() => location.hash.includes('loss=mse'));
    await keptCopy(page); // the dO step's box, made ahead while the reader reads
    assert.deepEqual(await lossRadios(page), { count: 3, checked: ['mse'] });
    await page.click('#loss-given');
    await page.until(() => location.hash.includes('loss=given'));
    await keptCopy(page);
    assert.deepEqual(await lossRadios(page), { count: 3, checked: ['given'] });
    await page.closeAll();

    const fresh = await openOfflineFile(driver, '#step=10&loss=given&dout=1,0;0,0');
    assert.deepEqual(await lossRadios(fresh), { count: 3, checked: ['given'] });
    await fresh.click('#prev');
    await stepInUrl(fresh, 9);
    await keptCopy(fresh);
    assert.deepEqual(await lossRadios(fresh), { count: 3, checked: ['given'] }, 'under AV, the dO step kept');
    assert.deepEqual([...page.problems, ...fresh.problems], []);
    await fresh.closeAll();
  });

  test(`${name}: #step=9&loss=mse without y opens with the rest kept, the notice naming y`, async () => {
    const page = await openOfflineFile(driver, '#step=9&loss=mse');
    const notice = await page.evaluate(() => document.getElementById('notice').textContent);
    assert.match(notice, /loss=mse/);
    assert.match(notice, /矩阵 y\(/);
    assert.match(await page.evaluate(() => document.getElementById('step-title').textContent), /第 9 \/ 14 步/);
    assert.deepEqual(await lossRadios(page), { count: 3, checked: ['mse'] });
    await page.until(() => /loss=mse&y=0,0;0,0/.test(location.hash));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: undoing a preset change shows the preset's name again`, async () => {
    const page = await openOfflineFile(driver, '#step=3');
    const preset = () =>
      page.evaluate(() => {
        const select = document.getElementById('preset');
        return [select.value, select.selectedOptions[0].textContent];
      });
    const article = await preset();
    assert.equal(article[0], 'article');
    for (const chosen of ['cat', 'heads']) {
      await setField(page, '#preset', chosen);
      await page.until((p) => location.hash.includes(`preset=${p}`), chosen);
      await page.click('#undo');
      await page.until(() => location.hash.includes('preset=article'));
      assert.deepEqual(await preset(), article, `${chosen}, undone`);
      const redo = await page.evaluate(() => document.getElementById('redo').getAttribute('aria-disabled'));
      assert.equal(redo, 'false', 'Redo is offered at once');
      await page.click('#redo');
      await page.until((p) => location.hash.includes(`preset=${p}`), chosen);
      assert.equal((await preset())[0], chosen, `${chosen}, redone`);
      await page.click('#undo');
      await page.until(() => location.hash.includes('preset=article'));
    }
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
