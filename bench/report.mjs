// report.mjs — turns the runs of one `npm run bench` (bench/run.sh) into bench/results.md and
// bench/results.json. Every figure is a median across the runs (each run's own figure is the
// median of its samples), never the best run, and every ratio is listed run by run as well.
//
//   node bench/report.mjs --runs DIR [--out DIR]
// DIR holds node-<i>.json (bench/harness.mjs), browser-<i>.json (bench/browser/run.mjs) and, if
// the native bench ran, native.json; --out defaults to DIR.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gateMistakes } from './gate-mistakes.mjs';
import { SIZES } from './suite.mjs';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? args[args.indexOf('--runs') + 1] : null;
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : RUNS;
const TARGET_RATIO = 1.5,
  TARGET_PEAK = 0.6;
// The relaxed-SIMD build's targets, in Chromium: ≥ 1.5× the best peer at n = 1024, ≥ 1.2× at
// every n from 64 to 4096 (d = 64), ≥ 75% of the relaxed_madd peak at n = 1024. Reported for both
// forms of the call: a new output array per call, and the output into one given array (`out`).
const RELAXED = { ratio1024: 1.5, ratioEvery: 1.2, peak: 0.75, from: 64, to: 4096 };
// Each form: its row, what it is called in the report, and the SIMD128 row of the same form.
const RELAXED_FORMS = [
  { impl: 'wasm-relaxed', name: 'new output array', simd: 'wasm-simd' },
  { impl: 'wasm-relaxed-out', name: 'into `out`', simd: 'wasm-simd-out' },
];
// Each full run's ratios at n = 1024, d = 64 are appended here (never by --quick or --break runs),
// so that the report can show the spread across days as well as across one day's runs.
const HISTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'history.json');
const HISTORY_IMPLS = ['wasm-simd', 'wasm-relaxed', 'wasm-relaxed-out'];
const ENVIRONMENTS = { node: 'Node', browser: 'Chromium' };

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : '—');
const gflops = (n, d, ms) => (4 * n * n * d) / (ms * 1e6);

function loadRuns(dir) {
  const runs = {};
  for (const env of Object.keys(ENVIRONMENTS)) {
    runs[env] = fs
      .readdirSync(dir)
      .filter((f) => new RegExp(`^${env}-\\d+\\.json$`).test(f))
      .sort((a, b) => parseInt(a.match(/\d+/)[0], 10) - parseInt(b.match(/\d+/)[0], 10))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  }
  const nativeFile = path.join(dir, 'native.json');
  return { runs, native: fs.existsSync(nativeFile) ? JSON.parse(fs.readFileSync(nativeFile, 'utf8')) : null };
}

const isRelaxed = (impl) => impl.startsWith('wasm-relaxed');
const peakOf = (run, impl) => (isRelaxed(impl) ? (run.relaxed_peak?.gflops ?? NaN) : run.peak.gflops);

// Per run and size: the fastest form of each peer, the best peer overall, and each row's ratio to
// it and to the run's peak.
function analyseRun(run) {
  return run.sizes.map(({ n, d, stats, rows }) => {
    const ok = rows.filter((r) => !r.error && Number.isFinite(r.median_ms));
    const fastest = (peer) => ok.filter((r) => r.peer === peer).sort((a, b) => a.median_ms - b.median_ms)[0] ?? null;
    const perPeer = { tfjs: fastest('tfjs'), ort: fastest('ort') };
    const best =
      Object.values(perPeer)
        .filter(Boolean)
        .sort((a, b) => a.median_ms - b.median_ms)[0] ?? null;
    const byImpl = Object.fromEntries(
      ok.map((r) => [
        r.impl,
        {
          ...r,
          gflops: gflops(n, d, r.median_ms),
          vs_best_peer: best ? best.median_ms / r.median_ms : NaN,
          // the relaxed build against the relaxed_madd peak, every other row against mul+add
          vs_peak: gflops(n, d, r.median_ms) / peakOf(run, r.impl),
        },
      ]),
    );
    return { n, d, stats, rows, perPeer, best, byImpl };
  });
}

