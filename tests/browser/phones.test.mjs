// Issue 29, item 3: phones and projectors for every chapter, in the offline file, in Chromium and in
// Firefox (this is CSS layout, and the engines lay out KaTeX and tables differently). At 375×812
// no view scrolls the page sideways, and whatever is wider than its box — a formula with heads, the
// backward dO formula, a lab's table — scrolls inside that box with a visible cue: its far edge
// fades (data-more, views/scroll-cue.js) and it takes keyboard focus. Every step of the heads
// pipeline (1–11), of the worked example in English (1–9: the longest words), of the backward pipeline with one head (10–14) and with heads (12–20), and every
// lab. On a phone the first screen reaches the worked example's numbers (Q = I₂); on a 1280×720
// projector the classroom mode shows the heads overview, each head's A in large type.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile, stepInUrl } from './drivers.mjs';

const PHONE = { width: 375, height: 812 };
const PROJECTOR = { width: 1280, height: 720 };

// "它 是 猫" with 2 heads, from X; the loss on the layer's output O with Y = X (the heads' backward steps).
const HEADS = 'preset=heads&mode=x&n=3&d=4&dk=4&dv=4&heads=2';
const HEADS_LOSS = `${HEADS}&loss=mse&y=1,0,0,1;0,1,0,1;0,0,1,1`;
// The worked example with a loss: AV ≈ [[6.7, 3.3], [3.3, 6.7]] against Y = 10·I₂.
const ONE_HEAD_LOSS = 'loss=mse&y=10,0;0,10';

/**
 * What is wrong with the layout on screen (runs in the page): the page wider than the window, or a
 * box whose content is wider than it and that either cuts it (overflow hidden) or scrolls without
 * the cue — no data-more, no fade, or no keyboard focus. Hidden parts (other steps' kept panes, a
 * closed <details>, KaTeX's MathML and the screen reader's lines) are not on screen; form fields
 * scroll as editors do.
 */
const LAYOUT_PROBLEMS = () => {
  const problems = [];
  const page = document.scrollingElement.scrollWidth;
  if (page > innerWidth) problems.push(`the page is ${page} px wide in a ${innerWidth} px window`);
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1) continue;
    if (el.matches('textarea, input, select') || el.closest('.katex-mathml, .sr-only')) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const style = getComputedStyle(el);
    const wide = `${el.scrollWidth} px in ${el.clientWidth} px`;
    if (style.overflowX === 'visible') continue; // it spills over, and the page's width above tells
    if (!/auto|scroll/.test(style.overflowX)) problems.push(`${name(el)} cut: ${wide}`);
    else if (!el.dataset.more) problems.push(`${name(el)} scrolls without a cue: ${wide}`);
    else if (!/gradient/.test(style.maskImage || style.webkitMaskImage)) problems.push(`${name(el)} has no fade`);
    else if (el.tabIndex < 0) problems.push(`${name(el)} cannot take keyboard focus`);
  }
  // And a cue says only what is so: a faded box has more beyond its edge.
  for (const el of document.querySelectorAll('[data-more]'))
    if (el.checkVisibility() && el.scrollWidth <= el.clientWidth + 1) problems.push(`${name(el)} faded, all in view`);
  return problems;
};

/**
 * Waits until the layout holds, frame by frame (a cue is set at the frame after a change), else
 * fails with what is wrong.
 */
async function layoutHolds(page, where) {
  let problems = [];
  for (let frame = 0; frame < 30; frame++) {
    problems = await page.evaluate(LAYOUT_PROBLEMS);
    if (problems.length === 0) return;
    await page.evaluate(() => new Promise(requestAnimationFrame));
  }
  assert.deepEqual(problems, [], where);
}

/** Goes to step `n` by the map, as a reader taps it. */
async function tapStep(page, n) {
  await page.click(`.map-node[data-step="${n}"]`);
  await stepInUrl(page, n);
}

/** Each step from..to of the page's pipeline, the layout checked on each. */
async function walkSteps(page, from, to, what) {
  for (let n = from; n <= to; n++) {
    await tapStep(page, n);
    await layoutHolds(page, `${what}, step ${n}`);
  }
}

/** Opens a link of the same page (a hash), as a reader's pasted link, once it shows step `n`. */
async function openHash(page, hash, n) {
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await stepInUrl(page, n);
}

/** Opens `view` of the labs in the same page, by its link, once its body is drawn. */
async function openLab(page, view) {
  await page.evaluate((v) => {
    location.hash = `view=${v}&lang=en`;
  }, view);
  await page.until((v) => document.querySelector(`#lab-body:not([hidden]) .lab-${v}`), view, 30000);
}

