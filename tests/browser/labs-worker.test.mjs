// The labs' Web Worker (web/src/labs/labs-worker.js), as the cost lab starts it (cost-run.js),
// inside the single offline file, opened from file:// with the network blocked, in Chromium and in Firefox: under
// that page's Content-Security-Policy (`worker-src blob:`, scripts by hash, 'wasm-unsafe-eval'),
// the worker starts from a Blob URL, compiles the .wasm bytes it is posted and times attention —
// and not one request is attempted. Here the runner and the worker bundle are handed to the page
// by the test, apart from the view; views-shipped.test.mjs runs the same worker through the lab's
// view and its Run button.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { inEachEngine } from './drivers.mjs';
import { bundleLabsWorker } from '../../scripts/lib/labs-worker.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;

// cost-run.js as a classic script that leaves startCostRun on globalThis.
async function runnerScript() {
  const out = await esbuild.build({
    stdin: {
      contents:
        "import { startCostRun } from './web/src/features/cost-lab/cost-run.js'; globalThis.startCostRun = startCostRun;",
      resolveDir: process.cwd(),
    },
    bundle: true,
    write: false,
    format: 'iife',
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

inEachEngine((name, driver) => {
  let runner, workerSource;
  const wasm = fs.readFileSync('build/wasm/attention_core.wasm').toString('base64');
  before(async () => {
    runner = await runnerScript();
    workerSource = await bundleLabsWorker({ minify: true });
  });

  test(`${name}: the offline file runs the cost lab in a Blob-URL worker, posting it the .wasm bytes`, async () => {
    const page = await driver.newPage({ blockNetwork: true });
    await page.goto(FILE);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await page.evaluate(runner);
    const events = await page.evaluate(
      async ([source, base64]) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        // Only what the worker path needs of the page's engine: its build and its bytes.
        const engine = { build: 'simd', wasmBytes: async () => bytes };
        const plan = {
          d: 64,
          sizes: [64, 128, 256],
          paths: ['simd', 'streaming'],
          maxN: {},
          minMs: 10,
          warmUpMs: 20,
          seed: 1,
        };
        const out = [];
        for await (const event of globalThis.startCostRun({ engine, workerSource: source, plan })) out.push(event);
        return out;
      },
      [workerSource, wasm],
    );
    assert.deepEqual(events[0], { type: 'start', mode: 'worker', build: 'simd' });
    const measures = events.filter((e) => e.type === 'measure');
    assert.equal(measures.length, 6, JSON.stringify(events.at(-1)));
    for (const m of measures) assert.ok(m.ms > 0 && m.gflops > 0);
    assert.equal(events.at(-1).type, 'done');
    const others = page.requests.filter((url) => url.replace(/#.*$/, '') !== FILE && !url.startsWith('blob:'));
    assert.deepEqual(others, [], 'no request attempted');
    assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
    await page.closeAll();
  });
});
