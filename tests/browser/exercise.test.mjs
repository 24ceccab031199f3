// The exercise view (view=exercise) in Chromium: the series opens on S₁₁ of the worked example;
// answers are checked at the rounding asked for (correct, close, wrong, unreadable with the parse
// error next to the field); hints reveal the sub-steps in order; Next/Previous move through the
// series with focus staying on the button pressed; a teacher's link fixes the series and the
// teacher's panel writes it; a language switch keeps the typed answer; keyboard only, axe clean in
// both themes, no sideways scroll at 375 px; and in a sandboxed embed, Enter still checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, announced, axeViolations, urlWritten } from './helpers.mjs';
import { pythonServer } from './static-server.mjs';

const b = browserForFile();

const text = (page, selector) => page.locator(selector).innerText();
const asked = (page) => page.locator('.ex-ask-math math').getAttribute('aria-label');
const verdictClass = (page) => page.locator('#ex-verdict').getAttribute('class');
const focusedId = (page) => page.evaluate(() => document.activeElement?.id);
// A field of the URL as the page writes it once the frame that shows a change is painted.
const hashField = async (page, key) => {
  await urlWritten(page);
  return page.evaluate((k) => new URLSearchParams(location.hash.slice(1)).get(k), key);
};

/** Types `answer` into the empty answer field from the keyboard and presses Enter. */
async function answerWith(page, answer) {
  await page.focus('#ex-answer');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(answer);
  await page.keyboard.press('Enter');
}

