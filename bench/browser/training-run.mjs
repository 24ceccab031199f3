// browser/training-run.mjs — the training benchmark in Debian's Chromium (issue 17, item 7):
//   1. bench/browser/training.html (training-page.mjs) on the benchmark's loopback server: ours in
//      the labs' Web Worker, TensorFlow.js on the page, the time to learn reverse at n = 8;
//   2. the page itself (build/web) answering while the training lab trains: a click on the language
//      switch during a run of Play, from the click event's own time stamp (time spent waiting for a
//      busy main thread counts) to the DOM change that answers it (<html lang>), as
//      bench/responsiveness.mjs measures the cost lab; the same clicks before Play are the control.
//      Target: 100 ms.
// Writes one JSON file; bench/training-report.mjs turns it and Node's into bench/training.md.
//
//   node bench/browser/training-run.mjs [--runs N] [--out FILE]   (after bench/training-bundle.mjs)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBenchServer } from './server.mjs';
import { CHROMIUM_ARGS } from '../../tests/browser/drivers.mjs';
import { openBrowser } from '../../tests/browser/helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 3));
const OUT = option('--out', path.join(ROOT, 'build', 'bench', 'training', 'browser.json'));
const CLICKS = 5;
const log = (text) => console.error('[training browser]', text);

for (const file of [
  'build/wasm/attention_core.wasm',
  'build/bench/labs-worker.js',
  'build/bench/tfjs-training-browser.mjs',
])
  if (!fs.existsSync(path.join(ROOT, file))) {
    console.error(`${file} is missing: run bench/run.sh, or scripts/build.sh page and bench/training-bundle.mjs`);
    process.exit(1);
  }

async function benchPage() {
  const server = await startBenchServer(ROOT);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    await page.exposeFunction('benchLog', (text) => log(text));
    // CPU time of the renderer processes, all their threads (the Worker's included), as run.mjs reads it
    const cdp = await browser.newBrowserCDPSession();
    await page.exposeFunction('benchCpuSeconds', async () => {
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      return processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime, 0);
    });
    await page.goto(`${server.url}bench/browser/training.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
    page.setDefaultTimeout(0);
    const run = await page.evaluate((runs) => globalThis.runTrainingBench({ runs }), RUNS);
    Object.assign(run.meta, {
      runtime: `Chromium ${browser.version()}`,
      page_problems: problems,
      not_served: server.refused,
    });
    return run;
  } finally {
    await browser.close();
    await server.close();
  }
}

/** One click on the language switch while the lab trains: how long until <html lang> changes. */
async function answerTime(page) {
  const box = await page.locator('#lang-switch').boundingBox();
  await page.evaluate(() => {
    const before = document.documentElement.lang;
    window.trainAnswer = new Promise((resolve) => {
      let clickedAt = null;
      const observer = new MutationObserver(() => {
        if (clickedAt === null || document.documentElement.lang === before) return;
        observer.disconnect();
        resolve({
          ms: performance.now() - clickedAt,
          steps: Number(document.querySelector('#train-status').dataset.steps),
        });
      });
      observer.observe(document.documentElement, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      document.querySelector('#lang-switch').addEventListener(
        'click',
        (e) => {
          clickedAt = e.timeStamp;
        },
        { capture: true, once: true },
      );
    });
  });
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  return page.evaluate(() => window.trainAnswer);
}

async function responsiveness() {
  const b = await openBrowser();
  try {
    const page = await b.open('#view=train-lab&lang=en&traintask=reverse&trainsteps=2000');
    await page.waitForFunction(() => document.querySelector('#train-where')?.dataset.mode, null, { timeout: 120000 });
    const mode = await page.getAttribute('#train-where', 'data-mode');
    // the control: the same clicks on the same page before it trains, in the same minutes
    const idle = [];
    for (let i = 0; i < CLICKS; i++) idle.push(await answerTime(page));
    await page.click('#train-play');
    await page.waitForFunction(() => Number(document.querySelector('#train-status').dataset.steps) >= 20, null, {
      timeout: 120000,
    });
    const answers = [];
    for (let i = 0; i < CLICKS; i++) answers.push(await answerTime(page));
    const stepsAfter = Number(await page.getAttribute('#train-status', 'data-steps'));
    await page.context().close();
    return { mode, idle, answers, stepsAfter, problems: page.problems };
  } finally {
    await b.close();
  }
}

const started = new Date();
const loadavg = [os.loadavg()];
const run = await benchPage();
loadavg.push(os.loadavg());
log('the page answering while the training lab trains');
run.responsiveness = await responsiveness();
loadavg.push(os.loadavg());
Object.assign(run.meta, { date: started.toISOString(), cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadavg });
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify(run, null, 1) + '\n');
log(`wrote ${path.relative(process.cwd(), OUT)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
