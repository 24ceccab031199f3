// suite.mjs — one full run of the benchmark, the same in Node (harness.mjs) and in the browser
// (browser/page.mjs): every implementation at every size, outputs checked first, samples
// interleaved, plus the wasm mul+add peak at the start, after n = 1024 and at the end. The caller
// supplies what differs between the two environments:
//   drain()       lets pending work of the previous sample finish (onnxruntime-web resolves
//                 through promises and timers) and runs a full GC where one is exposed, so that
//                 garbage one implementation left behind is not collected in the next one's sample
//   cpuSeconds()  CPU time of the whole process (all threads) so far, or null: at n = 1024 each
//                 implementation runs back to back for a while (outside the timed samples) and
//                 CPU time / wall time shows how many threads it really kept busy — ≈ 1 for one
//                 thread (plus V8's own background work), ≈ 2 if it used both cores
//   log(text)     progress
// Ratios are not computed here: bench/report.mjs derives them, per run and across runs.

import { inputs, reference, checkOutput, relError, MAX_REL_ERR } from './inputs.mjs';
import { ourImplementations } from './peers/ours.mjs';
import { tfjsImplementations } from './peers/tfjs.mjs';
import { ortImplementations } from './peers/ort.mjs';

export const SIZES = [
  [16, 64],
  [64, 64],
  [256, 64],
  [1024, 64],
  [2048, 64],
  [4096, 64],
  [256, 16],
];
const PEAK_CHAINS = [8, 10, 12, 16];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const THREAD_CHECK_N = 1024;

// One sample: `calls` back-to-back calls after a drain, in ms per call. Synchronous
// implementations are called without any await, so no microtask of another implementation can
// land inside their sample.
async function sample(impl, run, calls, env) {
  await env.drain();
  const t0 = performance.now();
  if (impl.async) for (let c = 0; c < calls; c++) await run();
  else for (let c = 0; c < calls; c++) run();
  return (performance.now() - t0) / calls;
}

// CPU time / wall time over ≥ `ms` of back-to-back calls (long enough for the coarse CPU clocks:
// Linux counts process CPU time in 10 ms ticks).
async function cpuPerWall(impl, run, ms, env) {
  await env.drain();
  const cpu0 = await env.cpuSeconds();
  if (cpu0 === null) return null;
  const t0 = performance.now();
  do {
    if (impl.async) await run();
    else run();
  } while (performance.now() - t0 < ms);
  const wall = performance.now() - t0;
  return (((await env.cpuSeconds()) - cpu0) * 1000) / wall;
}

// With `breakId`, that implementation is given Q·(1/√d) instead of Q: it then computes
// softmax(QKᵀ/d)·V, the classic 1/d_k-for-1/√d_k mistake, and the gate must reject it.
async function benchSize(n, d, impls, env) {
  const x = inputs(n, d);
  const { output: want, stats } = reference(x);
  const brokenQ = { ...x.q, data: x.q.data.map((value) => value / Math.sqrt(d)) };
  const rows = [],
    live = [];
  for (const impl of impls) {
    if (impl.maxN && n > impl.maxN) continue;
    const row = { impl: impl.id, label: impl.label, peer: impl.peer ?? null, n, d };
    rows.push(row);
    try {
      const broken = impl.id === env.breakId;
      if (broken) row.broken_on_purpose = true;
      const prepared = await impl.prepare(broken ? brokenQ : x.q, x.k, x.v);
      row.rel_error = checkOutput(await prepared.run(), want, impl.id);
      // warm-up ≥ 3 calls and ≥ 300 ms: V8 compiles wasm with Liftoff first and tiers hot
      // functions up to TurboFan in the background; every implementation gets the same chance
      const warmStart = performance.now();
      let warm = 0;
      while (warm < 3 || performance.now() - warmStart < (env.quick ? 50 : 300)) {
        await prepared.run();
        warm++;
      }
      const perCall = (performance.now() - warmStart) / warm;
      live.push({ impl, prepared, row, calls: Math.max(1, Math.ceil(10 / perCall)), samples: [] });
    } catch (e) {
      row.error = String(e.message ?? e).split('\n')[0];
      env.log(`${impl.id} n=${n} d=${d}: ${row.error}`);
    }
  }
  // rounds of one sample per implementation, the order rotating each round so that no
  // implementation always runs right after the same neighbour
  const rounds = env.quick ? 5 : n <= 1024 ? 21 : 9;
  for (let r = 0; r < rounds; r++)
    for (let t = 0; t < live.length; t++) {
      const l = live[(r + t) % live.length];
      l.samples.push(await sample(l.impl, l.prepared.run, l.calls, env));
    }
  for (const l of live) {
    const ms = l.samples;
    // the output of a call after all the timed ones passes the gate too
    const after = relError(await l.prepared.run(), want);
    if (!(after <= MAX_REL_ERR))
      l.row.error = `${l.impl.id}: the output after timing differs from the reference (relative error ${after.toExponential(2)})`;
    Object.assign(l.row, {
      median_ms: median(ms),
      min_ms: Math.min(...ms),
      max_ms: Math.max(...ms),
      samples: ms.length,
      calls_per_sample: l.calls,
    });
    if (n === THREAD_CHECK_N) l.row.cpu_per_wall = await cpuPerWall(l.impl, l.prepared.run, env.quick ? 150 : 400, env);
    await l.prepared.dispose();
  }
  return { n, d, stats, rows };
}