// Across the runs of one environment: for each size the per-run analyses side by side.
function summarise(runs) {
  const analysed = runs.map(analyseRun);
  return SIZES.map(([n, d]) => {
    const perRun = analysed.map((a) => a.find((s) => s.n === n && s.d === d)).filter(Boolean);
    const impls = [...new Set(perRun.flatMap((s) => s.rows.map((r) => r.impl)))];
    const rows = impls.map((impl) => {
      const got = perRun.map((s) => s.byImpl[impl]).filter(Boolean);
      const first = perRun.flatMap((s) => s.rows).find((r) => r.impl === impl);
      const errors = perRun.flatMap((s) => s.rows.filter((r) => r.impl === impl && r.error).map((r) => r.error));
      return {
        impl,
        label: first.label,
        peer: first.peer,
        runs: got.length,
        errors,
        median_ms: median(got.map((r) => r.median_ms)),
        run_ms: got.map((r) => r.median_ms),
        vs_best_peer: median(got.map((r) => r.vs_best_peer)),
        run_vs_best_peer: got.map((r) => r.vs_best_peer),
        vs_peak: median(got.map((r) => r.vs_peak)),
        run_vs_peak: got.map((r) => r.vs_peak),
        max_rel_error: Math.max(...got.map((r) => r.rel_error)),
        cpu_per_wall: median(got.map((r) => r.cpu_per_wall ?? NaN)),
        gflops: gflops(n, d, median(got.map((r) => r.median_ms))),
      };
    });
    return {
      n,
      d,
      stats: perRun[0]?.stats,
      rows,
      best_peer_per_run: perRun.map((s) => s.best?.impl ?? null),
      fastest_form_per_run: Object.fromEntries(
        ['tfjs', 'ort'].map((p) => [p, perRun.map((s) => s.perPeer[p]?.impl ?? null)]),
      ),
    };
  });
}

// The relaxed-SIMD build (wasm-relaxed) at every size, where the environment ran it.
function relaxedHeadline(L, { runs, summaries, envs }) {
  const withRelaxed = envs.filter((e) => runs[e].some((r) => r.relaxed_peak));
  if (!withRelaxed.length) return;
  L.push('## Relaxed SIMD: `attention` with f32x4.relaxed_madd', '');
  L.push(
    '"vs peak" here is against the relaxed_madd peak (chains of one f32x4.relaxed_madd each) measured in the same run; "vs SIMD128" is the SIMD128 build\'s time in the same form ÷ this one. "new output array": `attention({ q, k, v })`, a new Float32Array per call, as every peer returns; "into `out`": `attention({ q, k, v, out })`, the output written into one array made with the inputs — no peer has that form on the CPU (bench/NOTES.md).',
    '',
    '| environment | form | n | d | ms | vs best peer: median [lowest, highest run] | vs relaxed peak: median [each run] | relaxed peak GFLOP/s [each run] | vs SIMD128 |',
    '|---|---|---:|---:|---:|---|---|---|---:|',
  );
  for (const env of withRelaxed) {
    const peaks = runs[env].map((x) => x.relaxed_peak?.gflops);
    for (const form of RELAXED_FORMS)
      for (const s of summaries[env]) {
        const r = s.rows.find((x) => x.impl === form.impl),
          simd = s.rows.find((x) => x.impl === form.simd);
        if (!r?.runs) continue;
        L.push(
          `| ${ENVIRONMENTS[env]} | ${form.name} | ${s.n} | ${s.d} | ${fmt(r.median_ms, 3)} | **${fmt(r.vs_best_peer)}×** [${fmt(Math.min(...r.run_vs_best_peer))}, ${fmt(Math.max(...r.run_vs_best_peer))}] | ${pct(r.vs_peak)} [${r.run_vs_peak.map(pct).join(', ')}] | ${fmt(median(peaks), 1)} [${peaks.map((x) => fmt(x, 1)).join(', ')}] | ${fmt(simd?.median_ms / r.median_ms)}× |`,
        );
      }
  }
  L.push('');
}

