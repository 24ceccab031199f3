// The same link gives the same numbers wherever it opens (issue 26): one √d_k race link and one
// stepper link, opened on the development page (build/web), the hosted site (dist/site) and the
// offline file (dist/attention-playground.html), in Chromium and in Firefox. Every page computes
// what it shows with the SIMD128 build (web/src/engine.js, exactBuild) — never relaxed SIMD,
// whose fused multiply–add may round otherwise — so every number must agree exactly:
//   the race: its words (gradients at step 1, steps to learn, losses at step 100), the status and
//   the loss summary, and every weight of A on the probe for both runs after the last step, in
//   full (the cells' data-value);
//   the training step the lab hands over, and the stepper link: every matrix of the JSON export
//   (every input and intermediate, the backward pass's too, as shortest float32 decimals).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, OFFLINE_FILE, CATCH_EXPORTS } from './drivers.mjs';
import { pythonServer } from './static-server.mjs';
import { startServer } from '../../scripts/serve.mjs';

const RACE = '#view=train-lab&lang=en&trainscale=race&traindk=64&trainsteps=200';
const STEPPER = '#step=13&lang=en&loss=mse&y=10,0;0,10';

let dev, site;
before(async () => {
  dev = await startServer({ root: 'build/web' });
  site = await pythonServer('dist/site');
});
after(async () => {
  await dev?.close?.();
  await site?.stop();
});

const places = () => ({
  'development page': `${dev.url}`,
  'hosted site': `${site.url}index.html`,
  'offline file': OFFLINE_FILE,
});

/** Every number in a text (the page's typographic minus read as '-'). */
const numbersIn = (text) => (text.replace(/\u2212/g, '-').match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? []).map(Number);

/** The JSON export of the stepper's state now: every number of its inputs and steps, in order. */
async function exported(page) {
  const before = await page.evaluate(() => window.exported.length);
  await page.evaluate(() => document.getElementById('export-json').click());
  await page.until((n) => window.exported.length > n, before, 20000);
  const json = JSON.parse(await page.evaluate(() => window.exported.at(-1)));
  const values = [];
  const walk = (x) => {
    if (typeof x === 'number') values.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') Object.values(x).forEach(walk);
  };
  walk({ inputs: json.inputs, steps: json.steps });
  return values;
}

/** The race link trained to its end, then its training step walked in the stepper: the numbers on the way. */
async function raceNumbers(page) {
  await page.until(() => document.getElementById('train-where')?.hidden === false, undefined, 60000);
  await page.click('#train-play');
  await page.until(() => document.getElementById('train-status').dataset.steps === '200', undefined, 180000);
  await page.until(() => document.getElementById('train-walk').getAttribute('aria-disabled') === 'false');
  const shown = await page.evaluate(() => ({
    words: ['#train-race-result', '#train-status', '#train-loss-summary'].map(
      (s) => document.querySelector(s).textContent,
    ),
    weights: [...document.querySelectorAll('.train-a td.pick')].map((td) => Number(td.dataset.value)),
  }));
  await page.click('#train-walk');
  await page.until(() => /loss=given/.test(location.hash) && document.querySelector('figure[data-name="gradOutput"]'));
  return { words: shown.words.flatMap(numbersIn), weights: shown.weights, walk: await exported(page) };
}

const seen = {}; // engine → place → numbers

inEachEngine((name, driver) => {
  test(`${name}: a race link and a stepper link give the same numbers on the development page, the hosted site and the offline file`, async () => {
    const mine = (seen[name] = {});
    for (const [place, url] of Object.entries(places())) {
      const page = await driver.newPage({ initScript: CATCH_EXPORTS });
      try {
        await page.goto(url + RACE);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
        const race = await raceNumbers(page);
        await page.goto('about:blank'); // the stepper link opened afresh, not as a change of hash
        await page.goto(url + STEPPER);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
        assert.match(
          await page.evaluate(() => document.getElementById('engine-build').textContent),
          /SIMD128/,
          `${place}: the SIMD128 build`,
        );
        mine[place] = { ...race, stepper: await exported(page) };
        assert.deepEqual(page.problems, [], place);
      } finally {
        await page.closeAll();
      }
    }
    const [first, ...others] = Object.keys(mine);
    for (const place of others) assert.deepEqual(mine[place], mine[first], `${place} against the ${first}`);
    // The article's backward step, as it was checked by hand: A ≈ 0.67 / 0.33 among the stepper's numbers.
    assert.ok(mine[first].stepper.some((x) => Math.abs(x - 0.66976154) < 1e-7));
    const count = Object.values(mine[first]).reduce((sum, list) => sum + list.length, 0);
    console.log(`# ${name}: ${count} numbers on each of ${Object.keys(mine).length} pages, all equal`);
    if (seen.chromium && name !== 'chromium') {
      assert.deepEqual(mine[first], seen.chromium[first], `${name} against chromium`);
      console.log(`# ${name} and chromium: the same ${count} numbers`);
    }
  });
});
