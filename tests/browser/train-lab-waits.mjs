// The training lab as its browser suites drive it (train-lab, train-lab-fork, train-lab-handoff):
// waits on what the lab says of itself, and the timeline scrubbed as a reader does with the keys.

import { SNAPSHOT_EVERY } from '../../web/src/features/train-lab/train-lab.js';

/** The lab has started: it says where its run is computed. */
export const untilStarted = (page) => page.waitForSelector('#train-where:not([hidden])', { timeout: 30000 });

/** The run has taken `n` steps. */
export const untilSteps = (page, n, timeout = 120000) =>
  page.waitForFunction((n) => document.querySelector('#train-status')?.dataset.steps === String(n), n, { timeout });

/** Ready and not playing: the run has numbers, and the walk (like the fork) can be asked for. */
export const untilStill = (page, timeout = 120000) =>
  page.waitForFunction(() => document.querySelector('#train-walk')?.getAttribute('aria-disabled') === 'false', null, {
    timeout,
  });

/** The timeline at the snapshot of `step`: Home, then → once per snapshot, as a keyboard reader does. */
export async function scrubTo(page, step) {
  await page.focus('#train-timeline');
  await page.keyboard.press('Home');
  for (let at = 0; at < step; at += SNAPSHOT_EVERY) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (step) => new RegExp(`step ${step}\\b`).test(document.querySelector('#train-timeline-value').textContent),
    step,
  );
}