// The spread across days: every committed run's ratios at n = 1024, d = 64 (bench/history.json).
function historySection(L, history) {
  if (!history.length) return;
  L.push('## Across days: n = 1024, d = 64, vs best peer', '');
  L.push('| environment | build | day | runs | median | lowest | highest |', '|---|---|---|---:|---:|---:|---:|');
  const keys = [...new Set(history.map((h) => `${h.environment}|${h.impl}`))];
  for (const key of keys) {
    const [env, impl] = key.split('|');
    const mine = history.filter((h) => h.environment === env && h.impl === impl);
    for (const day of [...new Set(mine.map((h) => h.date.slice(0, 10)))]) {
      const xs = mine.filter((h) => h.date.startsWith(day)).flatMap((h) => h.run_vs_best_peer);
      L.push(
        `| ${ENVIRONMENTS[env]} | ${impl} | ${day} | ${xs.length} | ${fmt(median(xs))}× | ${fmt(Math.min(...xs))}× | ${fmt(Math.max(...xs))}× |`,
      );
    }
    const all = mine.flatMap((h) => h.run_vs_best_peer);
    L.push(
      `| ${ENVIRONMENTS[env]} | ${impl} | **all days** | ${all.length} | **${fmt(median(all))}×** | **${fmt(Math.min(...all))}×** | **${fmt(Math.max(...all))}×** |`,
    );
  }
  L.push('');
}

