// Debian's Firefox ESR for the tests (puppeteer-core over WebDriver BiDi): the browser of one test
// file. No node:test here: scripts/run-tests.mjs imports this to start the run's Firefoxes.
//
// Starting Firefox costs a file about 6 s and 5 core-seconds, and a Firefox takes one BiDi session
// at a time. So scripts/run-tests.mjs starts one per file that can run at once (its
// FILE_CONCURRENCY) and hands them on in SHARED_FIREFOXES; a file takes a free one for as long as it
// needs it (a lock file in the pool's folder, holding its pid, so that a file that died leaves it
// free) and gives it back by ending its session. Each page is in a browser context of its own, as
// with a browser of its own. A file run alone (`node --test <file>`) launches its own.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

/** The environment variable through which scripts/run-tests.mjs hands its Firefoxes to the test files. */
export const SHARED_FIREFOXES = 'ATTN_TEST_FIREFOXES';

const launch = () =>
  puppeteer.launch({
    browser: 'firefox',
    executablePath: '/usr/bin/firefox-esr',
    protocol: 'webDriverBiDi',
    headless: true,
  });

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Takes the pool's Firefox `index` for this process, if it is free: true when taken.
function take(dir, index) {
  const lock = path.join(dir, `${index}.lock`);
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const holder = Number(fs.readFileSync(lock, 'utf8'));
    if (holder && !alive(holder)) fs.rmSync(lock, { force: true }); // its file died: free again
    return false;
  }
}

/**
 * The Firefox of one test file: { browser, release() }. From the run's pool when there is one —
 * a file waits for a free one as long as it takes a file to finish (the pool has one per file that
 * runs at once, so one is free unless a file outlives its run) — else launched for it.
 */
export async function firefoxForFile() {
  const pool = process.env[SHARED_FIREFOXES] && JSON.parse(process.env[SHARED_FIREFOXES]);
  if (!pool) {
    const browser = await launch();
    return { browser, release: () => browser.close() };
  }
  for (;;) {
    for (const [index, endpoint] of pool.endpoints.entries()) {
      if (!take(pool.dir, index)) continue;
      const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, protocol: 'webDriverBiDi' });
      const release = async () => {
        // What the file opened closes with it, as with a browser of its own (a page left running
        // would go on taking the processor), then its session ends: the next file can start its own.
        for (const context of browser.browserContexts())
          if (context !== browser.defaultBrowserContext()) await context.close();
        await browser.disconnect();
        fs.rmSync(path.join(pool.dir, `${index}.lock`), { force: true });
      };
      return { browser, release };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts the run's Firefoxes (scripts/run-tests.mjs): { env, close() }, env naming them for the test files. */
export async function startSharedFirefoxes(count) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-firefoxes-'));
  const processes = [];
  const endpoints = [];
  for (let i = 0; i < count; i++) {
    const browser = await launch();
    endpoints.push(browser.wsEndpoint());
    processes.push(browser.process());
    await browser.disconnect(); // the process runs on, without a session, until close()
  }
  const close = async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', resolve);
            child.kill();
          }),
      ),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { env: { [SHARED_FIREFOXES]: JSON.stringify({ dir, endpoints }) }, close };
}
