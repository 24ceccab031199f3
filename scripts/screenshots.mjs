// `npm run screenshots`: the screenshot set for review, not a test — every step of the article's
// worked example on a 1280×900 desktop and a 375 px phone, in Chinese and English, light and dark,
// written to test-results/screenshots/set-<width>-<lang>-<theme>-step-<n>.png (the phone's whole
// page, the desktop's first screen: what a reader sees first). A page with errors stops the set
// with them. What the set used to assert inside `npm test` — the phone never scrolls sideways —
// tests/browser/phones.test.mjs checks on every step, in both engines, in both languages.

import { openBrowser, screenshot, SCREENSHOTS } from '../tests/browser/helpers.mjs';

const VIEWPORTS = { 1280: { width: 1280, height: 900 }, 375: { width: 375, height: 740 } };

const b = await openBrowser();
try {
  for (const [width, viewport] of Object.entries(VIEWPORTS))
    for (const lang of ['zh-CN', 'en'])
      for (const scheme of ['light', 'dark']) {
        const page = await b.open(`#lang=${lang}&step=1`, { viewport, colorScheme: scheme });
        for (let step = 1; step <= 9; step++) {
          if (step > 1) await page.click('#next');
          await screenshot(page, `set-${width}-${lang}-${scheme}-step-${step}`, { fullPage: width === '375' });
        }
        if (page.problems.length) throw new Error(`${width} px, ${lang}, ${scheme}:\n${page.problems.join('\n')}`);
        await page.context().close();
      }
  console.log(`screenshots: 72 written to ${SCREENSHOTS}/`);
} finally {
  await b.close();
}