function markdown({ runs, native, summaries, gate, targets, history }) {
  const L = [];
  const all = Object.values(runs).flat();
  const first = all[0]?.meta;
  const dates = all.map((r) => r.meta.date).sort();
  const quick = all.some((r) => r.meta.quick);
  const envs = Object.keys(ENVIRONMENTS).filter((e) => runs[e].length);
  L.push('# Benchmark results (`npm run bench`)', '');
  if (quick) L.push('**A quick smoke run (`--quick`: 5 samples per size, short warm-ups): not a result.**', '');
  L.push(
    `Runs started ${dates[0]?.slice(0, 16).replace('T', ' ')}–${dates.at(-1)?.slice(11, 16)} UTC on ${first?.cpu}, ${first?.cores} cores, single-threaded runs: ` +
      envs
        .map((e) => `${runs[e].length} full run${runs[e].length === 1 ? '' : 's'} in ${runs[e][0].meta.runtime}`)
        .join(' and ') +
      `, alternating, each in a fresh ${envs.map((e) => (e === 'node' ? 'Node process' : 'browser')).join(' / ')}. ` +
      `Load average (1 min) at the start of each run: ${envs.map((e) => `${ENVIRONMENTS[e]} ${runs[e].map((r) => r.meta.loadavg_at_start[0].toFixed(1)).join(', ')}`).join('; ')} — the machine is shared, timings are noisy.`,
    '',
  );
  L.push(
    "**Every figure below is the median across the runs** (each run's own figure being the median of its samples), never the best run; " +
      'the ratios of each run are listed beside it. Full attention forward softmax(QKᵀ/√d)·V, float32, n_q = n_k = n, d_k = d_v = d; GFLOP/s counts 4·n²·d. ' +
      'In each run every implementation is timed in rounds of one sample each (rotating order, a full GC and a drained event loop before every sample; ' +
      '21 rounds up to n = 1024, 9 at n = 2048), a sample being ≥ 10 ms of back-to-back calls after ≥ 300 ms of warm-up. ' +
      '"vs best peer" = time of the fastest form of the fastest peer (TensorFlow.js-wasm or onnxruntime-web) in the same run ÷ this time; ' +
      '"vs peak" = GFLOP/s ÷ the wasm SIMD128 mul+add peak measured in the same run and environment. ' +
      'Our `attention` is timed through its public JS API, copies of Q, K, V in and of the output out included; the peers get their inputs uploaded once, outside the timing. ' +
      (runs.browser.length
        ? `In Chromium \`performance.now()\` advances in steps of ${fmt(median(runs.browser.map((r) => r.meta.timer_resolution_ms)), 3)} ms (measured; the page is not cross-origin isolated), hence the rounder numbers. `
        : '') +
      `The plain JS loop runs up to n = 256 only.`,
    '',
  );

  L.push('## Headline: n = 1024, d = 64', '');
  L.push(
    '| environment | `attention` ms | best peer (fastest form) ms | vs best peer: median [each run] | vs peak: median [each run] | peak GFLOP/s [each run] |',
    '|---|---:|---:|---|---|---|',
  );
  for (const env of envs) {
    const s = summaries[env].find((x) => x.n === 1024 && x.d === 64);
    const ours = s?.rows.find((r) => r.impl === 'wasm-simd');
    const bestIds = [...new Set(s.best_peer_per_run)];
    const bestMs = median(analyseAll(runs[env], 1024, 64).map((a) => a.best?.median_ms));
    L.push(
      `| ${ENVIRONMENTS[env]} | ${fmt(ours?.median_ms, 2)} | ${fmt(bestMs, 2)} (${bestIds.join(', ')}) | **${fmt(ours?.vs_best_peer)}×** [${ours?.run_vs_best_peer.map((x) => fmt(x)).join(', ')}] | **${pct(ours?.vs_peak)}** [${ours?.run_vs_peak.map(pct).join(', ')}] | ${fmt(median(runs[env].map((r) => r.peak.gflops)), 1)} [${runs[env].map((r) => fmt(r.peak.gflops, 1)).join(', ')}] |`,
    );
  }
  L.push(
    '',
    `Targets: ≥ ${TARGET_RATIO}× the best peer's fastest form and ≥ ${TARGET_PEAK * 100}% of the peak, in Node and in Chromium — see [Targets](#targets).`,
    '',
  );
  relaxedHeadline(L, { runs, summaries, envs });
  historySection(L, history);

  for (const env of envs) {
    L.push(`## ${ENVIRONMENTS[env]}: \`attention\` (wasm SIMD128) at every size, run by run`, '');
    L.push(
      '| n | d | vs best peer: median | each run | best peer form, each run | vs peak: median | each run | SIMD vs scalar build |',
      '|---:|---:|---:|---|---|---:|---|---:|',
    );
    for (const s of summaries[env]) {
      const ours = s.rows.find((r) => r.impl === 'wasm-simd'),
        scalar = s.rows.find((r) => r.impl === 'wasm-scalar');
      L.push(
        `| ${s.n} | ${s.d} | **${fmt(ours?.vs_best_peer)}×** | ${ours?.run_vs_best_peer.map((x) => `${fmt(x)}×`).join(', ')} | ${s.best_peer_per_run.join(', ')} | ${pct(ours?.vs_peak)} | ${ours?.run_vs_peak.map(pct).join(', ')} | ${fmt(scalar?.median_ms / ours?.median_ms, 1)}× |`,
      );
    }
    L.push('');
    for (const s of summaries[env]) {
      L.push(`### ${ENVIRONMENTS[env]}, n = ${s.n}, d = ${s.d}`, '');
      L.push(
        '| implementation | ms: median [each run] | GFLOP/s | vs best peer | vs peak | largest rel. error |',
        '|---|---|---:|---:|---:|---:|',
      );
      for (const r of s.rows) {
        if (!r.runs) {
          L.push(`| ${r.label} | failed: ${r.errors[0]} | | | | |`);
          continue;
        }
        const bold = r.impl === 'wasm-simd' ? '**' : '';
        const failed = r.errors.length ? ` (failed in ${r.errors.length} run(s): ${r.errors[0]})` : '';
        L.push(
          `| ${bold}${r.label}${bold}${failed} | ${fmt(r.median_ms, 3)} [${r.run_ms.map((x) => fmt(x, 3)).join(', ')}] | ${fmt(r.gflops, 1)} | ${bold}${fmt(r.vs_best_peer)}×${bold} | ${pct(r.vs_peak)} | ${r.max_rel_error.toExponential(1)} |`,
        );
      }
      L.push('');
    }
  }

  L.push('## Inputs and the correctness gate', '');
  const meta = first?.inputs ?? all.find((r) => r.meta.inputs)?.meta.inputs;
  L.push(
    `Q and K: approximately normal with σ = √2.5 (${fmt(meta?.qk_sigma, 3)}), so that a score q·k/√d has a standard deviation of about 2.5, as in trained models; V: σ = ${meta?.v_sigma}. ` +
      'Each value is the sum of four xorshift32 uniforms in [−1, 1) scaled to σ (seeds 1, 2, 3 for Q, K, V; `bench/inputs.mjs`, reproduced bit for bit by the native bench). ' +
      'Measured on the inputs of every size (float64):',
    '',
  );
  L.push(
    '| n | d | score std (within a row, mean over rows) | largest weight of a row (mean) | effective keys per row, exp(entropy) (mean) |',
    '|---:|---:|---:|---:|---:|',
  );
  for (const s of summaries[envs[0]] ?? [])
    if (s.stats)
      L.push(
        `| ${s.n} | ${s.d} | ${fmt(s.stats.score_std)} | ${fmt(s.stats.max_weight, 3)} | ${fmt(s.stats.effective_keys, 1)} of ${s.n} |`,
      );
  L.push(
    '',
    `Before timing, every implementation's output is checked against softmax(QKᵀ/√d)·V computed in float64 in JS (independent of every implementation timed): ‖got − want‖∞ / ‖want‖∞ ≤ ${meta?.max_rel_err ?? '1e-4'}; ` +
      'the output of one more call after the timed ones is checked again. An implementation that fails is reported as failed and takes no part in the ratios (the "largest rel. error" column above is the largest over the runs). ' +
      '`--break=ID` (harness and page) feeds implementation ID a Q multiplied by 1/√d, so that it computes softmax(QKᵀ/d)·V: the gate must reject it.',
    '',
  );
  const broken = all.filter((r) => r.meta.break);
  if (broken.length) {
    L.push(
      `Runs with \`--break\`: ${broken.map((r) => `${r.environment} \`${r.meta.break}\` → ${r.sizes.map((s) => (s.rows.find((x) => x.impl === r.meta.break)?.error ? 'rejected' : 'ACCEPTED')).join(', ')}`).join('; ')}.`,
      '',
    );
  }
  L.push(
    `What the gate makes of some plausible mistakes (\`bench/gate-mistakes.mjs\`, n = ${gate.n}, d = ${gate.d}; relative error, limit ${gate.limit}), on these inputs and on the uniform [−1, 1) inputs the benchmark used before (score std ${fmt(gate.score_std.uniform)}: ${fmt(gate.effective_keys.uniform, 0)} of ${gate.n} keys effectively attended, so the output is close to the mean of V whatever the scores):`,
    '',
  );
  L.push('| mistake | old uniform inputs | these inputs |', '|---|---:|---:|');
  const verdict = (e) => `${e.toExponential(1)} ${e <= gate.limit ? '(passes)' : '(rejected)'}`;
  for (const m of gate.mistakes) L.push(`| ${m.mistake} | ${verdict(m.uniform)} | ${verdict(m.benchmark)} |`);
  L.push('');

  L.push('## Threads: what each runtime really ran on', '');
  for (const env of envs) {
    const rs = runs[env];
    const m = rs[0].meta;
    const cpu = (impl) =>
      fmt(
        median(
          rs.map((r) => r.sizes.find((s) => s.n === 1024)?.rows.find((x) => x.impl === impl)?.cpu_per_wall ?? NaN),
        ),
      );
    const peers1024 = summaries[env].find((s) => s.n === 1024)?.rows ?? [];
    L.push(
      `- **${ENVIRONMENTS[env]}**: TensorFlow.js ${m.tfjs?.version} reports ${[...new Set(rs.map((r) => r.meta.tfjs?.threads_reported))].join('/')} thread(s) after its init (\`getThreadsCount()\`, read from its wasm); ` +
        `onnxruntime-web ${m.ort?.version}'s \`env.wasm.numThreads\` read back after its wasm initialised: ${[...new Set(rs.map((r) => r.meta.ort?.num_threads_after_init))].join('/')}. ` +
        (env === 'node'
          ? `OS threads of the process added by loading TensorFlow.js / onnxruntime-web: ${[...new Set(rs.map((r) => `${r.meta.tfjs?.os_threads_added} / ${r.meta.ort?.os_threads_added}`))].join('; ')} (a worker pool adds one per extra thread). `
          : `The page is not cross-origin isolated (crossOriginIsolated ${m.cross_origin_isolated}, SharedArrayBuffer ${m.shared_array_buffer ? 'present' : 'absent'}), so a wasm memory cannot be shared with a Worker (Chromium refuses the postMessage) and no runtime can run wasm threads; Web Workers created: ${[...new Set(rs.map((r) => r.meta.workers_created?.length))].join('/')}; wasm binaries fetched: ${m.wasm_served?.map((u) => `\`${u.split('/').pop()}\``).join(', ')}. `) +
        `CPU time ÷ wall time of the ${env === 'node' ? 'process' : 'renderer process'} (all threads) over ≥ 400 ms of back-to-back calls at n = 1024 (median over runs; ≈ 1 = one busy thread, plus the engine's own background work): ` +
        peers1024.map((r) => `${r.impl} ${cpu(r.impl)}`).join(', ') +
        '.',
    );
  }
  L.push('');

  if (native) {
    L.push(
      '## Native (hardware reference)',
      '',
      `The same C++ core, ${native.compiler} ${native.flags ?? ''}, one run (median of its calls): ` +
        SIZES.map(([n, d]) => {
          const r = native.results.find((x) => x.n === n && x.d === d && x.impl === 'attention');
          return r
            ? `n = ${n}${d !== 64 ? `, d = ${d}` : ''}: ${fmt(r.median_ms, 3)} ms (${fmt(gflops(n, d, r.median_ms), 1)} GFLOP/s)`
            : null;
        })
          .filter(Boolean)
          .join('; ') +
        '.',
      '',
    );
  }
  const streaming = runs.node?.find((r) => r.streaming)?.streaming;
  if (streaming) {
    L.push('## attentionStreaming at large n (Node, one run)', '');
    if (streaming.error) L.push(`failed: ${streaming.error}`);
    else
      L.push(
        `n = ${streaming.n}, d = ${streaming.d}: ${(streaming.ms / 1000).toFixed(2)} s (${fmt(gflops(streaming.n, streaming.d, streaming.ms), 1)} GFLOP/s), wasm memory ${(streaming.memory_before_bytes / 2 ** 20).toFixed(1)} MiB before the call and **${(streaming.memory_after_bytes / 2 ** 20).toFixed(1)} MiB** after it (limit 64 MiB; the n×n scores alone would be ${((4 * streaming.n * streaming.n) / 2 ** 30).toFixed(1)} GiB). Rows 0, 1, n/2, n−1 against float64: relative error ${streaming.rel_error_rows.toExponential(1)}.`,
      );
    L.push('');
  }
  L.push('## Targets', '', '| target | measured (median of the runs) | holds |', '|---|---:|:---:|');
  for (const t of targets) L.push(`| ${t.name} | ${t.detail} | ${t.ok ? 'yes' : '**no**'} |`);
  L.push('');
  const errs = all.flatMap((r) => Object.entries(r.meta.errors ?? {}).map(([k, v]) => `${r.environment}: ${k}: ${v}`));
  const problems = all.flatMap((r) => (r.meta.page_problems ?? []).map((p) => `${r.environment}: ${p}`));
  if (errs.length || problems.length)
    L.push('## Errors and page messages', '', ...[...new Set([...errs, ...problems])].map((e) => `- ${e}`), '');
  return L.join('\n');
}