test('the series opens on S₁₁ of the worked example, and the right answer typed is accepted', async () => {
  const page = await b.open('#view=exercise');
  assert.equal(await text(page, '#ex-position'), '第 1 / 10 题');
  assert.equal(await text(page, '.ex-source'), '第 7 节的手算例子');
  assert.equal(await asked(page), 'S₁₁ = ?');
  assert.equal(await page.locator('#ex-answer').getAttribute('inputmode'), 'decimal');
  assert.equal(await page.locator('label[for="ex-answer"]').innerText(), '你的答案');
  // The example's Q, K, V as the page draws them, with q₁ and k₁ marked; the "?" in S's first cell.
  assert.deepEqual(await page.locator('#m-ex-v td.c').allInnerTexts(), ['10', '0', '0', '10']);
  assert.equal(await page.locator('#m-ex-q tr.hl-row').getAttribute('data-i'), '0');
  assert.equal(await page.locator('#m-ex-k tr.hl-row').getAttribute('data-i'), '0');
  assert.equal(await page.locator('.ex-unknown td.ex-cell').innerText(), '?');

  await answerWith(page, '1');
  assert.match(await verdictClass(page), /\bcorrect\b/);
  assert.equal(await text(page, '#ex-verdict'), '✓ 正确:S₁₁ ≈ 1.00');
  assert.equal(await announced(page), '✓ 正确:S₁₁ ≈ 1.00', 'the verdict is announced');
  assert.match(await text(page, '.ex-score'), /^答对 1 题/);
  assert.equal(await page.locator('.ex-dots li.solved').count(), 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('A₁₁ ≈ 0.67 (ex=3): "0.67" is correct, "0.7" is close (check the rounding), "0.5" is wrong; full-width digits are read', async () => {
  const page = await b.open('#view=exercise&ex=3');
  assert.equal(await asked(page), 'A₁₁ = ?');
  await answerWith(page, '0.7');
  assert.match(await verdictClass(page), /\bclose\b/);
  assert.match(await text(page, '#ex-verdict'), /四舍五入/);
  await answerWith(page, '0.5');
  assert.match(await verdictClass(page), /\bwrong\b/);
  assert.match(await text(page, '#ex-verdict'), /^✗/);
  assert.match(await text(page, '.ex-score'), /^答对 0 题 · 已做 1 \/ 10 题/);
  await answerWith(page, '０.６７');
  assert.match(await verdictClass(page), /\bcorrect\b/);
  await answerWith(page, '0.67');
  assert.match(await verdictClass(page), /\bcorrect\b/);
  assert.equal(await text(page, '#ex-verdict'), '✓ 正确:A₁₁ ≈ 0.67');
  assert.match(await text(page, '.ex-score'), /^答对 1 题/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('hints reveal the dot products, then the division, the exp and the normalisation; "Show answer" the rest', async () => {
  const page = await b.open('#view=exercise&ex=3');
  assert.equal(await page.locator('.ex-steps').isHidden(), true);
  assert.equal(await text(page, '#ex-hint'), '提示(0/4)');
  await page.focus('#ex-hint');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('.ex-steps-list li').count(), 1);
  assert.match(await text(page, '.ex-steps-list li:nth-child(1)'), /^点积/);
  assert.deepEqual(await page.locator('.ex-steps-list li:nth-child(1) .ex-step-line').allInnerTexts(), [
    'S₁₁ = q₁·k₁ = 1×1 + 0×0 = 1',
    'S₁₂ = q₁·k₂ = 1×0 + 0×1 = 0',
  ]);
  await page.keyboard.press('Enter');
  assert.match(
    await text(page, '.ex-steps-list li:nth-child(2)'),
    /^缩放:除以 √dₖ\n√2 = 1.414\n1 \/ 1.414 = 0.7071, 0 \/ 1.414 = 0$/,
  );
  assert.equal(await focusedId(page), 'ex-hint', 'focus stays on Hint');
  await page.keyboard.press('Enter');
  assert.match(await text(page, '.ex-steps-list li:nth-child(3)'), /^取指数/);
  await page.keyboard.press('Enter');
  assert.match(await text(page, '.ex-steps-list li:nth-child(4)'), /A₁₁ = 1 \/ 1.493 = 0.6698/);
  assert.equal(await text(page, '#ex-hint'), '提示已全部显示');
  await page.keyboard.press('Enter'); // nothing more to reveal
  assert.equal(await page.locator('.ex-steps-list li').count(), 4);
  assert.equal(await focusedId(page), 'ex-hint');

  // The answer shown: no longer counted as solved, even when typed afterwards.
  await page.click('#ex-show');
  assert.equal(await text(page, '.ex-solution'), '答案:A₁₁ ≈ 0.67(计算核心算得 0.6698)');
  await answerWith(page, '0.67');
  assert.match(await verdictClass(page), /\bcorrect\b/);
  assert.match(await text(page, '.ex-score'), /^答对 0 题 · 已做 1 \/ 10 题/);
  assert.equal(await page.locator('.ex-dots li.shown').count(), 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Next and Previous move through the series from the keyboard, focus staying on the button pressed; each question keeps its answer', async () => {
  const page = await b.open('#view=exercise');
  await page.focus('#ex-answer');
  await page.keyboard.type('1');
  await page.focus('#ex-next');
  await page.keyboard.press('Enter');
  assert.equal(await text(page, '#ex-position'), '第 2 / 10 题');
  assert.equal(await hashField(page, 'ex'), '2');
  assert.equal(await asked(page), 'S₁₁/√2 = ?');
  assert.equal(await focusedId(page), 'ex-next');
  assert.equal(await page.inputValue('#ex-answer'), '', 'a new question starts empty');
  assert.match(await announced(page), /^第 2 \/ 10 题:S₁₁\/√2 = \?$/);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.equal(await asked(page), 'A₁₂ = ?');
  // Shift+Tab reaches Previous from Next: the two are neighbours in the tab order.
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focusedId(page), 'ex-prev');
  for (let k = 0; k < 4; k++) await page.keyboard.press('Enter'); // the last press is on question 1
  assert.equal(await text(page, '#ex-position'), '第 1 / 10 题');
  assert.equal(await page.locator('#ex-prev').getAttribute('aria-disabled'), 'true');
  assert.equal(await focusedId(page), 'ex-prev');
  assert.equal(await page.inputValue('#ex-answer'), '1', 'question 1 kept what was typed');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the score and the answers outlast a visit to the stepper', async () => {
  const page = await b.open('#view=exercise');
  await answerWith(page, '1');
  await page.click('.views a[data-view="steps"]');
  assert.equal(await page.locator('.lab-exercise').count(), 0, 'the view is closed');
  await page.click('.views a[data-view="exercise"]');
  assert.match(await text(page, '.ex-score'), /^答对 1 题/);
  assert.equal(await page.inputValue('#ex-answer'), '1');
  assert.match(await verdictClass(page), /\bcorrect\b/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a teacher's link (exlen=3&exseed=7&exkinds=weight) gives a series of three weight questions", async () => {
  const page = await b.open('#view=exercise&exlen=3&exseed=7&exkinds=weight');
  const labels = [];
  for (let n = 1; n <= 3; n++) {
    assert.equal(await text(page, '#ex-position'), `第 ${n} / 3 题`);
    labels.push(await asked(page));
    if (n < 3) await page.click('#ex-next');
  }
  assert.deepEqual(labels.slice(0, 2), ['A₁₁ = ?', 'A₁₂ = ?'], "the worked example's weights first");
  assert.match(labels[2], /^A[₁₂₃]{2} = \?$/);
  assert.equal(await text(page, '.ex-source'), '随机小例子');
  assert.equal(await page.locator('#ex-next').getAttribute('aria-disabled'), 'true');
  await page.focus('#ex-next');
  await page.keyboard.press('Enter');
  assert.equal(await hashField(page, 'ex'), '3', 'no question 4');
  assert.equal(await page.locator('.ex-dots li').count(), 3);
  // The teacher's panel shows the link's series.
  await page.click('#ex-teacher summary');
  assert.equal(await page.inputValue('#ex-len'), '3');
  assert.equal(await page.inputValue('#ex-seed'), '7');
  assert.deepEqual(
    await Promise.all(['score', 'scaled', 'weight', 'output'].map((k) => page.isChecked(`#ex-kind-${k}`))),
    [false, false, true, false],
  );
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("the teacher's panel writes the link's fields, with errors next to the field", async () => {
  const page = await b.open('#view=exercise&ex=4');
  await page.click('#ex-teacher summary');
  await page.fill('#ex-len', '3');
  await page.press('#ex-len', 'Enter');
  assert.equal(await hashField(page, 'exlen'), '3');
  assert.equal(await hashField(page, 'ex'), '3', 'the open question stays within the series');
  assert.equal(await text(page, '#ex-position'), '第 3 / 3 题');

  await page.fill('#ex-len', '0');
  await page.press('#ex-len', 'Enter');
  assert.equal(await text(page, '#ex-len-error'), '题数必须是 1 到 50 之间的整数。');
  assert.equal(await page.locator('#ex-len').getAttribute('aria-invalid'), 'true');
  assert.equal(await hashField(page, 'exlen'), '3', 'an invalid length is not written');
  await page.fill('#ex-seed', 'abc');
  await page.press('#ex-seed', 'Enter');
  assert.equal(await text(page, '#ex-seed-error'), '"abc"不是数字。');
  await page.fill('#ex-seed', '42');
  await page.press('#ex-seed', 'Enter');
  assert.equal(await text(page, '#ex-seed-error'), '');
  assert.equal(await hashField(page, 'exseed'), '42');
  assert.equal(await hashField(page, 'ex'), '1', 'a new seed is a new series, from its first question');
  assert.equal(await page.inputValue('#ex-len'), '0', 'the length in error stays as typed');

  await page.fill('#ex-len', '５');
  await page.press('#ex-len', 'Enter');
  assert.equal(await hashField(page, 'exlen'), '5', 'full-width digits are read');
  await page.fill('#ex-digits', '1');
  await page.press('#ex-digits', 'Enter');
  assert.equal(await hashField(page, 'exdigits'), '1');
  assert.equal(await text(page, '#ex-round'), '答案保留 1 位小数。');

  // Kinds: unticking all is refused; ticking adds at the end, in the order ticked.
  for (const kind of ['score', 'scaled', 'weight']) await page.uncheck(`#ex-kind-${kind}`);
  assert.equal(await hashField(page, 'exkinds'), 'output');
  await page.uncheck('#ex-kind-output');
  assert.equal(await text(page, '#ex-kinds-error'), '至少选一种题型。');
  assert.equal(await hashField(page, 'exkinds'), 'output');
  await page.check('#ex-kind-weight');
  assert.equal(await hashField(page, 'exkinds'), 'weight');
  await page.check('#ex-kind-score');
  assert.equal(await hashField(page, 'exkinds'), 'weight,score');
  assert.equal(await text(page, '#ex-kinds-error'), '');

  // The page's example: the stepper's Q, K, V.
  await page.check('#ex-from-page');
  assert.equal(await hashField(page, 'exfrom'), 'page');
  assert.equal(await text(page, '.ex-source'), '页面当前的例子');
  assert.deepEqual(await page.locator('#m-ex-q td.c').allInnerTexts(), ['1', '0', '0', '1']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a page example too large for a table (n = 20), the figures are Q, K, V alone: no empty grid, no stray text', async () => {
  const page = await b.open('#view=exercise&exfrom=page&preset=random&n=20');
  await page.waitForSelector('#m-ex-q');
  assert.equal(await hashField(page, 'exfrom'), 'page');
  assert.equal(await page.locator('.ex-unknown').count(), 0);
  const nodes = await page.evaluate(() => [...document.querySelector('.ex-figures').childNodes].map((n) => n.nodeName));
  assert.deepEqual(nodes, ['DIV'], 'only the inputs, no text beside them');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("the English switch keeps the typed answer; an unreadable one shows its error next to the field, in the reader's language", async () => {
  const page = await b.open('#view=exercise&ex=3');
  await answerWith(page, 'abc');
  assert.equal(await text(page, '#ex-answer-error'), '"abc"不是数字。');
  assert.equal(await page.locator('#ex-answer').getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('#ex-answer').getAttribute('aria-describedby'), /\bex-answer-error\b/);
  assert.equal(await text(page, '#ex-verdict'), '', 'no verdict on what could not be read');
  await page.click('#lang-switch');
  assert.equal(await text(page, '#ex-answer-error'), '"abc" is not a number.');
  assert.equal(await page.inputValue('#ex-answer'), 'abc');

  await page.focus('#ex-answer');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('0.6');
  assert.equal(await text(page, '#ex-answer-error'), '', 'typing again clears the error');
  await page.click('#lang-switch');
  assert.equal(await page.inputValue('#ex-answer'), '0.6', 'typed, not checked, and still there in Chinese');
  assert.equal(await page.locator('label[for="ex-answer"]').innerText(), '你的答案');
  await page.click('#lang-switch');
  assert.equal(await page.locator('label[for="ex-answer"]').innerText(), 'Your answer');
  assert.equal(await page.inputValue('#ex-answer'), '0.6');
  await answerWith(page, '');
  assert.equal(await text(page, '#ex-answer-error'), 'Type a number first.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [lang, scheme, width] of [
  ['zh-CN', 'light', 1280],
  ['en', 'dark', 1280],
  ['zh-CN', 'dark', 375],
  ['en', 'light', 375],
]) {
  test(`axe finds no violation, and nothing scrolls sideways (${lang}, ${scheme}, ${width} px)`, async () => {
    const page = await b.open(`#view=exercise&lang=${lang}&ex=5`, {
      colorScheme: scheme,
      viewport: { width, height: 800 },
    });
    await answerWith(page, '6.6');
    await page.click('#ex-hint');
    await page.click('#ex-hint');
    await page.click('#ex-teacher summary');
    await page.fill('#ex-len', '99');
    await page.press('#ex-len', 'Enter');
    assert.deepEqual(await axeViolations(page), []);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
    await screenshot(page, `exercise-${lang}-${scheme}-${width}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test("embedded in a sandboxed frame (#embed=1&view=exercise): the question without the teacher's panel, Enter checks", async () => {
  const site = await pythonServer('dist/site');
  const context = await b.browser.newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    await page.setContent(`<iframe sandbox="allow-scripts" title="exercise" style="width: 100%; height: 900px"
      src="${site.url}index.html#embed=1&view=exercise&lang=en"></iframe>`);
    const frame = await (await page.$('iframe')).contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    assert.equal(await frame.locator('.top').isHidden(), true);
    assert.equal(await frame.locator('#ex-teacher').isHidden(), true);
    assert.equal(await frame.locator('#ex-position').innerText(), 'Question 1 of 10');
    await frame.focus('#ex-answer');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    assert.equal(await frame.locator('#ex-verdict').innerText(), '✓ Correct: S₁₁ ≈ 1.00');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.stop();
  }
});
