// Debian's Chromium for the tests and the benchmarks: the flags it starts with, and the browser of
// one test file. No node:test here: scripts/run-tests.mjs imports this to start the run's Chromium.

import { chromium } from 'playwright-core';

/** Debian's Chromium, headless here: the flags every Chromium of the tests and benchmarks starts with. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The environment variable through which scripts/run-tests.mjs hands its Chromium to the test files. */
export const SHARED_CHROMIUM = 'ATTN_TEST_CHROMIUM';

/**
 * Debian's Chromium for one test file: the run's own, shared by every file, when
 * scripts/run-tests.mjs started one (its address in SHARED_CHROMIUM) — a launch costs each file a
 * second and a core-second, and the files' contexts keep them apart as well as browsers would —
 * else one launched for this file (`node --test <file>`, the benchmarks). close() ends either: the
 * shared one it leaves running, closing only this file's contexts.
 */
export function chromiumForFile() {
  const shared = process.env[SHARED_CHROMIUM];
  return shared
    ? chromium.connect(shared)
    : chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Starts the run's shared Chromium (scripts/run-tests.mjs): { env, close() }, env naming it for the test files. */
export async function startSharedChromium() {
  const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return { env: { [SHARED_CHROMIUM]: server.wsEndpoint() }, close: () => server.close() };
}