const analyseAll = (runs, n, d) =>
  runs
    .map(analyseRun)
    .map((a) => a.find((s) => s.n === n && s.d === d))
    .filter(Boolean);

// The relaxed-SIMD build's targets, for each form of the call (RELAXED_FORMS): Chromium's; Node's
// figures are reported beside them.
function relaxedTargets(t, summaries, runs) {
  for (const env of Object.keys(summaries).filter((e) => runs[e].some((r) => r.relaxed_peak))) {
    const E = `${ENVIRONMENTS[env]}${env === 'browser' ? '' : " (reported, the targets are Chromium's)"}`;
    for (const form of RELAXED_FORMS) {
      const what = `relaxed-SIMD \`attention\`, ${form.name},`;
      const at = (n, d) => summaries[env].find((s) => s.n === n && s.d === d)?.rows.find((r) => r.impl === form.impl);
      const r1024 = at(1024, 64);
      if (!r1024) continue;
      const range = (r) =>
        `[${fmt(Math.min(...(r?.run_vs_best_peer ?? [NaN])))}, ${fmt(Math.max(...(r?.run_vs_best_peer ?? [NaN])))}]`;
      t(
        `${E}, n = 1024, d = 64: ${what} ≥ ${RELAXED.ratio1024}× the best peer's fastest form`,
        r1024.vs_best_peer >= RELAXED.ratio1024,
        `${fmt(r1024.vs_best_peer)}× ${range(r1024)}`,
      );
      for (const [n, d] of SIZES.filter(([n, d]) => d === 64 && n >= RELAXED.from && n <= RELAXED.to)) {
        const r = at(n, d);
        t(
          `${E}, n = ${n}, d = ${d}: ${what} ≥ ${RELAXED.ratioEvery}× the best peer`,
          r?.vs_best_peer >= RELAXED.ratioEvery,
          `${fmt(r?.vs_best_peer)}× ${range(r)}`,
        );
      }
      t(
        `${E}, n = 1024, d = 64: ${what} ≥ ${RELAXED.peak * 100}% of the relaxed_madd peak`,
        r1024.vs_peak >= RELAXED.peak,
        `${pct(r1024.vs_peak)} [${r1024.run_vs_peak.map(pct).join(', ')}]`,
      );
    }
  }
}

