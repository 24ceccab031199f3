// kernel-ab.mjs — relaxed-SIMD kernel variants compared in Debian's Chromium, each against the
// relaxed_madd peak measured in the same round: the tool of issue 20's kernel work (bench/NOTES.md,
// "Relaxed SIMD"). Not part of `npm run bench`, whose table times the public JS API.
//
//   bash bench/wasm/build-core-bench.sh old   # on the last commit
//   bash bench/wasm/build-core-bench.sh new   # with the change
//   node bench/kernel-ab.mjs old new [--rounds 7] [--sizes 1024,64]
//
// Needs build/bench/peak-relaxed-web.mjs (bench/run.sh builds it). Timed by CPU time, not wall
// time: the run time of the page's renderer process (all its threads; the wasm runs on its main
// thread), read in nanoseconds from /proc/PID/task/*/schedstat (Linux) before and after each piece
// of work. On this shared 2-core machine the
// load average reached 30 while other builds ran, and wall-clock samples then measured the
// scheduler (the peak came out at 2–8 GFLOP/s); time spent waiting for a core is not CPU time.
// What CPU time still counts: caches refilled after another process ran, and a clock that drops
// when every core is busy — which is why each round measures the peak too, and each variant's
// ratio is to its own round's peak.
// Every round: the peak (10, 12 and 16 chains, ≈ 10 ms of CPU time each; the best), then each build
// at each size (d = 64, ≥ 40 ms of CPU time per sample, `attention` inside wasm, bench/wasm/core_bench.cpp) in an order
// that rotates from round to round. Prints, for each build and size, the median over the rounds of
// ms per call and of its ratio to that round's peak, with the lowest and highest round.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBenchServer } from './browser/server.mjs';
import { CHROMIUM_ARGS } from '../tests/browser/drivers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const D = 64;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const rounds = Number(option('--rounds', '7'));
const sizes = option('--sizes', '1024,64').split(',').map(Number);
const labels = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));

if (labels.length === 0 || !(rounds >= 1) || sizes.some((n) => !(n >= 1))) {
  console.error('usage: node bench/kernel-ab.mjs LABEL… [--rounds N] [--sizes 1024,64]');
  process.exit(2);
}
for (const file of [
  'build/bench/peak-relaxed-web.mjs',
  ...labels.map((l) => `build/bench/core-bench-relaxed-${l}.mjs`),
])
  if (!fs.existsSync(path.join(ROOT, file))) {
    console.error(`${file} is missing (bench/run.sh builds the peak, bench/wasm/build-core-bench.sh the builds)`);
    process.exit(1);
  }

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs, digits) => `[${Math.min(...xs).toFixed(digits)}, ${Math.max(...xs).toFixed(digits)}]`;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

// CPU seconds so far of all the threads of a process: the first field of each thread's
// /proc/PID/task/TID/schedstat, in nanoseconds.
const cpuSeconds = (pid) =>
  fs
    .readdirSync(`/proc/${pid}/task`)
    .reduce(
      (sum, tid) => sum + Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]),
      0,
    ) / 1e9;

// The page's renderer: of the renderer processes (Chromium starts more than one, and the others
// use a little CPU too), the one that runs a long piece of the page's work.
async function rendererPid(browser, page) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  const pids = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  const before = pids.map(cpuSeconds);
  await page.evaluate(() => globalThis.abPeak(16, 4e7)); // ≈ 0.1 s: far more than the others' own work
  const grew = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
  return pids[grew.indexOf(Math.max(...grew))];
}

// CPU seconds of `work` (a call into the page) on the renderer's main thread.
async function cpuOf(page, pid, work, arg) {
  const t0 = cpuSeconds(pid);
  await page.evaluate(work, arg);
  return cpuSeconds(pid) - t0;
}

// The relaxed_madd peak in GFLOP/s: the best of 10, 12 and 16 chains, 4e6 steps each (≈ 10 ms of CPU).
async function peakGflops(page, pid) {
  const iterations = 4e6;
  const each = [];
  for (const chains of [10, 12, 16]) {
    const s = await cpuOf(page, pid, ([c, i]) => globalThis.abPeak(c, i), [chains, iterations]);
    each.push((8 * chains * iterations) / (s * 1e9));
  }
  return Math.max(...each);
}

// ms per call of one build at n (CPU time), over enough calls for ≥ 40 ms.
async function attentionMs(page, pid, label, n) {
  const calls = Math.max(4, Math.round((6 * 1024 * 1024) / (n * n)));
  const s = await cpuOf(page, pid, ([l, m, d, c]) => globalThis.abAttention(l, m, d, c), [label, n, D, calls]);
  return (s * 1e3) / calls;
}

async function measure(page, pid) {
  const out = [];
  for (let r = 0; r < rounds; ++r) {
    const round = { peak: await peakGflops(page, pid), builds: {} };
    for (let i = 0; i < labels.length; ++i) {
      const label = labels[(i + r) % labels.length];
      round.builds[label] = {};
      for (const n of sizes) {
        const ms = await attentionMs(page, pid, label, n);
        round.builds[label][n] = { ms, vs_peak: (4 * n * n * D) / (ms * 1e6) / round.peak };
      }
    }
    console.error(`[kernel-ab] round ${r + 1}/${rounds}: peak ${round.peak.toFixed(1)} GFLOP/s, load ${load()}`);
    out.push(round);
  }
  return out;
}

function report(result, version, loadAtStart) {
  const peaks = result.map((r) => r.peak);
  console.log(`Chromium ${version}, ${rounds} rounds, CPU time, load average ${loadAtStart} → ${load()}`);
  console.log(`relaxed_madd peak: median ${median(peaks).toFixed(1)} GFLOP/s ${range(peaks, 1)}`);
  for (const n of sizes)
    for (const label of labels) {
      const ms = result.map((r) => r.builds[label][n].ms);
      const ratio = result.map((r) => r.builds[label][n].vs_peak * 100);
      console.log(
        `n = ${n}, d = ${D}, ${label}: ${median(ms).toFixed(3)} ms ${range(ms, 3)}, ` +
          `vs peak ${median(ratio).toFixed(1)}% ${range(ratio, 1)}`,
      );
    }
}

const loadAtStart = load();
const server = await startBenchServer(ROOT);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(`${server.url}bench/browser/kernel-ab.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.evaluate(([l, s, d]) => globalThis.abInit(l, s, d), [labels, sizes, D]);
  report(await measure(page, await rendererPid(browser, page)), browser.version(), loadAtStart);
} finally {
  await browser.close();
  await server.close();
}
