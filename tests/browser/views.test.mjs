// The four views of the page — the nine steps and the three labs (state.js's VIEWS) — as a reader
// meets them: the switch under the header, a link to each, axe-core with no violation at all in
// each view (Chinese and light, English and dark), no sideways page scroll on a 375 px phone, and
// every control of a lab reached with the Tab key alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, stepInUrl, urlWritten, axeViolations } from './helpers.mjs';

const VIEWS = ['steps', 'scale-lab', 'cost-lab', 'exercise', 'efficiency-lab'];
// Each lab at a setting a lesson would use: the scale lab at d_k = 256, the cost lab ready to time
// up to n = 512, the exercise at the worked example's A₁₁ (≈ 0.67), the efficiency lab's tiles on it.
const LINKS = {
  steps: '#step=8',
  'scale-lab': '#view=scale-lab&labdk=256',
  'cost-lab': '#view=cost-lab&costmax=512',
  exercise: '#view=exercise&ex=3',
  'efficiency-lab': '#view=efficiency-lab',
};

const b = browserForFile();

test('the view switch: each view is a link of its own, and the stepper keeps its step', async () => {
  const page = await b.open('#step=3');
  const tabs = await page.$$eval('#views a', (links) =>
    links.map((a) => [a.dataset.view, a.textContent, a.getAttribute('aria-current')]),
  );
  assert.deepEqual(tabs, [
    ['steps', '九个步骤', 'page'],
    ['scale-lab', '为什么除以 √dₖ', null],
    ['cost-lab', 'n² 的代价', null],
    ['exercise', '动手算一算', null],
    ['train-lab', '看注意力学习', null],
    ['efficiency-lab', '效率与变体', null],
  ]);
  assert.match(
    await page.getAttribute('#views a[data-view="exercise"]', 'href'),
    /^#view=exercise&step=3&/,
    'a link that opens in a new tab too',
  );

  await page.click('#views a[data-view="exercise"]');
  await page.waitForFunction(() => /^#view=exercise&step=3&.*&ex=1&/.test(location.hash));
  // The lab's code loads when it first opens (web/src/parts.js): its body shows once it has.
  await page.waitForSelector('#lab-body', { state: 'visible' });
  assert.equal(await page.isVisible('#nav'), false, 'the step map belongs to the stepper');
  assert.equal(await page.isVisible('#stage-body'), false);
  assert.equal(await page.textContent('#step-announce'), '动手算一算', 'the change of view is said once');

  await page.keyboard.press('ArrowRight');
  await urlWritten(page);
  assert.match(await page.evaluate(() => location.hash), /^#view=exercise&step=3&/, '←/→ step only in the stepper');

  await page.click('#views a[data-view="steps"]');
  await stepInUrl(page, 3);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /view=|ex=/, 'a stepper link reads as it always has');
  assert.equal(await page.isVisible('figure.matrix[data-name="scores"]'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [lang, scheme] of [
  ['zh-CN', 'light'],
  ['en', 'dark'],
]) {
  test(`axe-core finds no violation in any view (${lang}, ${scheme})`, async () => {
    for (const view of VIEWS) {
      const page = await b.open(`${LINKS[view]}&lang=${lang}`, { colorScheme: scheme });
      assert.equal(await page.evaluate(() => document.body.dataset.view), view);
      assert.deepEqual(await axeViolations(page), [], view);
      await screenshot(page, `view-${view}-${lang}-${scheme}`);
      assert.deepEqual(page.problems, [], view);
      await page.context().close();
    }
  });
}

test('on a 375 px phone no view scrolls sideways', async () => {
  for (const view of VIEWS) {
    for (const lang of ['zh-CN', 'en']) {
      const page = await b.open(`${LINKS[view]}&lang=${lang}`, { viewport: { width: 375, height: 740 } });
      const [scrollWidth, innerWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      assert.ok(
        scrollWidth <= innerWidth,
        `${view} (${lang}): the page is ${scrollWidth}px wide in a ${innerWidth}px screen`,
      );
      if (lang === 'zh-CN') await screenshot(page, `phone-view-${view}`);
      assert.deepEqual(page.problems, [], view);
      await page.context().close();
    }
  }
});

test('the keyboard alone reaches every control of every lab', async () => {
  for (const view of VIEWS.filter((v) => v !== 'steps')) {
    const page = await b.open(LINKS[view]);
    // Folded parts opened (their summary is a control too: Enter opens it).
    await page.$$eval('#lab-body details', (all) =>
      all.forEach((d) => {
        d.open = true;
      }),
    );
    // Every control a pointer could use: visible, enabled, focusable. A group of radio buttons is
    // one stop of the Tab key (the arrow keys choose within it), so it counts once.
    const controls = await page.$$eval(
      '#views a, #lab-body :is(a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"]))',
      (els) =>
        els
          .filter(
            // (checkVisibility, not getClientRects: in Chromium what a closed <details> holds still has boxes.)
            (el) => !el.disabled && el.checkVisibility({ visibilityProperty: true }),
          )
          .map((el, i) => {
            el.dataset.reachTest = el.type === 'radio' ? `radio:${el.name}` : String(i);
            return el.dataset.reachTest;
          })
          .filter((id, i, all) => all.indexOf(id) === i),
    );
    assert.ok(controls.length >= 4, `${view} has controls (${controls.length})`);
    const reached = new Set();
    await page.evaluate(() => document.activeElement?.blur());
    for (let press = 0; press < controls.length + 40 && reached.size < controls.length; press++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => document.activeElement?.dataset?.reachTest);
      if (at !== undefined) reached.add(at);
    }
    const missed = controls.filter((c) => !reached.has(c));
    const names = await page.$$eval(
      '[data-reach-test]',
      (els, m) =>
        els
          .filter((el) => m.includes(el.dataset.reachTest))
          .map(
            (el) =>
              `${el.tagName.toLowerCase()}#${el.id} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`,
          ),
      missed,
    );
    assert.deepEqual(names, [], `${view}: controls Tab never reaches`);
    assert.deepEqual(page.problems, [], view);
    await page.context().close();
  }
});