function targetsOf(summaries, runs) {
  const targets = [];
  const t = (name, ok, detail) => targets.push({ name, ok: !!ok, detail });
  for (const env of Object.keys(summaries)) {
    const E = ENVIRONMENTS[env];
    const at = (n, d, impl) => summaries[env].find((s) => s.n === n && s.d === d)?.rows.find((r) => r.impl === impl);
    const s1024 = at(1024, 64, 'wasm-simd');
    t(
      `${E}, n = 1024, d = 64: \`attention\` ≥ ${TARGET_RATIO}× the best peer's fastest form`,
      s1024?.vs_best_peer >= TARGET_RATIO,
      `${fmt(s1024?.vs_best_peer)}× [${s1024?.run_vs_best_peer.map((x) => fmt(x)).join(', ')}]`,
    );
    t(
      `${E}, n = 1024, d = 64: \`attention\` ≥ ${TARGET_PEAK * 100}% of the wasm mul+add peak`,
      s1024?.vs_peak >= TARGET_PEAK,
      `${pct(s1024?.vs_peak)} [${s1024?.run_vs_peak.map(pct).join(', ')}]`,
    );
    for (const [n, d] of SIZES) {
      const r = at(n, d, 'wasm-simd');
      t(
        `${E}, n = ${n}, d = ${d}: \`attention\` ≥ 1.0× the best peer`,
        r?.vs_best_peer >= 1,
        `${fmt(r?.vs_best_peer)}×`,
      );
    }
    for (const [n, d] of SIZES.filter(([n]) => n >= 256)) {
      const a = at(n, d, 'wasm-simd'),
        b = at(n, d, 'wasm-scalar');
      t(
        `${E}, n = ${n}, d = ${d}: SIMD build ≥ 3× the scalar build`,
        b?.median_ms / a?.median_ms >= 3,
        `${fmt(b?.median_ms / a?.median_ms)}×`,
      );
    }
    const st = at(2048, 64, 'wasm-streaming'),
      a2048 = at(2048, 64, 'wasm-simd');
    t(
      `${E}, n = 2048: \`attentionStreaming\` within 1.3× of \`attention\`'s time`,
      st?.median_ms / a2048?.median_ms <= 1.3,
      `${fmt(st?.median_ms / a2048?.median_ms)}×`,
    );
  }
  relaxedTargets(t, summaries, runs);
  const streaming = runs.node?.find((r) => r.streaming)?.streaming;
  if (streaming)
    t(
      `Node, n = ${streaming.n}, d = ${streaming.d}: \`attentionStreaming\` completes in < 64 MiB of wasm memory`,
      !streaming.error && streaming.ok,
      streaming.error ?? `${fmt(streaming.memory_after_bytes / 2 ** 20, 1)} MiB`,
    );
  return targets;
}