// The peak (GFLOP/s) for each accumulator-chain count; `peak._peak_gflops(chains, iters)` is
// bench/wasm/peak.cpp: mul+add chains in its SIMD128 build, relaxed_madd chains in its relaxed one.
function measurePeak(peak, samples, quick) {
  const byChains = {};
  for (const chains of PEAK_CHAINS) {
    peak._peak_gflops(chains, 2e6); // warm-up
    byChains[chains] = Array.from({ length: samples }, () => peak._peak_gflops(chains, quick ? 2e6 : 1e7));
  }
  return byChains;
}

/**
 * Every implementation a run compares, the same in Node and in the page: ours (the SIMD and the
 * scalar build, and the relaxed-SIMD build where the engine runs it — `relaxed` is null where it
 * does not), then each peer that loads. loadTf and loadOrt are the environment's own loaders;
 * a peer that fails to load is left out, its error kept in `errors` (reported with the run).
 * breakId, when given, must name one of them.
 * → { impls, errors, info: { tfjs, ort } } (each peer's own report of how it runs, or null)
 */
export async function implementations({
  simd,
  scalar,
  relaxed = null,
  loadTf,
  loadOrt,
  allForms = false,
  breakId = null,
  log,
}) {
  if (!simd.simd() || scalar.simd() || simd.relaxedSimd() || (relaxed && !relaxed.relaxedSimd()))
    throw new Error('the SIMD/scalar/relaxed modules are not what they say');
  const errors = {};
  const load = async (key, name, loader) => {
    try {
      return await loader();
    } catch (e) {
      errors[key] = String(e.message ?? e);
      log(`${name}: ${errors[key]}`);
      return null;
    }
  };
  const tfjs = await load('tfjs', 'TensorFlow.js', loadTf);
  const ortMod = await load('ort', 'onnxruntime-web', loadOrt);
  const impls = [
    ...ourImplementations({ simd, scalar, relaxed }),
    ...(tfjs ? tfjsImplementations(tfjs.tf, { allForms }) : []),
    ...(ortMod ? ortImplementations(ortMod.ort) : []),
  ];
  if (breakId && !impls.some((i) => i.id === breakId)) throw new Error(`--break=${breakId}: no such implementation`);
  return { impls, errors, info: { tfjs: tfjs?.info ?? null, ort: ortMod?.info ?? null } };
}

/**
 * Collects garbage between samples where the engine lets us (gc() exists with --expose-gc), after a
 * macrotask that lets onnxruntime-web's pending promises and timers finish.
 */
export const drain = () =>
  new Promise((resolve) =>
    setTimeout(() => {
      globalThis.gc?.();
      resolve();
    }, 0),
  );

// For each chain count the median over all samples of the run; the best count is the peak.
function summarisePeak(peakRuns) {
  const byChains = Object.fromEntries(
    PEAK_CHAINS.map((c) => [c, median(Object.values(peakRuns).flatMap((p) => p[c]))]),
  );
  const [chains, gflops] = Object.entries(byChains).sort((a, b) => b[1] - a[1])[0];
  const all = Object.values(peakRuns).flatMap((p) => p[chains]);
  return { gflops, chains: Number(chains), min: Math.min(...all), max: Math.max(...all), by_chains: byChains };
}

/**
 * One full run. `peak` is the SIMD128 mul+add peak module, `relaxedPeak` the relaxed_madd one
 * (null where the engine has no relaxed SIMD); both are measured at the start, after n = 1024
 * and at the end.
 */
export async function runSuite({ impls, peak, relaxedPeak = null, env }) {
  const peakSamples = env.quick ? 3 : 7;
  const peaks = { peak, relaxed_peak: relaxedPeak };
  const runs = { peak: {}, relaxed_peak: {} };
  const measureAll = (when) => {
    for (const [key, module] of Object.entries(peaks))
      if (module) runs[key][when] = measurePeak(module, peakSamples, env.quick);
  };
  measureAll('start');
  for (const key of Object.keys(peaks))
    if (peaks[key])
      env.log(
        `${key} (start): ${PEAK_CHAINS.map((c) => `${c}: ${median(runs[key].start[c]).toFixed(1)}`).join(', ')} GFLOP/s`,
      );
  const sizes = [];
  for (const [n, d] of SIZES) {
    env.log(`n = ${n}, d = ${d} …`);
    sizes.push(await benchSize(n, d, impls, env));
    if (n === 1024) measureAll('middle');
  }
  measureAll('end');
  return {
    sizes,
    peak: summarisePeak(runs.peak),
    relaxed_peak: relaxedPeak ? summarisePeak(runs.relaxed_peak) : null,
  };
}
