// The reader's own words (issue 29, item 2), in Chromium on the offline file: typed into the input
// panel's field on the article's worked example (Q = K = I₂, V = 10·I₂, the AV step):
// - "我 爱 你" does not fit n = 2: the message stands at the field, the field keeps the text, and
//   nothing else changes (the numbers, the link);
// - "猫 狗" labels the rows (and the columns of A), the AV step's word lines, a popover's heading
//   the JSON export and the printed handout; the link the page writes opens again with them;
// - n = 3 keeps both words and numbers the new row; words waiting in the field are taken when n
//   becomes their count; a hand-written link with too many words opens with the field named.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, matrixIn, openOfflineFile, urlWritten, CATCH_EXPORTS } from './drivers.mjs';

const texts = (page, selector) =>
  page.evaluate((sel) => [...document.querySelectorAll(sel)].map((el) => el.textContent.trim()), selector);
const hash = (page) => page.evaluate(() => location.hash);

/** Types `text` into the words field as a reader does, and leaves it (its change event). */
async function typeWords(page, text) {
  await page.fill('#words', text);
  await page.press('#words', 'Tab');
}

/** What the page shows as the rows' words at the AV step: A's rows and columns, the word lines. */
const shownWords = async (page) => ({
  rows: await texts(page, '#stage-body figure.matrix[data-name="weights"]:not(.kept *) tbody th[scope="row"]'),
  cols: await texts(page, '#stage-body figure.matrix[data-name="weights"]:not(.kept *) thead th[scope="col"]'),
  lines: await texts(page, '#stage-body .word-lines .wl-words.left .word'),
});

inChromium((name, driver) => {
  test(`${name}: words typed on the worked example label its rows, its word lines, a popover and the JSON; the link keeps them`, async () => {
    const page = await openOfflineFile(driver, '#step=9&lang=zh-CN');
    await page.evaluate(CATCH_EXPORTS);
    const numbers = await matrixIn(page, 'weights');
    assert.deepEqual(numbers, [
      ['0.6698', '0.3302'],
      ['0.3302', '0.6698'],
    ]);
    const before = await hash(page);
    assert.equal(await page.inputValue('#words'), '', 'the worked example has no words: its rows are numbered');

    // Three words for two rows: said at the field, the reader's text and everything else kept.
    await typeWords(page, '我 爱 你');
    await page.until(() => document.getElementById('err-words').textContent !== '');
    assert.equal(
      await page.textContent('#err-words'),
      '词数为 3,而行数 n = 2:一个词标注一行,词数要等于 n(或把 n 改成 3)。',
    );
    assert.equal(await page.getAttribute('#words', 'aria-invalid'), 'true');
    assert.equal(await page.inputValue('#words'), '我 爱 你');
    assert.deepEqual(await matrixIn(page, 'weights'), numbers);
    await urlWritten(page);
    assert.equal(await hash(page), before);

    // Two words: everywhere.
    await typeWords(page, '猫 狗');
    await page.until(() => location.hash.includes('words='));
    assert.equal(await page.textContent('#err-words'), '');
    assert.equal(await page.getAttribute('#words', 'aria-invalid'), null);
    assert.deepEqual(await shownWords(page), { rows: ['猫', '狗'], cols: ['猫', '狗'], lines: ['猫', '狗'] });
    assert.deepEqual(await matrixIn(page, 'weights'), numbers, 'the words change no number');
    await page.click('#stage-body figure.matrix[data-name="output"]:not(.kept *) td.pick[data-i="1"][data-j="0"]');
    await page.until(() => /狗/.test(document.getElementById('explain-title')?.textContent ?? ''));
    assert.equal(await page.textContent('#explain-title'), '“狗”的输出,第 1 维:按权重混合各词的 Value');
    await page.evaluate(() => document.getElementById('export-json').click());
    await page.until(() => window.exported.length > 0);
    const json = JSON.parse(await page.evaluate(() => window.exported.at(-1)));
    assert.deepEqual(json.words, ['猫', '狗']);
    assert.deepEqual(json.steps.weights.data, [
      [0.66976154, 0.33023846],
      [0.33023846, 0.66976154],
    ]);

    // The printed handout: every matrix whose rows are the words has them beside its rows.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await page.until(() => document.querySelector('#handout table.printed th[scope="row"]'));
    const printedRows = await texts(page, '#handout table.printed th[scope="row"]');
    assert.ok(printedRows.length >= 4, printedRows.join(' '));
    assert.ok(
      printedRows.every((word, k) => word === ['猫', '狗'][k % 2]),
      printedRows.join(' '),
    );

    // The link: the worked example with the words, opened afresh.
    await urlWritten(page);
    const link = await hash(page);
    assert.match(link, /preset=article/);
    assert.equal(new URLSearchParams(link.slice(1)).get('words'), '猫,狗');
    const reopened = await openOfflineFile(driver, link);
    assert.equal(await reopened.textContent('#notice'), '');
    assert.equal(await reopened.inputValue('#words'), '猫 狗');
    assert.deepEqual(await shownWords(reopened), { rows: ['猫', '狗'], cols: ['猫', '狗'], lines: ['猫', '狗'] });

    // n = 3: the two words stay, the new row shows its number.
    await reopened.fill('#size-n', '3');
    await reopened.press('#size-n', 'Tab');
    await reopened.until(() => /(?:^#|&)n=3(&|$)/.test(location.hash));
    assert.equal(await reopened.inputValue('#words'), '猫 狗 3');
    assert.deepEqual((await shownWords(reopened)).rows, ['猫', '狗', '3']);

    assert.deepEqual([...page.problems, ...reopened.problems], []);
    await page.closeAll();
    await reopened.closeAll();
  });

  test(`${name}: words that do not fit n wait in the field; n changed to their count takes them`, async () => {
    const page = await openOfflineFile(driver, '#step=9&lang=en');
    await typeWords(page, 'I love you');
    await page.until(() => document.getElementById('err-words').textContent !== '');
    assert.equal(
      await page.textContent('#err-words'),
      'Words: 3, rows: n = 2. Each word labels one row, so there must be n of them (or set n to 3).',
    );
    await page.fill('#size-n', '3');
    await page.press('#size-n', 'Tab');
    await page.until(() => /(?:^#|&)n=3(&|$)/.test(location.hash));
    await page.until(() => document.querySelectorAll('.word-lines .wl-words.left .word').length === 3);
    assert.deepEqual((await shownWords(page)).lines, ['I', 'love', 'you']);
    assert.equal(await page.textContent('#err-words'), '');
    assert.equal(new URLSearchParams((await hash(page)).slice(1)).get('words'), 'I,love,you');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: a hand-written link with three words for n = 2 opens with two of them, and the notice names the field`, async () => {
    const page = await openOfflineFile(driver, '#step=9&lang=en&words=I,love,you');
    assert.equal(
      await page.textContent('#notice'),
      "This link's words field has 3 words for n = 2: the extra words were dropped and rows without one are numbered; the rest of the link opens as it is.",
    );
    assert.equal(await page.inputValue('#words'), 'I love');
    assert.deepEqual(await matrixIn(page, 'weights'), [
      ['0.6698', '0.3302'],
      ['0.3302', '0.6698'],
    ]);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