function readHistory() {
  return fs.existsSync(HISTORY) ? JSON.parse(fs.readFileSync(HISTORY, 'utf8')) : [];
}

if (!RUNS) {
  console.error('usage: node bench/report.mjs --runs DIR [--out DIR]');
  process.exit(2);
}
const { runs, native } = loadRuns(RUNS);
if (native) {
  // the flags CMake really compiled the native core with (Release: -O3)
  const flagsFile = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    'build',
    'native',
    'CMakeFiles',
    'attn_core_native.dir',
    'flags.make',
  );
  if (fs.existsSync(flagsFile))
    native.flags = (fs.readFileSync(flagsFile, 'utf8').match(/^CXX_FLAGS = (.*)$/m)?.[1] ?? '').trim();
}
const summaries = Object.fromEntries(
  Object.keys(ENVIRONMENTS)
    .filter((e) => runs[e].length)
    .map((e) => [e, summarise(runs[e])]),
);
if (!Object.keys(summaries).length) {
  console.error(`no runs in ${RUNS}`);
  process.exit(1);
}
const gate = gateMistakes();
const targets = targetsOf(summaries, runs);
const history = readHistory();
const full = !Object.values(runs)
  .flat()
  .some((r) => r.meta.quick || r.meta.break);
if (full && path.resolve(OUT) === path.dirname(HISTORY)) {
  for (const [env, list] of Object.entries(summaries))
    for (const impl of HISTORY_IMPLS) {
      const r = list.find((s) => s.n === 1024 && s.d === 64)?.rows.find((x) => x.impl === impl);
      if (r?.runs)
        history.push({
          date: runs[env][0].meta.date,
          environment: env,
          impl,
          n: 1024,
          d: 64,
          run_vs_best_peer: r.run_vs_best_peer.map((x) => Number(x.toFixed(3))),
        });
    }
  fs.writeFileSync(HISTORY, JSON.stringify(history, null, 1) + '\n');
}
const md = markdown({ runs, native, summaries, gate, targets, history });
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'results.md'), md);
// results.json: the summaries and, per run, its meta, peak and every row's own figures (the
// labels are in the summaries)
const rawRuns = Object.fromEntries(
  Object.entries(runs).map(([env, list]) => [
    env,
    list.map((r) => ({
      meta: r.meta,
      peak: r.peak,
      relaxed_peak: r.relaxed_peak ?? null,
      streaming: r.streaming ?? null,
      sizes: r.sizes.map(({ n, d, rows }) => ({
        n,
        d,
        rows: rows.map(({ label, peer, n: _n, d: _d, ...own }) => own),
      })),
    })),
  ]),
);
fs.writeFileSync(
  path.join(OUT, 'results.json'),
  JSON.stringify({ summaries, targets, gate, native, runs: rawRuns }) + '\n',
);
console.log(md);
