// Issue 18, item 15: the classroom mode, in the offline file, in Chromium and in Firefox. A
// teacher's link (classroom=1, pace=N) opens the stage only, in large type, and the step fits a
// 1280×720 and a 1920×1080 projector; the keys of a keyboard and of a clicker step; auto-advance
// moves on and stops at the last step; Escape leaves and gives the page back; the mode is entered
// from the page, its pace typed and its link copied; full screen is asked on the button and its
// refusal tolerated; an embed ignores the mode; axe finds nothing, in both languages. Issue 29,
// item 3: each lab in the mode shows its main chart across a 1280×720 projector, whole above the
// bar, with its key numbers in large type; it scrolls down and never sideways; F, B and Escape
// work there as in the stepper, and leaving gives the lab back as it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile, setField, stepInUrl, OFFLINE_FILE } from './drivers.mjs';
import { axeViolations } from './helpers.mjs';
import words from '../../web/src/i18n/labs/classroom.js';

const PROJECTORS = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

/** What a reader sees of the page: which parts are drawn, the type's sizes, the hash. */
const look = (page) =>
  page.evaluate(() => {
    const drawn = (selector) => {
      const el = document.querySelector(selector);
      return Boolean(el) && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
    };
    const px = (selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
    return {
      classroom: document.documentElement.classList.contains('classroom'),
      header: drawn('#copy-link'),
      panel: drawn('#panel'),
      map: drawn('#nav'),
      prose: drawn('#stage-body > .explain'),
      bar: drawn('#classroom-bar'),
      title: drawn('#step-title'),
      formula: drawn('#stage-body .formulas'),
      titlePx: px('#step-title'),
      cellPx: px('#stage-body .step-pane:not(.kept) td.c'),
      hash: location.hash,
    };
  });

/**
 * Whether the step on screen fits: nothing scrolls sideways, nothing lies under the bar, the cue
 * is hidden; and whether each matrix can be seen whole (within the screen's width and the room
 * above the bar), even where the step as a whole scrolls.
 */
const fit = (page) =>
  page.evaluate(() => {
    const cut = [
      ...document.querySelectorAll('#stage-body .formulas, #stage-body .matrix-row, #stage-body .table-scroll'),
    ]
      .filter((el) => !el.closest('.kept') && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.className);
    const bar = document.getElementById('classroom-bar').getBoundingClientRect();
    const layout = document.querySelector('.layout').getBoundingClientRect();
    const figures = [...document.querySelectorAll('#stage-body figure.matrix')].filter((el) => !el.closest('.kept'));
    return {
      cut,
      below: Math.max(0, Math.round(layout.bottom - bar.top)),
      page: document.documentElement.scrollWidth <= innerWidth,
      cue: !document.getElementById('classroom-cue').hidden,
      wholeMatrices: figures.every((el) => {
        const box = el.getBoundingClientRect();
        return box.height <= bar.top && box.right <= innerWidth + 1;
      }),
    };
  });

const press = async (page, key, step) => {
  await page.keyboard.press(key);
  await page.until((n) => new RegExp(`(^#|&)step=${n}(&|$)`).test(location.hash), step);
};

// Both engines: classroom mode fits the stage to the projector with CSS (large type, no scroll),
// and the Fullscreen API and key names differ between engines.
inEachEngine((name, driver) => {
  test(`${name}: a classroom link opens the stage only in large type; keys and a clicker step; Escape gives the page back`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&classroom=1', { viewport: PROJECTORS[0] });
    const shown = await look(page);
    assert.deepEqual(
      [shown.classroom, shown.header, shown.panel, shown.map, shown.prose, shown.bar, shown.title, shown.formula],
      [true, false, false, false, false, true, true, true],
      'the stage only: its title and formula, and the bar',
    );
    // The normal page writes a step's title at 22 px and its numbers at 16 px on this screen.
    assert.ok(shown.titlePx >= 30, `the title is ${shown.titlePx} px`);
    assert.ok(shown.cellPx >= 24, `the numbers are ${shown.cellPx} px`);
    // A keyboard, then a clicker (PageDown, PageUp), then Home and End.
    await press(page, 'ArrowRight', 2);
    await press(page, name === 'firefox' ? ' ' : 'Space', 3); // the Space key, as each driver names it
    await press(page, 'Enter', 4);
    await press(page, 'PageDown', 5);
    await press(page, 'PageUp', 4);
    await press(page, 'ArrowLeft', 3);
    await press(page, 'End', 9);
    await press(page, 'Home', 1);
    // B blanks the screen for a moment, a page key brings the step back.
    await page.keyboard.press('b');
    await page.until(() => document.documentElement.classList.contains('classroom-blank'));
    await press(page, 'PageDown', 2);
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('classroom-blank')), false);
    // Escape: the page as it was, at the step the class reached; the link without the mode.
    await page.keyboard.press('Escape');
    await page.until(() => !/classroom=/.test(location.hash));
    const after = await look(page);
    assert.deepEqual(
      [after.classroom, after.header, after.panel, after.map, after.prose, after.bar],
      [false, true, true, true, true, false],
    );
    assert.ok(after.cellPx < shown.cellPx, "the page's own type again");
    await stepInUrl(page, 2);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'classroom-button', 'focus on the way back in');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: on a 1280×720 and a 1920×1080 projector every step of the example and of "它 是 猫" fits in large type`, async () => {
    // The one exception: at 1280×720 the projections of "它 是 猫" (X and three products, 15 rows of
    // numbers) do not fit even in the smallest type; they scroll, and the bar says so.
    const exception = '1280×720 #preset=cat&classroom=1 step 2';
    for (const viewport of PROJECTORS) {
      for (const hash of ['#lang=en&classroom=1', '#preset=cat&classroom=1']) {
        const page = await openOfflineFile(driver, hash, { viewport });
        for (let step = 1; step <= 9; step++) {
          if (step > 1) await press(page, 'PageDown', step);
          const where = `${viewport.width}×${viewport.height} ${hash} step ${step}`;
          const fits = await fit(page);
          const shown = await look(page);
          assert.deepEqual(fits.cut, [], `${where}: nothing is cut or scrolls sideways`);
          assert.ok(fits.page && fits.wholeMatrices, `${where}: every matrix can be seen whole`);
          if (where === exception) {
            assert.ok(fits.below > 0 && fits.cue, `${where}: it scrolls, and the cue says so`);
            assert.ok(shown.cellPx >= 16, `${where}: numbers of ${shown.cellPx} px`);
            continue;
          }
          assert.deepEqual([fits.below, fits.cue], [0, false], `${where}: the whole step above the bar`);
          // The page's own numbers are 16 px at 1280 px, 20 px at 1920 px; the example's steps get
          // 29 and 44 px, the busiest (the projections of "它 是 猫" at 1920×1080) about 19 px.
          assert.ok(shown.cellPx >= 18, `${where}: numbers of ${shown.cellPx} px`);
          if (hash.includes('lang=en')) assert.ok(shown.cellPx >= viewport.height / 25, `${where}: ${shown.cellPx} px`);
          assert.ok(shown.titlePx >= shown.cellPx, `${where}: a title of ${shown.titlePx} px`);
        }
        assert.deepEqual(page.problems, []);
        await page.closeAll();
      }
    }
  });

  test(`${name}: a state too big for the screen scales down, then scrolls and says so: never a silent cut`, async () => {
    const page = await openOfflineFile(
      driver,
      '#lang=en&preset=random&mode=qkv&n=14&d=14&dk=14&dv=14&step=2&classroom=1',
      {
        viewport: PROJECTORS[0],
      },
    );
    const fits = await fit(page);
    const hidden = fits.cut.length > 0 || fits.below > 0;
    assert.equal(hidden, true, 'three 14×14 tables do not fit 1280×720');
    assert.equal(fits.cue, true, 'the cue says the rest scrolls');
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-cue').textContent),
      words.en['classroom.scrolls'],
    );
    // The smallest type is still a size a room can read.
    assert.ok((await look(page)).cellPx >= 14);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: auto-advance at its pace moves on and stops at the last step; a key pauses it; with heads, 11 steps`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&classroom=1&pace=1&step=7', { viewport: PROJECTORS[0] });
    const play = () => page.evaluate(() => document.getElementById('classroom-play').getAttribute('aria-pressed'));
    assert.equal(await play(), 'false', 'a link opens paused: the teacher starts it');
    await page.click('#classroom-play');
    await page.until(() => /Next step in/.test(document.getElementById('classroom-countdown').textContent));
    await page.until(() => /(^#|&)step=9(&|$)/.test(location.hash), undefined, 20000);
    await page.until(() => document.getElementById('classroom-play').getAttribute('aria-pressed') === 'false');
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-countdown').textContent),
      words.en['classroom.ended'],
    );
    // Any key pauses (here: Shift), P plays again.
    await press(page, 'Home', 1);
    await page.keyboard.press('p');
    await page.until(() => document.getElementById('classroom-play').getAttribute('aria-pressed') === 'true');
    await page.keyboard.press('Shift');
    await page.until(() => document.getElementById('classroom-play').getAttribute('aria-pressed') === 'false');
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-countdown').textContent),
      words.en['classroom.paused'],
    );
    assert.deepEqual(page.problems, []);
    await page.closeAll();
    // With heads the steps go on to concat and ·W_O: End is the 11th.
    const heads = await openOfflineFile(driver, '#lang=en&preset=heads&classroom=1&step=9', {
      viewport: PROJECTORS[0],
    });
    await press(heads, 'PageDown', 10);
    await press(heads, 'End', 11);
    await press(heads, 'Home', 1);
    assert.deepEqual(heads.problems, []);
    await heads.closeAll();
  });

  test(`${name}: entered from the page with the keyboard; its pace typed (a wrong one refused at the field); Back and Forward; its link copied`, async () => {
    const page = await driver.newPage({ blockNetwork: true, permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(OFFLINE_FILE + '#lang=en&step=3');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await page.focus('#classroom-button');
    await page.keyboard.press('Enter');
    await page.until(() => /(^#|&)classroom=1(&|$)/.test(location.hash));
    await stepInUrl(page, 3, 'entered at the step on screen');
    // A pace of 2 s, written into the link; then a wrong one: refused at its field, the link kept.
    await setField(page, '#classroom-pace', '2');
    await page.until(() => /(^|&)pace=2(&|$)/.test(location.hash));
    await setField(page, '#classroom-pace', 'fast');
    await page.until(() => document.getElementById('classroom-pace-error').textContent !== '');
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-pace-error').textContent),
      words.en['classroom.paceError'].replace('{max}', '600'),
    );
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-pace').getAttribute('aria-invalid')),
      'true',
    );
    assert.match(await page.evaluate(() => location.hash), /(^|&)pace=2(&|$)/);
    // The bar's Next button, pressed with Enter, steps once (its Enter is the button's, not the page's).
    await page.focus('#classroom-next');
    await page.keyboard.press('Enter');
    await page.until(() => /(^#|&)step=4(&|$)/.test(location.hash));
    await stepInUrl(page, 4);
    // Back and Forward move between the steps, in the mode.
    await page.evaluate(() => history.back());
    await page.until(() => /(^#|&)step=3(&|$)/.test(location.hash));
    await page.evaluate(() => history.forward());
    await page.until(() => /(^#|&)step=4(&|$)/.test(location.hash));
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('classroom')));
    // The classroom link: this state, the mode and its pace.
    await page.click('#classroom-copy');
    await page.until(() => /^Classroom link copied/.test(document.getElementById('classroom-status').textContent));
    const link = await page.evaluate(() => location.href);
    assert.match(link, /#.*classroom=1.*pace=2/);
    if (name === 'chromium') assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    // The bar's own button leaves.
    await page.click('#classroom-leave');
    await page.until(() => !document.documentElement.classList.contains('classroom'));
    await page.until(() => !/classroom|pace/.test(location.hash));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: full screen is asked on the button; granted or refused, the mode goes on`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&classroom=1&step=2', { viewport: PROJECTORS[0] });
    await page.click('#classroom-fullscreen');
    await page.until(
      (refused) =>
        Boolean(document.fullscreenElement) || document.getElementById('classroom-status').textContent === refused,
      words.en['classroom.fullscreenRefused'],
    );
    const granted = await page.evaluate(() => Boolean(document.fullscreenElement));
    if (granted) {
      await page.until(() => document.getElementById('classroom-fullscreen').textContent === 'Leave full screen');
      await page.click('#classroom-fullscreen');
      await page.until(() => !document.fullscreenElement);
    }
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('classroom')));
    await press(page, 'PageDown', 3);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: an embed shows its own stage: classroom=1 is not applied there and not written back`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&embed=1&classroom=1&pace=5&step=3');
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('classroom')), false);
    assert.equal(await page.evaluate(() => document.getElementById('classroom-bar').hidden), true);
    await page.until(() => !/classroom|pace/.test(location.hash));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: axe finds nothing in the classroom mode, in Chinese and in English, at a step with its notices`, async () => {
    for (const hash of ['#classroom=1&step=8&pace=8', '#lang=en&classroom=1&step=8&preset=cat']) {
      const page = await openOfflineFile(driver, hash, { viewport: PROJECTORS[0] });
      assert.deepEqual(await axeViolations(page), [], hash);
      assert.equal(
        await page.evaluate(() => document.getElementById('classroom-leave').textContent),
        words[hash.includes('lang=en') ? 'en' : 'zh-CN']['classroom.leave'],
      );
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });

  // Each lab: its main chart (the union of these elements' boxes) and a text in it (the exercise's
  // "chart" is its matrices, in HTML), its key numbers, a piece of its prose (on the page, not on
  // the projector), and its language in this test (both are used).
  const LABS = [
    {
      view: 'scale-lab',
      lang: 'zh-CN',
      chart: '.sl-hists',
      text: '.sl-hists text',
      numbers: '.sl-stats',
      prose: '.sl-lead',
    },
    {
      view: 'cost-lab',
      lang: 'en',
      chart: '#cost-chart-time',
      text: '#cost-chart-time .axis-label',
      numbers: '#cost-status',
      prose: '.cost-lede',
    },
    {
      view: 'exercise',
      lang: 'zh-CN',
      chart: '.ex-figures figure.matrix',
      numbers: '.ex-figures td.c',
      prose: '.ex-lede',
    },
    {
      view: 'train-lab',
      lang: 'en',
      chart: '#train-chart-loss',
      text: '#train-chart-loss text',
      numbers: '#train-status',
      prose: '.train-lede',
    },
  ];

  /** What a lab looks like: the chart's box and text size, the numbers' size, what is drawn. */
  const labLook = (page, lab) =>
    page.evaluate(({ chart, text: chartText, numbers, prose }) => {
      const drawn = (el) =>
        Boolean(el) && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const boxes = [...document.querySelectorAll(chart)].map((el) => el.getBoundingClientRect());
      const union = {
        left: Math.min(...boxes.map((b) => b.left)),
        right: Math.max(...boxes.map((b) => b.right)),
        top: Math.min(...boxes.map((b) => b.top)),
        bottom: Math.max(...boxes.map((b) => b.bottom)),
      };
      // An SVG chart's text as drawn: its font size in the viewBox's units times the chart's scale.
      const text = chartText ? document.querySelector(chartText) : null;
      const svg = text?.closest('svg');
      const chartTextPx = text
        ? parseFloat(getComputedStyle(text).fontSize) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)
        : null;
      const bar = document.getElementById('classroom-bar');
      return {
        classroom: document.documentElement.classList.contains('classroom'),
        chartWidth: union.right - union.left,
        chartTop: union.top,
        chartBottom: union.bottom,
        barTop: drawn(bar) ? bar.getBoundingClientRect().top : innerHeight,
        chartTextPx,
        numbersPx: parseFloat(getComputedStyle(document.querySelector(numbers)).fontSize),
        sideways: document.documentElement.scrollWidth > innerWidth,
        header: drawn(document.getElementById('copy-link')),
        views: drawn(document.getElementById('views')),
        prose: drawn(document.querySelector(prose)),
        steps: drawn(document.getElementById('classroom-prev')),
        pace: drawn(document.getElementById('classroom-pace')),
        leave: drawn(document.getElementById('classroom-leave')),
        fullscreen: drawn(document.getElementById('classroom-fullscreen')),
        cue: drawn(document.getElementById('classroom-cue'))
          ? document.getElementById('classroom-cue').textContent
          : null,
        hash: location.hash,
        scrollY: Math.round(scrollY),
      };
    }, lab);

  /** Waits until the lab's chart and numbers are drawn, and (in the mode) its type has been sized. */
  const labDrawn = (page, { chart, numbers }, classroom) =>
    page.until(
      ({ chart, numbers, classroom }) =>
        document.querySelector(chart)?.getClientRects().length > 0 &&
        Boolean(document.querySelector(numbers)) &&
        (!classroom || document.documentElement.style.getPropertyValue('--classroom-size') !== ''),
      { chart, numbers, classroom },
      60000,
    );

  for (const lab of LABS) {
    test(`${name}: the ${lab.view} in classroom mode at 1280×720 (${lab.lang}): its main chart across the screen, its numbers in large type; Escape gives it back`, async () => {
      const page = await openOfflineFile(driver, `#lang=${lab.lang}&view=${lab.view}&classroom=1`, {
        viewport: PROJECTORS[0],
      });
      await labDrawn(page, lab, true);
      const shown = await labLook(page, lab);
      assert.equal(shown.classroom, true);
      assert.deepEqual(
        [shown.header, shown.views, shown.prose, shown.steps, shown.pace, shown.leave, shown.fullscreen],
        [false, false, false, false, false, true, true],
        'the lab only, and a bar without steps or pace (a lab has none)',
      );
      assert.ok(
        shown.chartWidth >= 0.7 * PROJECTORS[0].width,
        `the main chart is ${Math.round(shown.chartWidth)} px wide`,
      );
      assert.ok(
        shown.chartTop >= 0 && shown.chartBottom <= shown.barTop + 1,
        `the main chart is whole on the first screen: ${Math.round(shown.chartTop)}…${Math.round(shown.chartBottom)} px, the bar at ${Math.round(shown.barTop)}`,
      );
      // The page writes these numbers at 14–17 px on this screen; a room reads them at 22 px and more.
      assert.ok(shown.numbersPx >= 22, `the key numbers are ${shown.numbersPx} px`);
      assert.equal(shown.sideways, false, 'nothing scrolls sideways');
      // The lab goes on below the bar (its other charts), and the bar says so, in the page's language.
      assert.equal(shown.cue, words[lab.lang]['classroom.labMore']);
      assert.match(shown.hash, new RegExp(`(^#|&)view=${lab.view}(&|$)`));
      assert.match(shown.hash, /(^#|&)classroom=1(&|$)/);

      // Escape: the lab as it was, in the page's own type; the link without the mode.
      await page.keyboard.press('Escape');
      await page.until(() => !/classroom=/.test(location.hash));
      const after = await labLook(page, lab);
      assert.deepEqual([after.classroom, after.header, after.views, after.prose], [false, true, true, true]);
      assert.ok(
        after.numbersPx < 20 && after.numbersPx < shown.numbersPx,
        `the page's own ${after.numbersPx} px again`,
      );
      if (shown.chartTextPx !== null)
        assert.ok(
          shown.chartTextPx >= 1.15 * after.chartTextPx,
          `the chart's text ${shown.chartTextPx.toFixed(1)} px in the mode, ${after.chartTextPx.toFixed(1)} px on the page`,
        );
      assert.match(after.hash, new RegExp(`(^#|&)view=${lab.view}(&|$)`), 'still the lab');
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    });
  }

  test(`${name}: in a lab the mode is entered from the page; B blanks and a page key brings it back; PageDown scrolls; F asks for full screen`, async () => {
    const lab = LABS[0];
    const page = await openOfflineFile(driver, `#view=${lab.view}`, { viewport: PROJECTORS[0] });
    await labDrawn(page, lab, false);
    await page.click('#classroom-button');
    await page.until(() => /(^#|&)classroom=1(&|$)/.test(location.hash));
    await labDrawn(page, lab, true);
    assert.match(
      await page.evaluate(() => location.hash),
      /(^#|&)view=scale-lab(&|$)/,
      'entered in the lab, not the stepper',
    );
    assert.equal(
      await page.evaluate(() => document.getElementById('classroom-status').textContent),
      words['zh-CN']['classroom.labKeys'],
    );
    // B blanks; PageDown brings the lab back without scrolling it (the key is the mode's then).
    const top = (await labLook(page, lab)).scrollY;
    await page.keyboard.press('b');
    await page.until(() => document.documentElement.classList.contains('classroom-blank'));
    await page.keyboard.press('PageDown');
    await page.until(() => !document.documentElement.classList.contains('classroom-blank'));
    assert.equal((await labLook(page, lab)).scrollY, top, 'the lab where it was');
    // Not blank, PageDown is the browser's: the lab scrolls to what is below.
    await page.keyboard.press('PageDown');
    await page.until((from) => scrollY > from + 100, top);
    // F: full screen granted, or refused and said; the mode goes on either way.
    await page.keyboard.press('f');
    await page.until(
      (refused) =>
        Boolean(document.fullscreenElement) || document.getElementById('classroom-status').textContent === refused,
      words['zh-CN']['classroom.fullscreenRefused'],
    );
    // Escape leaves full screen first (when granted), then the mode.
    if (await page.evaluate(() => Boolean(document.fullscreenElement))) {
      await page.keyboard.press('Escape');
      await page.until(() => !document.fullscreenElement);
    }
    assert.ok(await page.evaluate(() => document.documentElement.classList.contains('classroom')));
    await page.keyboard.press('Escape');
    await page.until(() => !/classroom=/.test(location.hash));
    assert.equal(await page.evaluate(() => document.activeElement.id), 'classroom-button', 'focus on the way back in');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: axe finds nothing in a lab's classroom mode`, async () => {
    const lab = LABS[0];
    const page = await openOfflineFile(driver, `#lang=en&view=${lab.view}&classroom=1`, { viewport: PROJECTORS[0] });
    await labDrawn(page, lab, true);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
