// browser/run.mjs — one full run of the benchmark in Debian's Chromium: starts the loopback server
// (browser/server.mjs), launches /usr/bin/chromium through playwright-core, opens the page
// (browser/index.html → page.mjs), runs it and writes one JSON file, the same shape as the Node
// harness's. bench/run.sh starts it once per run, so every run gets a fresh browser.
//
//   node bench/browser/run.mjs --out FILE [--quick] [--all-forms] [--break=ID]   (after a build)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBenchServer } from './server.mjs';
import { CHROMIUM_ARGS } from '../../tests/browser/drivers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : null;
const options = {
  quick: args.includes('--quick'),
  allForms: args.includes('--all-forms'),
  breakId: args.find((a) => a.startsWith('--break='))?.slice('--break='.length) ?? null,
};
// The project's usual flags for headless Chromium here, plus an exposed gc() for the samples' GC.
const LAUNCH_ARGS = [...CHROMIUM_ARGS, '--js-flags=--expose-gc'];
const log = (text) => console.error('[bench browser]', text);

if (!OUT) {
  console.error('usage: node bench/browser/run.mjs --out FILE [--quick] [--all-forms] [--break=ID]');
  process.exit(2);
}
for (const file of [
  'build/wasm/attention_core.wasm',
  'build/wasm/attention_core_scalar.wasm',
  'build/bench/peak-web.mjs',
])
  if (!fs.existsSync(path.join(ROOT, file))) {
    console.error(`${file} is missing: run bench/run.sh (after npm run build)`);
    process.exit(1);
  }

const loadavg = os.loadavg();
const started = new Date();
const server = await startBenchServer(ROOT);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
try {
  // CPU time of the renderer processes, all their threads (Web Workers included), from the browser
  // process over the DevTools protocol; only the benchmark page does work while it runs
  const cdp = await browser.newBrowserCDPSession();
  const rendererCpuSeconds = async () => {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime, 0);
  };
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  await page.exposeFunction('benchCpuSeconds', rendererCpuSeconds);
  await page.exposeFunction('benchLog', (text) => log(text));
  await page.goto(`${server.url}bench/browser/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const run = await page.evaluate((opts) => globalThis.runBench(opts), options);
  Object.assign(run.meta, {
    date: started.toISOString(),
    runtime: `Chromium ${browser.version()}`,
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    loadavg_at_start: loadavg,
    loadavg_at_end: os.loadavg(),
    // the wasm binaries the page fetched: which build of each runtime really ran
    wasm_served: [...new Set(server.served.filter((u) => u.endsWith('.wasm')))],
    not_served: server.refused,
    page_problems: problems,
  });
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(run, null, 1) + '\n');
  log(`wrote ${path.relative(process.cwd(), OUT)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await browser.close();
  await server.close();
}