inEachEngine((name, driver) => {
  test(`${name}: at 375×812 every step with heads, the worked example in English, and backward with one head and with heads, fits or scrolls in its box with a cue`, async () => {
    const page = await openOfflineFile(driver, `#${HEADS}&step=1`, { viewport: PHONE });
    await walkSteps(page, 1, 11, 'with heads');

    await openHash(page, `${HEADS_LOSS}&step=12`, 12);
    await walkSteps(page, 12, 20, 'with heads, backward');

    // The worked example in English, whose words are the longest: steps 1–9 fit as well.
    await openHash(page, 'lang=en&step=1', 1);
    await walkSteps(page, 1, 9, 'the worked example in English');

    await openHash(page, `${ONE_HEAD_LOSS}&step=10`, 10);
    await walkSteps(page, 10, 14, 'one head, backward');
    // The dO formula (L = ½‖AV − Y‖² ⇒ dO = ∂L/∂(AV) = AV − Y) is wider than a phone: it scrolls, faded.
    await tapStep(page, 10);
    await page.until(() => document.querySelector('#stage-body .formulas').dataset.more === 'right');
    const scrolled = await page.evaluate(async () => {
      const box = document.querySelector('#stage-body .formulas');
      box.scrollLeft = box.scrollWidth;
      await new Promise((resolve) => box.addEventListener('scroll', resolve, { once: true }));
      await new Promise(requestAnimationFrame);
      return box.dataset.more;
    });
    assert.equal(scrolled, 'left', 'scrolled to its end, the formula fades the side it came from');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: at 375×812 every lab fits the phone; its wide tables scroll in their boxes with a cue`, async () => {
    const page = await openOfflineFile(driver, '#lang=en', { viewport: PHONE });
    await openLab(page, 'scale-lab');
    await page.click('#sl-numbers summary'); // the table of numbers, closed at first
    await page.until(() => document.getElementById('sl-numbers').open);
    await layoutHolds(page, 'scale-lab');

    await openLab(page, 'cost-lab');
    await page.evaluate(() => {
      location.hash = 'view=cost-lab&lang=en&costmax=256';
    });
    await page.until(() => document.getElementById('cost-max')?.value === '256');
    await page.click('#cost-run');
    await page.until(() => document.querySelector('.lab-cost-lab').dataset.status === 'done', undefined, 90000);
    await layoutHolds(page, 'cost-lab after a run');

    await openLab(page, 'exercise');
    await layoutHolds(page, 'exercise');

    // The training lab after a race with two heads: both runs' A of every head, the charts, the readout.
    await page.evaluate(() => {
      location.hash = 'view=train-lab&lang=en&trainscale=race&trainheads=2&trainsteps=100';
    });
    await page.until(() => document.querySelector('#train-where:not([hidden])'), undefined, 30000);
    await page.until(
      () =>
        document.getElementById('train-play').getAttribute('aria-disabled') === 'false' ||
        /failed/.test(document.getElementById('train-status').textContent),
      undefined,
      30000,
    );
    assert.doesNotMatch(await page.evaluate(() => document.getElementById('train-status').textContent), /failed/);
    await page.click('#train-play');
    await page.until(() => document.getElementById('train-status').dataset.steps === '100', undefined, 120000);
    await page.until(() => document.querySelectorAll('.train-run').length === 2);
    await layoutHolds(page, 'train-lab after a race');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: on a 375×812 phone the first screen shows the worked example's numbers`, async () => {
    const page = await openOfflineFile(driver, '', { viewport: PHONE });
    // Q = I₂ of the article's example: its first row, 1 and 0, whole within the first screen.
    const firstRow = await page.evaluate(() =>
      [...document.querySelectorAll('#stage-body figure[data-name="q"]:not(.kept *) tbody tr:first-child td.c')].map(
        (td) => ({ text: td.textContent, bottom: td.getBoundingClientRect().bottom }),
      ),
    );
    assert.deepEqual(
      firstRow.map((cell) => cell.text),
      ['1', '0'],
    );
    for (const cell of firstRow) assert.ok(cell.bottom <= PHONE.height, `Q's first row ends at ${cell.bottom} px`);
    // Every action of the header is still there, drawn.
    const actions = await page.evaluate(() =>
      ['lang-switch', 'theme-switch', 'copy-link', 'embed-button', 'classroom-button'].filter(
        (id) => !document.getElementById(id).checkVisibility(),
      ),
    );
    assert.deepEqual(actions, [], 'no header action hidden on a phone');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: classroom at 1280×720 shows the heads overview, each head's A in large type beside the step's matrices`, async () => {
    const page = await openOfflineFile(driver, `#${HEADS}&step=10&lang=en&classroom=1`, { viewport: PROJECTOR });
    await page.until(() => document.documentElement.classList.contains('classroom'));
    const seen = await page.evaluate(() => {
      const overview = document.querySelector('#stage-body .heads-overview:not(.kept *)');
      const bar = document.getElementById('classroom-bar').getBoundingClientRect();
      const cells = [...overview.querySelectorAll('.head-a td')];
      return {
        cards: overview.querySelectorAll('.head-card').length,
        drawn: overview.checkVisibility(),
        cellPx: Math.min(...cells.map((td) => parseFloat(getComputedStyle(td).fontSize))),
        matrixPx: parseFloat(getComputedStyle(document.querySelector('#stage-body td.c:not(.kept *)')).fontSize),
        onScreen: [...overview.querySelectorAll('.head-card')].every((card) => {
          const box = card.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= bar.top && box.right <= innerWidth;
        }),
        fits: document.getElementById('classroom-cue').hidden,
      };
    });
    assert.equal(seen.cards, 2, "both heads' cards");
    assert.ok(seen.drawn, 'the overview is drawn');
    assert.ok(seen.onScreen, 'both cards whole above the bar');
    assert.ok(seen.fits, 'the step fits the projector without scrolling');
    // On a reader's screen A's cells are 0.78 rem (12.5 px); a room reads 18 px and more.
    assert.ok(seen.cellPx >= 18, `the heads' A in ${seen.cellPx} px`);
    assert.ok(seen.matrixPx >= 20, `the step's matrix in ${seen.matrixPx} px`);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
