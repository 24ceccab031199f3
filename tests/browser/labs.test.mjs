// Two of the labs as a reader uses them, in Debian's Chromium (why √d_k has its own file,
// scale-lab.test.mjs): the cost of n² (timed in a Worker while the page answers clicks,
// a slope near 2, a run stopped), and the exercise on the article's worked example (S₁₁ = 1,
// A₁₁ ≈ 0.67: accepted, "close", rejected, hints, the teacher's link).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './helpers.mjs';

let b;
before(async () => {
  b = await openBrowser();
});
after(async () => {
  await b?.close();
});

const hashOf = (page) => page.evaluate(() => location.hash);

test('the cost of n²: n = 64…512 timed in a Worker while a click is answered within 100 ms, slope between 1.6 and 2.4', async () => {
  const page = await b.open('#view=cost-lab&costmax=512');
  await page.click('#cost-run');
  await page.waitForSelector('.lab-cost[data-mode]');
  assert.equal(await page.getAttribute('.lab-cost', 'data-mode'), 'worker');
  // While it runs: a real click on the page (the language switch) is answered at once — from the
  // moment the browser took the click (event.timeStamp) to the page's change, a busy page thread
  // would show here as the click waiting in the queue.
  await page.evaluate(() => {
    window.answered = new Promise((resolve) => {
      document.getElementById('lang-switch').addEventListener(
        'click',
        (event) => {
          const seen = new MutationObserver(() => {
            seen.disconnect();
            resolve(performance.now() - event.timeStamp);
          });
          seen.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
        },
        { capture: true, once: true },
      );
    });
  });
  await page.click('#lang-switch');
  const answeredMs = await page.evaluate(() => window.answered);
  assert.ok(answeredMs <= 100, `the page answered in ${answeredMs.toFixed(1)} ms`);
  assert.equal(
    await page.getAttribute('.lab-cost', 'data-status'),
    'running',
    'a change of language does not stop the run',
  );
  await page.waitForSelector('.lab-cost[data-status="done"]', { timeout: 120000 });
  const slope = Number(await page.getAttribute('#cost-legend li[data-path="simd"]', 'data-slope'));
  assert.ok(slope >= 1.6 && slope <= 2.4, `SIMD path slope ${slope}`);
  assert.match(await page.textContent('#cost-legend li[data-path="simd"]'), /^SIMD path · slope \d\.\d\d$/);
  assert.equal(await page.$$eval('#cost-times tbody tr', (rows) => rows.length), 4, 'n = 64, 128, 256, 512');
  assert.match(await page.textContent('#cost-gflops'), /GFLOP\/s/);
  // The memory: at n = 8192 the step-by-step path's n² matrices exceed the core's 1 GiB.
  assert.match(await page.textContent('#cost-memory tbody tr:nth-child(8)'), /^8192.*✕/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the cost of n²: a long run stops at once, keeps what it measured, and the page answers', async () => {
  const page = await b.open('#view=cost-lab&costmax=4096');
  await page.click('#cost-run');
  await page.waitForFunction(() => document.querySelectorAll('#cost-times td.num').length >= 3, null, {
    timeout: 60000,
  });
  await page.click('#cost-stop');
  assert.equal(await page.getAttribute('.lab-cost', 'data-status'), 'stopped');
  assert.match(await page.textContent('#cost-status'), /已停止/);
  assert.ok((await page.$$eval('#cost-times td.num', (tds) => tds.length)) >= 3, 'the measurements stay');
  await page.click('#views a[data-view="steps"]');
  assert.equal(await page.isVisible('figure.matrix[data-name="scores"], figure.matrix[data-name="q"]'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the exercise: the worked example first — S₁₁ = 1, then A₁₁ ≈ 0.67 accepted, 0.7 "close", 0.5 wrong, hints step by step', async () => {
  const page = await b.open('#view=exercise');
  assert.match(await page.textContent('.ex-progress'), /^第 1 \/ 10 题/);
  assert.equal(await page.getAttribute('.ex-asked math', 'aria-label'), 'S 1,1 = ?');
  await page.focus('#ex-answer');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#ex-verdict', 'data-verdict'), 'correct');

  await page.focus('#ex-next');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert.match(await hashOf(page), /&ex=3&/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'ex-next', 'focus stays on "下一题"');
  assert.equal(await page.getAttribute('.ex-asked math', 'aria-label'), 'A 1,1 = ?');
  assert.equal(await page.inputValue('#ex-answer'), '', 'a new question starts empty');
  const answer = async (text) => {
    await page.fill('#ex-answer', '');
    await page.focus('#ex-answer');
    await page.keyboard.type(text);
    await page.click('#ex-check');
    return page.getAttribute('#ex-verdict', 'data-verdict');
  };
  assert.equal(await answer('0.5'), 'wrong');
  assert.equal(await answer('0.7'), 'close');
  assert.equal(await answer('abc'), 'unreadable');
  assert.match(await page.textContent('#ex-verdict'), /\S/, 'the reason is said next to the field');
  assert.equal(await page.getAttribute('#ex-answer', 'aria-invalid'), 'true');
  assert.equal(await answer('0.67'), 'correct');
  assert.match(await page.textContent('#ex-verdict'), /0\.67/);

  for (const step of ['dot', 'divide', 'exp', 'normalise']) {
    await page.click('#ex-hint');
    assert.equal(await page.getAttribute('.ex-hints li:last-child', 'data-step'), step);
  }
  assert.match(await page.textContent('.ex-hints li[data-step="divide"]'), /1 \/ 1\.414 = 0\.7071/);
  assert.match(await page.textContent('.ex-hints li[data-step="normalise"]'), /0\.6698/);
  assert.equal(await page.getAttribute('#ex-hint', 'aria-disabled'), 'true', 'no more hints for a weight');

  // The typed answer survives the switch to English.
  await page.fill('#ex-answer', '0.66');
  await page.click('#lang-switch');
  assert.equal(await page.inputValue('#ex-answer'), '0.66');
  assert.match(await page.textContent('.ex-progress'), /^Question 3 of 10 · 2 right so far$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("the exercise: a teacher's link fixes the series — three weights of seeded examples", async () => {
  const page = await b.open('#view=exercise&exlen=3&exseed=7&exkinds=weight&lang=en');
  const kinds = [];
  for (let q = 1; q <= 3; q++) {
    kinds.push(await page.getAttribute('.lab-exercise', 'data-kind'));
    if (q < 3) await page.click('#ex-next');
  }
  assert.deepEqual(kinds, ['weight', 'weight', 'weight']);
  assert.equal(await page.getAttribute('#ex-next', 'aria-disabled'), 'true', 'the series ends at 3');
  // The teacher's panel writes the link: five questions, outputs only.
  await page.click('#ex-teacher summary');
  await page.fill('#ex-len', '5');
  await page.dispatchEvent('#ex-len', 'change');
  await page.check('#ex-kind-output');
  await page.uncheck('#ex-kind-weight');
  const hash = await hashOf(page);
  assert.match(hash, /ex=1&exlen=5&exseed=7&exdigits=2&exkinds=output&exfrom=series/);
  assert.equal(await page.getAttribute('.lab-exercise', 'data-kind'), 'output');
  // A length the series cannot have is refused next to its field; the link keeps 5.
  await page.fill('#ex-len', '99');
  await page.dispatchEvent('#ex-len', 'change');
  assert.match(await page.textContent('#ex-len-error'), /from 1 to 50/);
  assert.match(await hashOf(page), /exlen=5&/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
