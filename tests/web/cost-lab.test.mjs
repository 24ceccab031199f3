// The lab "the cost of n²" (web/src/features/cost-lab/: cost-lab.js, cost-run.js, cost-worker.js) on the real wasm
// core: article §8's claims — time ∝ n², the score matrix n²·4 bytes, the streaming path O(n·d) and
// still running where the core refuses the n² one — and the runner: in a Web Worker (the real worker
// bundle, in a Node thread), on the page's thread in slices with timers still firing, and stopping.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as esbuild from 'esbuild';
import { loadEngine } from '../../web/src/engine.js';
import {
  COST_PLAN,
  MEMORY_SIZES,
  attentionFlops,
  scoreMatrixBytes,
  fitSlope,
  slopes,
  robustTime,
  COMPUTE_BOUND_FACTOR,
  TRUSTED_SPREAD,
  memoryTable,
  runCost,
  planUpTo,
  planStep,
  bestGflops,
  formatBytes,
  formatDuration,
} from '../../web/src/features/cost-lab/cost-lab.js';
import { startCostRun } from '../../web/src/features/cost-lab/cost-run.js';
import { decades } from '../../web/src/features/cost-lab/cost-lab-chart.js';
import { bundleLabsWorker, labsWorkerPlugin } from '../../scripts/lib/labs-worker.mjs';
import { nodeWorker } from './node-worker.mjs';

let engine, workerSource;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
  workerSource = await bundleLabsWorker();
});

// n = 64 … 512, as the browser test runs them; short measurements.
const quick = (over = {}) => ({ ...COST_PLAN, sizes: [64, 128, 256, 512], minMs: 20, warmUpMs: 50, ...over });
const events = async (run) => {
  const out = [];
  for await (const e of run) out.push(e);
  return out;
};

test('the plan: d = 64, n = 64 … 4096 timed, then 8192 where the n² path no longer fits; flops 4·n²·d', () => {
  assert.equal(COST_PLAN.d, 64);
  assert.deepEqual(COST_PLAN.sizes, [64, 128, 256, 512, 1024, 2048, 4096, 8192]);
  assert.equal(attentionFlops(1024, 64), 4 * 1024 * 1024 * 64);
  assert.equal(scoreMatrixBytes(4096), 64 * 2 ** 20); // 4096² floats: 64 MiB
});

test('fitSlope: 2 for t ∝ n², 1 for t ∝ n; slopes() fits only where compute dominates the fixed cost of a call', () => {
  const sizes = [64, 128, 256, 512, 1024];
  assert.ok(Math.abs(fitSlope(sizes.map((n) => ({ n, ms: 3e-6 * n * n }))) - 2) < 1e-12);
  assert.ok(Math.abs(fitSlope(sizes.map((n) => ({ n, ms: 0.01 * n }))) - 1) < 1e-12);
  assert.equal(fitSlope([{ n: 64, ms: 1 }]), null);
  // a fixed 0.2 ms per call bends the small sizes; the upper half still reads ≈ 2
  const measures = sizes.map((n) => ({ type: 'measure', path: 'simd', n, ms: 0.2 + 1e-5 * n * n }));
  assert.ok(fitSlope(measures) < 1.6);
  const fit = slopes(measures, ['simd']).simd;
  // t(64) = 0.241 ms bounds the fixed cost: only n = 1024 (10.7 ms) is 16 times it, and two sizes are the least
  assert.equal(COMPUTE_BOUND_FACTOR, 16);
  assert.deepEqual(fit.sizes, [512, 1024]);
  assert.ok(fit.slope > 1.85, `${fit.slope}`);
  assert.equal(fit.spread, 0, 'no spread given: none assumed');
  assert.equal(fit.busy, false);
  assert.equal(slopes([measures[0]], ['simd']).simd, null, 'one size: no slope');
});

test('robustTime: the fastest sample, and how far the median sits above it', () => {
  const { ms, spread } = robustTime([1.3, 1.0, 1.1, 5.0, 1.05]);
  assert.equal(ms, 1.0, 'other work only adds time: the minimum');
  assert.ok(Math.abs(spread - 0.1) < 1e-12, `median 1.1 is 10% above: ${spread}`);
  assert.deepEqual(robustTime([2]), { ms: 2, spread: 0 });
});

