// The screenshot set for review (not compared pixel by pixel): every step of the article's worked
// example, on a 1280×900 desktop and a 375 px phone, in Chinese and English, light and dark —
// written to test-results/screenshots/set-<width>-<lang>-<theme>-step-<n>.png on every run. What
// is asserted is what a screenshot cannot show by itself: each one was taken on a page without
// errors, and the phone never scrolls sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot } from './helpers.mjs';

const b = browserForFile();

const VIEWPORTS = { 1280: { width: 1280, height: 900 }, 375: { width: 375, height: 740 } };

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  for (const lang of ['zh-CN', 'en']) {
    for (const scheme of ['light', 'dark']) {
      test(`screenshots: ${width} px, ${lang}, ${scheme}, steps 1–9`, async () => {
        const page = await b.open(`#lang=${lang}&step=1`, { viewport, colorScheme: scheme });
        for (let step = 1; step <= 9; step++) {
          if (step > 1) await page.click('#next');
          // The first screen is what a reader sees; the phone's whole page shows what follows.
          await screenshot(page, `set-${width}-${lang}-${scheme}-step-${step}`, { fullPage: width === '375' });
          const [scrollWidth, innerWidth] = await page.evaluate(() => [
            document.documentElement.scrollWidth,
            window.innerWidth,
          ]);
          assert.ok(scrollWidth <= innerWidth, `step ${step}: ${scrollWidth}px wide in ${innerWidth}px`);
        }
        assert.deepEqual(page.problems, []);
        await page.context().close();
      });
    }
  }
}