test("a slope's spread: each point's scatter, weighed as the fit weighs it; over ±0.15 the machine was too busy", () => {
  // t ∝ n^2.5: from n = 256 on, 16 times the time at 64, so 256, 512 and 1024 are fitted
  const at = (spreads) =>
    slopes(
      [64, 128, 256, 512, 1024].map((n, i) => ({
        type: 'measure',
        path: 'simd',
        n,
        ms: 1e-6 * n ** 2.5,
        spread: [0, 0, ...spreads][i],
      })),
      ['simd'],
    ).simd;
  // ln 2 apart, the outer points weigh ±1/(2·ln 2); the middle one does not move the slope
  const calm = at([0.05, 0.5, 0.05]);
  assert.deepEqual(calm.sizes, [256, 512, 1024]);
  assert.ok(Math.abs(calm.slope - 2.5) < 1e-12);
  assert.ok(Math.abs(calm.spread - Math.log(1.05) / Math.log(2)) < 1e-12, `${calm.spread}`);
  assert.equal(calm.busy, false);
  const busy = at([0.05, 0, 0.2]);
  assert.ok(busy.spread > TRUSTED_SPREAD && busy.busy, `${busy.spread}`);
});

// A machine other jobs share, on a virtual clock: each call costs 0.05 + 2·10⁻⁶·n² ms; another
// job takes the CPU once every `every` ms on average (seeded), for up to `spell` ms, and that time
// lands in whichever batch is being timed.
function busyRun(seed, { every, spell }) {
  let clock = 0;
  let r = seed >>> 0;
  const rand = () => (r = (Math.imul(r, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const work = (n) => {
    const cost = 0.05 + 2e-6 * n * n;
    clock += cost;
    if (rand() < cost / every) clock += spell * rand();
  };
  // only the clock: the estimator is under test here, not the core
  const timedEngine = { ...engine, simd: () => true, attention: (a) => work(a.q.rows) };
  const plan = { ...COST_PLAN, sizes: [64, 128, 256, 512, 1024], paths: ['simd'], minMs: 60, warmUpMs: 1 };
  return [...runCost(timedEngine, { plan, now: () => clock })];
}

test('a busy machine (seeded spells of other work) moves the median, not the minimum: three runs agree within ±0.15', () => {
  const runs = [1, 2, 3].map((seed) => busyRun(seed, { every: 30, spell: 20 }));
  const fits = runs.map((all) => all.at(-1).slopes.simd);
  const exact = fitSlope([512, 1024].map((n) => ({ n, ms: 0.05 + 2e-6 * n * n })));
  for (const fit of fits) assert.ok(Math.abs(fit.slope - exact) < 0.15, `${fit.slope} vs ${exact}`);
  // at the fitted sizes, one batch at least was left alone: the minimum is the work itself
  for (const all of runs)
    for (const m of all.filter((e) => e.type === 'measure' && e.n >= 512))
      assert.ok(Math.abs(m.ms - (0.05 + 2e-6 * m.n * m.n)) < 1e-9, `n = ${m.n}: ${m.ms} ms`);
  assert.ok(Math.max(...fits.map((f) => f.slope)) - Math.min(...fits.map((f) => f.slope)) < 0.15);
  // the median of the same samples is pulled up by the spells, in every run
  for (const all of runs)
    assert.ok(
      all.some((e) => e.type === 'measure' && e.spread > 0.05),
      'some medians were disturbed',
    );
  for (const m of runs.flatMap((all) => all.filter((e) => e.type === 'measure')))
    assert.ok(m.samples >= 5, `${m.n}: ${m.samples} samples`);
});

test('a machine busy all the time: every batch disturbed differently, the slope is marked as not to be trusted', () => {
  const fit = busyRun(7, { every: 2, spell: 20 }).at(-1).slopes.simd;
  assert.ok(fit.spread > TRUSTED_SPREAD, `spread ${fit.spread}`);
  assert.equal(fit.busy, true);
});

test('memory from the core: at n = 8192 the six n² matrices need 1.5 GiB and are refused; the streaming path needs a few MiB', () => {
  const table = memoryTable(engine);
  assert.deepEqual(
    table.map((r) => r.n),
    MEMORY_SIZES,
  );
  const at = (n) => table.find((r) => r.n === n);
  assert.equal(at(4096).scoreBytes, 4096 * 4096 * 4);
  assert.equal(at(4096).paths.reference.bytes, (6 * 4096 * 4096 + 2 * 4096 + 4096 * 64) * 4);
  assert.ok(at(4096).paths.reference.fits);
  assert.equal(at(8192).paths.reference.fits, false);
  assert.ok(at(8192).paths.streaming.fits && at(65536).paths.streaming.fits);
  assert.ok(at(65536).paths.streaming.bytes < 64 * 2 ** 20, 'n = 65536 streams in less than 64 MiB');
  assert.equal(at(8192).limit, 2 ** 30);
});

test('a run on this thread: every size and path measured, with GFLOP/s, its working memory and the build', () => {
  const all = [...runCost(engine, { plan: quick() })].filter((e) => e.type !== 'tick');
  assert.deepEqual(all[0], { type: 'plan', build: 'simd', total: 12, plan: quick() });
  const measures = all.filter((e) => e.type === 'measure');
  assert.equal(measures.length, 12);
  for (const m of measures) {
    // five batches at least; a call of half a second or more (a busy machine) as often as fits in 3 s
    assert.ok(m.ms > 0 && (m.samples >= 5 || m.batch === 1) && m.batch >= 1 && m.spread >= 0, JSON.stringify(m));
    assert.equal(m.gflops, (4 * m.n * m.n * 64) / (m.ms * 1e6));
    assert.equal(
      m.bytes,
      engine.workingMemory({
        operation: { reference: 'attention_steps', simd: 'attention', streaming: 'attention_streaming' }[m.path],
        nq: m.n,
        nk: m.n,
        d: 64,
        dv: 64,
      }).bytes,
    );
  }
  assert.deepEqual(
    all.filter((e) => e.type === 'progress').map((e) => e.done),
    Array.from({ length: 12 }, (_, i) => i + 1),
  );
  const done = all.at(-1);
  assert.equal(done.type, 'done');
  for (const path of COST_PLAN.paths) assert.ok(Number.isFinite(done.slopes[path].slope), path);
  const at512 = (path) => measures.find((m) => m.path === path && m.n === 512);
  assert.ok(at512('simd').ms < at512('reference').ms, 'the SIMD path beats the plain loops');
});

test('a batch sized while the machine was busy is doubled when the clock reads it as 0 (Firefox: whole ms)', () => {
  // Firefox outside cross-origin isolation: a clock in whole milliseconds. The first batch of one
  // call is stretched to 12 ms by other work; after that a call really takes 0.06 ms, and a batch
  // of one reads 0. The measurement must not be 0 ms (a log axis would have no place for it).
  const CALL_MS = 0.06; // what a call costs on this virtual clock
  let clock = 0;
  let calls = 0;
  let real = 0;
  const timedEngine = {
    ...engine,
    simd: () => true,
    attention: (a) => {
      calls += 1;
      real += calls === 2 ? 12 : CALL_MS; // the warm-up, then the one call the busy machine stretched
      clock = Math.floor(real);
      return engine.attention(a);
    },
  };
  const plan = { ...COST_PLAN, sizes: [64], paths: ['simd'], minMs: 20, warmUpMs: 1 };
  const [measured] = [...runCost(timedEngine, { plan, now: () => clock })].filter((e) => e.type === 'measure');
  // Read to the whole millisecond, a batch's per-call time is off from CALL_MS by at most 1/batch,
  // and a batch that reads at least 5 ms (half of BATCH_MS) holds at least 84 calls, so 128 after
  // doubling. The clock is virtual: this checks what the measurement reads, not how fast anything runs.
  assert.ok(measured.ms > 0, 'not 0 ms');
  assert.ok(
    Math.abs(measured.ms - CALL_MS) <= 1 / measured.batch,
    `the measurement reads the virtual cost of a call (${CALL_MS} ms) to the clock's resolution: ${measured.ms} ms`,
  );
  assert.ok(measured.batch >= 128, `batches of ${measured.batch} calls, read to the millisecond`);
});

test("the time chart's axis: a range with 0 or ∞ in it is still a finite set of decades", () => {
  assert.deepEqual(decades(0.01, 100, 10, 2).ticks, [0.01, 0.1, 1, 10, 100]);
  for (const [lo, hi] of [
    [0, 12],
    [0, 0],
    [-1, 5],
    [3, Infinity],
    [NaN, NaN],
  ]) {
    const { min, max, ticks } = decades(lo, hi, 10, 2);
    assert.ok(min > 0 && Number.isFinite(max) && ticks.length >= 3 && ticks.length < 10, `[${lo}, ${hi}]: ${ticks}`);
  }
});

test('on a clock that advances with the work (n² per call, plus a fixed cost), the run reads a slope of 2', () => {
  // Timings on a machine other jobs share are not reproducible; a virtual clock is. Each call
  // costs 0.05 ms + 2·10⁻⁶·n² ms of virtual time, the real call still runs.
  let clock = 0;
  const tick = (n) => {
    clock += 0.05 + 2e-6 * n * n;
  };
  const timedEngine = {
    ...engine,
    simd: () => true,
    attention: (a) => (tick(a.q.rows), engine.attention(a)),
    attentionStreaming: (a) => (tick(a.q.rows), engine.attentionStreaming(a)),
    attentionSteps: (a) => (tick(a.q.rows), engine.attentionSteps(a)),
  };
  const plan = { ...COST_PLAN, sizes: [64, 128, 256, 512, 1024], paths: ['simd'], minMs: 20, warmUpMs: 1 };
  const all = [...runCost(timedEngine, { plan, now: () => clock })];
  const measures = all.filter((e) => e.type === 'measure');
  measures.forEach((m) => assert.ok(Math.abs(m.ms - (0.05 + 2e-6 * m.n * m.n)) < 1e-9, `${m.n}: ${m.ms}`));
  // n = 64 costs 0.058 ms: 256 calls make the first batch of ≥ 10 ms
  assert.equal(measures[0].batch, 256);
  const { slopes: fitted } = all.at(-1);
  // t(64) = 0.058 ms: only n = 1024 (2.15 ms) is 16 times it; the two largest sizes are fitted
  const model = [512, 1024].map((n) => ({ n, ms: 0.05 + 2e-6 * n * n }));
  assert.deepEqual(fitted.simd.sizes, [512, 1024]);
  assert.ok(Math.abs(fitted.simd.slope - fitSlope(model)) < 1e-9 && fitted.simd.slope > 1.9, `${fitted.simd.slope}`);
  assert.ok(fitted.simd.spread < 1e-9, 'a clock nothing else disturbs: no spread (but rounding)');
  assert.ok(fitSlope(measures) < fitted.simd.slope, 'all sizes: bent by the fixed cost');
});

test('n = 8192: the step-by-step path is refused with the bytes it would need; the streaming path still runs', () => {
  // d = 4 keeps the streaming call short: the refusal depends on n alone (6·n² floats > 1 GiB)
  const plan = { ...COST_PLAN, d: 4, sizes: [8192], paths: ['reference', 'streaming'], minMs: 1 };
  const all = [...runCost(engine, { plan })].filter((e) => e.type === 'refused' || e.type === 'measure');
  const [refused, streamed] = all;
  assert.equal(refused.type, 'refused');
  assert.equal(refused.bytes, (6 * 8192 * 8192 + 2 * 8192 + 8192 * 4) * 4);
  assert.equal(
    refused.bytes,
    engine.workingMemory({ operation: 'attention_steps', nq: 8192, nk: 8192, d: 4, dv: 4 }).bytes,
  );
  assert.equal(refused.error.code, 'too_much_memory');
  assert.match(
    refused.error.message,
    /^attention_steps on 8192×8192 scores needs 1\.5 GiB of working memory; the limit is 1\.0 GiB$/,
  );
  assert.equal(streamed.type, 'measure');
  assert.equal(streamed.path, 'streaming');
});

test('in a Web Worker (the real worker bundle): the same events, the page thread free', async () => {
  const run = startCostRun({
    engine,
    workerSource,
    plan: quick({ paths: ['simd', 'streaming'] }),
    createWorker: nodeWorker,
  });
  const all = await events(run);
  assert.deepEqual(all[0], { type: 'start', mode: 'worker', build: 'simd' });
  assert.equal(all[1].type, 'plan');
  assert.equal(all.filter((e) => e.type === 'measure').length, 8);
  assert.equal(all.at(-1).type, 'done');
  const summary = await run.done;
  assert.ok(Number.isFinite(summary.slopes.simd.slope)); // real time on a shared machine: its value is the previous test's business
});

test('stop() ends a run in the worker at once, even inside a long call', async () => {
  let worker;
  const run = startCostRun({ engine, workerSource, createWorker: (source) => (worker = nodeWorker(source)) });
  const seen = [];
  for await (const e of run) {
    seen.push(e.type);
    if (e.type === 'measure') run.stop();
  }
  assert.equal(seen.at(-1), 'stopped');
  assert.ok(worker.terminated);
  assert.equal(await run.done, null);
});

test('where a Worker cannot start, the run goes on in slices of at most two slices of work, long calls skipped', async () => {
  // The work between two yields to the page, on a virtual clock that advances with each call as
  // the real calls of a slow machine would (0.05 ms + 10⁻⁴·n² ms on the reference path, a tenth
  // of that on the others): real time would also count the moments other jobs hold the CPU.
  let clock = 0,
    longest = 0,
    slices = 0,
    since = 0;
  const costs = (scale) => (a) => {
    clock += scale * (0.05 + 1e-4 * a.q.rows * a.q.rows);
  };
  const [slow, fast] = [costs(1), costs(0.1)];
  const timedEngine = {
    ...engine,
    attention: (a) => (fast(a), engine.attention(a)),
    attentionStreaming: (a) => (fast(a), engine.attentionStreaming(a)),
    attentionSteps: (a) => (slow(a), engine.attentionSteps(a)),
  };
  const pause = async () => {
    longest = Math.max(longest, clock - since);
    slices++;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = clock;
  };
  const run = startCostRun({
    engine: timedEngine,
    workerSource,
    plan: quick(),
    sliceMs: 20,
    now: () => clock,
    yieldToPage: pause,
    createWorker: () => {
      throw new DOMException('blocked by the sandbox', 'SecurityError');
    },
  });
  const all = await events(run);
  assert.deepEqual(all[0], { type: 'start', mode: 'main-thread', build: 'simd', reason: 'worker-threw' });
  assert.equal(all.at(-1).type, 'done');
  assert.ok(slices > 100, `${slices} slices`);
  // a batch of calls stops once it lasts 10 ms (just under 20 at most); a single call is made only when predicted ≤ 20 ms
  assert.ok(longest <= 2 * 20, `a slice worked ${longest.toFixed(1)} ms`);
  // the plain loops at n = 512 take ≈ 4 × their n = 256 time, over a 20 ms slice: skipped, not frozen on
  const skipped = all.filter((e) => e.type === 'skipped');
  assert.ok(
    skipped.some((e) => e.path === 'reference' && e.reason === 'slice'),
    JSON.stringify(skipped),
  );
});

test("stop() on the page's thread: no call is made after it", async () => {
  let calls = 0,
    callsAtStop;
  const counted = { ...engine, attention: (a) => (calls++, engine.attention(a)) };
  let stoppedAt;
  const resumed = new Promise((resolve) => (stoppedAt = resolve));
  const pause = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (callsAtStop !== undefined) stoppedAt();
  };
  const run = startCostRun({ engine: counted, plan: quick({ paths: ['simd'] }), yieldToPage: pause });
  const seen = [];
  for await (const e of run) {
    seen.push(e);
    if (e.type === 'measure') {
      run.stop();
      callsAtStop = calls;
    }
  }
  assert.equal(seen[0].reason, 'no-worker-source');
  assert.equal(seen.at(-1).type, 'stopped');
  // The loop's next step, after its pause, is where it would call again: let that pause end.
  await resumed;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, callsAtStop);
  assert.equal(await run.done, null);
});

test('a worker that fails before it is ready (e.g. its wasm blocked) hands the run to the page thread', async () => {
  const failing = () => {
    const listeners = { message: [], error: [] };
    return {
      addEventListener: (type, f) => listeners[type].push(f),
      postMessage: () =>
        setTimeout(() =>
          listeners.message.forEach((f) => f({ data: { type: 'error', error: { message: 'CompileError' } } })),
        ),
      terminate() {},
    };
  };
  const run = startCostRun({
    engine,
    workerSource,
    plan: quick({ sizes: [64], paths: ['simd'] }),
    createWorker: failing,
  });
  const all = await events(run);
  assert.equal(all[0].mode, 'main-thread');
  assert.equal(all[0].reason, 'worker-failed');
  assert.equal(all.at(-1).type, 'done');
});

test('the page bundles receive the worker as text through labsWorkerPlugin', async () => {
  const out = await esbuild.build({
    entryPoints: [new URL('../../web/src/labs/labs-worker-source.js', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    plugins: [labsWorkerPlugin()],
    logLevel: 'silent',
  });
  const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`;
  const { default: source } = await import(url);
  assert.equal(source, workerSource);
  assert.match(source, /onmessage/);
  assert.doesNotMatch(source, /AGFzbQ/, 'no .wasm inside (base64 of "\\0asm")');
});

test("the view's helpers: a plan up to state.costmax, which step is next, the best GFLOP/s", () => {
  assert.deepEqual(planUpTo(512).sizes, [64, 128, 256, 512]);
  assert.deepEqual(planUpTo(8192).sizes, COST_PLAN.sizes);
  assert.equal(planUpTo(512).d, COST_PLAN.d);
  const plan = planUpTo(256); // 3 sizes × 3 paths
  assert.deepEqual(planStep(plan, 0), { n: 64, path: 'reference' });
  assert.deepEqual(planStep(plan, 4), { n: 128, path: 'simd' });
  assert.deepEqual(planStep(plan, 8), { n: 256, path: 'streaming' });
  assert.equal(planStep(plan, 9), null);
  const results = [
    { type: 'measure', path: 'simd', n: 64, gflops: 3 },
    { type: 'measure', path: 'simd', n: 128, gflops: 7 },
    { type: 'measure', path: 'streaming', n: 128, gflops: 9 },
    { type: 'refused', path: 'simd', n: 8192 },
  ];
  assert.deepEqual(bestGflops(results), { gflops: 7, n: 128 });
  assert.equal(bestGflops([]), null);
});

test('bytes in binary units and durations, three significant digits, no exponent', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(131072), '128 KiB');
  assert.equal(formatBytes(scoreMatrixBytes(4096)), '64 MiB');
  assert.equal(formatBytes((7 * 8192 * 8192 + 8192 * 64) * 4), '1.75 GiB');
  assert.equal(formatBytes(2 ** 30), '1 GiB');
  assert.equal(formatBytes(1024 * 1024 - 1), '1 MiB'); // never "1024 KiB"
  assert.equal(formatDuration(0.06123), '0.0612 ms');
  assert.equal(formatDuration(12.34), '12.3 ms');
  assert.equal(formatDuration(999.8), '1 s');
  assert.equal(formatDuration(2414), '2.41 s');
});

test('the output-only paths write into one out per size; the step-by-step path is not given one', () => {
  // A new output array per call would time the allocator too: in Chromium here its fresh memory
  // was most of a call at n = 64 (wasm/api.mjs, readOutput).
  const seen = { attention: [], attentionStreaming: [], attentionSteps: [] };
  const spy = {
    ...engine,
    attention: (a) => (seen.attention.push(a), engine.attention(a)),
    attentionStreaming: (a) => (seen.attentionStreaming.push(a), engine.attentionStreaming(a)),
    attentionSteps: (a) => (seen.attentionSteps.push(a), engine.attentionSteps(a)),
  };
  // (not n = 128, where the warm-up runs on inputs of its own)
  const plan = quick({ sizes: [64, 256], minMs: 1, warmUpMs: 1 });
  const all = [...runCost(spy, { plan })].filter((e) => e.type === 'measure');
  assert.equal(all.length, 6);
  for (const fn of ['attention', 'attentionStreaming'])
    for (const n of [64, 256]) {
      const calls = seen[fn].filter((a) => a.q.rows === n);
      const outs = new Set(calls.map((a) => a.out));
      assert.ok(calls.length > 1);
      assert.equal(outs.size, 1, `${fn} at n = ${n}: one out for every call`);
      const [out] = outs;
      assert.ok(out instanceof Float32Array && out.length === n * plan.d);
      // both paths of a size share it: it holds the last one's output, equal to attention's to rounding
      const { q, k, v } = calls[0];
      const want = engine.attention({ q, k, v }).data;
      assert.ok(
        out.every((x, i) => Math.abs(x - want[i]) <= 1e-5),
        `${fn} at n = ${n}: out holds the output`,
      );
    }
  assert.ok(seen.attentionSteps.length > 0 && seen.attentionSteps.every((a) => !('out' in a)));
});
