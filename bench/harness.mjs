// harness.mjs — `npm run bench`'s Node half: one process, one run. Times a full attention forward
// softmax(QKᵀ/√d_k)·V with this project's wasm core and with its peers on the same fixed-seed
// float32 inputs, checks every output against the reference first, and writes bench/results.md
// and bench/results.json. Run through bench/run.sh (which builds the native bench and the wasm
// peak first); `node bench/harness.mjs --quick` is a short smoke run (fewer reps, no n = 16384).
//
// Implementations (one row each per size):
//   wasm-simd        attn.attention(), the SIMD128 build, through the public JS API (copies in
//                    and out included: the peers below get their inputs pre-uploaded)
//   wasm-scalar      the same call on the scalar build
//   wasm-streaming   attn.attentionStreaming(), SIMD128 build
//   plain-js         the article's NumPy code as a JS triple loop on Float32Array
//   tfjs-wasm        TensorFlow.js + wasm backend (XNNPACK, SIMD, 1 thread):
//                    transpose(k), matMul, mul(scale), softmax, matMul, then dataSync()
//   ort-*            onnxruntime-web, wasm EP, 1 thread: the MatMul/Softmax/MatMul graph, the same
//                    with Gemm(transB), and the fused com.microsoft.MultiHeadAttention; the fastest
//                    of the three is "ORT best"
//   native           the same C++ core, -O3 -march=native (from build/bench/native.json)
//   wasm peak        the SIMD128 mul+add peak (build/bench/peak.cjs), the physical limit
// Timing: implementations are interleaved round by round (in a rotating order, with a GC between
// samples), so that a noisy spell on this shared 2-core machine hits all of them alike; each
// sample times enough back-to-back calls to last ≥ 10 ms; medians with min–max. GFLOP/s counts 4·n²·d (the two products).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const require = createRequire(import.meta.url);
const QUICK = process.argv.includes('--quick');
const SIZES = [[16, 64], [64, 64], [256, 64], [1024, 64], [2048, 64], [256, 16]];
const STREAMING_N = 16384, STREAMING_D = 64, STREAMING_LIMIT = 64 * 2 ** 20;
const MAX_REL_ERR = 1e-4;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const log = (...a) => console.error('[bench]', ...a);
const gflops = (n, d, ms) => (4 * n * n * d) / (ms * 1e6);

// The inputs: xorshift32 from seeds 1, 2, 3, uniform in [−1, 1) — the same numbers as
// bench/native/bench_native.cpp.
function fill(rows, cols, seed) {
  const data = new Float32Array(rows * cols);
  let x = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    data[i] = -1 + 2 * ((x >>> 8) / 2 ** 24);
  }
  return { rows, cols, data };
}

// ‖a − b‖∞ / ‖b‖∞
function relError(a, b) {
  if (a.length !== b.length) return Infinity;
  let num = 0, den = 0;
  for (let i = 0; i < b.length; i++) {
    const e = Math.abs(a[i] - b[i]);
    num = Number.isNaN(e) ? Infinity : Math.max(num, e);
    den = Math.max(den, Math.abs(b[i]));
  }
  return num / den;
}

// The article's NumPy code, translated: scores = Q @ K.T / sqrt(d_k); weights = softmax(scores)
// (max subtracted); output = weights @ V — plain triple loops, float32 storage.
function plainJsAttention(Q, K, V, n, nK, d, dV) {
  const scores = new Float32Array(n * nK), out = new Float32Array(n * dV);
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < nK; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
      scores[i * nK + j] = dot * scale;
    }
  for (let i = 0; i < n; i++) {
    let m = -Infinity, sum = 0;
    for (let j = 0; j < nK; j++) m = Math.max(m, scores[i * nK + j]);
    for (let j = 0; j < nK; j++) sum += (scores[i * nK + j] = Math.exp(scores[i * nK + j] - m));
    for (let j = 0; j < nK; j++) scores[i * nK + j] /= sum;
  }
  for (let i = 0; i < n; i++)
    for (let c = 0; c < dV; c++) {
      let acc = 0;
      for (let j = 0; j < nK; j++) acc += scores[i * nK + j] * V[j * dV + c];
      out[i * dV + c] = acc;
    }
  return out;
}

// --- loading everything ---------------------------------------------------------------------
async function loadOurs(build) {
  const file = build === 'simd' ? 'attention' : 'attention-scalar';
  const wasm = build === 'simd' ? 'attention_core.wasm' : 'attention_core_scalar.wasm';
  const { default: create } = await import(pathToFileURL(path.join(ROOT, 'wasm', `${file}.mjs`)));
  return create({ wasmBinary: fs.readFileSync(path.join(ROOT, 'build', 'wasm', wasm)) });
}

async function loadTf() {
  const tf = await import('@tensorflow/tfjs-core');
  const tfwasm = await import('@tensorflow/tfjs-backend-wasm');
  const dist = path.join(HERE, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
  // Only the single-threaded SIMD binary is offered; the multithread flag off keeps the backend
  // from asking for the threaded one.
  tfwasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': path.join(dist, 'tfjs-backend-wasm-simd.wasm'),
    'tfjs-backend-wasm-simd.wasm': path.join(dist, 'tfjs-backend-wasm-simd.wasm'),
    'tfjs-backend-wasm-threaded-simd.wasm': path.join(dist, 'tfjs-backend-wasm-simd.wasm'),
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tfwasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") returned false');
  await tf.ready();
  const info = {
    version: tf.version_core, backend: tf.getBackend(), simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    multithread: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'), threads: tfwasm.getThreadsCount(),
  };
  if (!info.simd || info.multithread || info.threads !== 1)
    throw new Error(`TensorFlow.js wasm is not SIMD single-threaded here: ${JSON.stringify(info)}`);
  return { tf, info };
}

async function loadOrt() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = path.join(HERE, 'node_modules', 'onnxruntime-web', 'dist') + path.sep;
  const { attentionGraph, mhaGraph } = await import('./onnx.mjs');
  return { ort, attentionGraph, mhaGraph, info: { version: ort.env.versions?.web ?? 'unknown', numThreads: 1 } };
}

function loadPeak() {
  const file = path.join(ROOT, 'build', 'bench', 'peak.cjs');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run bench/run.sh`);
  return require(file)();
}

// --- one implementation = { id, label, prepare(n, d) → { run(): Promise<Float32Array>|Float32Array, dispose() } }
function implementations({ simd, scalar, tfjs, ortMod, errors }) {
  const list = [];
  const ours = (id, label, mod, fn) => list.push({
    id, label,
    prepare: (q, k, v) => ({ run: () => mod[fn]({ q, k, v }).data, dispose() {} }),
  });
  ours('wasm-simd', 'this project, `attention`, wasm SIMD128', simd, 'attention');
  ours('wasm-scalar', 'this project, `attention`, wasm scalar', scalar, 'attention');
  ours('wasm-streaming', 'this project, `attentionStreaming`, wasm SIMD128', simd, 'attentionStreaming');
  list.push({
    id: 'plain-js', label: 'plain JS triple loop (the article’s NumPy code)',
    prepare: (q, k, v) => ({ run: () => plainJsAttention(q.data, k.data, v.data, q.rows, k.rows, q.cols, v.cols), dispose() {} }),
  });
  if (tfjs) {
    const { tf } = tfjs;
    list.push({
      id: 'tfjs-wasm', label: 'TensorFlow.js wasm (XNNPACK, SIMD, 1 thread)', peer: true,
      prepare: (q, k, v) => {
        const Q = tf.tensor2d(q.data, [q.rows, q.cols]), K = tf.tensor2d(k.data, [k.rows, k.cols]);
        const V = tf.tensor2d(v.data, [v.rows, v.cols]), scale = tf.scalar(1 / Math.sqrt(q.cols));
        return {
          run: () => {
            const out = tf.tidy(() => tf.matMul(tf.softmax(tf.mul(tf.matMul(Q, tf.transpose(K)), scale)), V));
            const data = out.dataSync();
            out.dispose();
            return data;
          },
          dispose: () => tf.dispose([Q, K, V, scale]),
        };
      },
    });
  }
  if (ortMod) {
    const { ort, attentionGraph, mhaGraph } = ortMod;
    for (const form of ['matmul', 'gemm', 'mha']) {
      list.push({
        id: `ort-${form}`, peer: true, async: true,
        label: { matmul: 'onnxruntime-web wasm, MatMul/Softmax/MatMul graph', gemm: 'onnxruntime-web wasm, Gemm(transB)/Softmax/MatMul graph', mha: 'onnxruntime-web wasm, com.microsoft.MultiHeadAttention' }[form],
        prepare: async (q, k, v) => {
          const bytes = form === 'mha' ? mhaGraph(q.rows, k.rows, q.cols, v.cols) : attentionGraph(q.rows, k.rows, q.cols, v.cols, form);
          const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
          const dims = (m) => (form === 'mha' ? [1, m.rows, m.cols] : [m.rows, m.cols]);
          const feeds = { Q: new ort.Tensor('float32', q.data, dims(q)), K: new ort.Tensor('float32', k.data, dims(k)), V: new ort.Tensor('float32', v.data, dims(v)) };
          return { run: async () => (await session.run(feeds)).O.data, dispose: () => session.release() };
        },
      });
    }
  }
  return list;
}

// --- timing ----------------------------------------------------------------------------------
// One sample: `calls` back-to-back calls. Pending work of other implementations (onnxruntime-web
// resolves its runs through promises and timers) is drained first, so it never lands inside
// another implementation's sample; synchronous implementations are called without any await.
// With --expose-gc (bench/run.sh passes it) a full GC runs here too, outside the timing, so that
// garbage one implementation left behind is not collected inside the next one's sample.
const drain = () => new Promise((resolve) => setTimeout(() => { globalThis.gc?.(); resolve(); }, 0));
async function timeCalls(impl, run, calls) {
  await drain();
  const t0 = performance.now();
  if (impl.async) for (let c = 0; c < calls; c++) await run();
  else for (let c = 0; c < calls; c++) run();
  return (performance.now() - t0) / calls;
}

async function benchSize(n, d, impls, reference) {
  const q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
  const want = reference({ q, k, v });
  const live = [];
  const rows = [];
  for (const impl of impls) {
    const row = { impl: impl.id, label: impl.label, n, d, peer: !!impl.peer };
    rows.push(row);
    try {
      const prepared = await impl.prepare(q, k, v);
      const got = await prepared.run();
      row.rel_error = relError(got, want);
      if (!(row.rel_error <= MAX_REL_ERR)) throw new Error(`output differs from the reference: relative error ${row.rel_error}`);
      // warm-up: ≥ 3 calls and ≥ 300 ms (V8 compiles wasm with Liftoff first and tiers up hot
      // functions to TurboFan in the background; every implementation gets the same chance)
      const warmStart = performance.now();
      let warm = 0;
      while (warm < 3 || performance.now() - warmStart < (QUICK ? 50 : 300)) { await prepared.run(); warm++; }
      const perCall = (performance.now() - warmStart) / warm;
      const calls = Math.max(1, Math.ceil(10 / perCall));
      live.push({ impl, prepared, row, calls, samples: [] });
    } catch (e) {
      row.error = String(e.message ?? e).split('\n')[0];
      log(`${impl.id} n=${n} d=${d}: ${row.error}`);
    }
  }
  // samples interleaved round by round; at least 5 per implementation
  const rounds = QUICK ? 5 : n <= 1024 ? 21 : 9;
  // the order rotates from round to round, so that no implementation always runs right after
  // the same neighbour
  for (let r = 0; r < rounds; r++)
    for (let t = 0; t < live.length; t++) {
      const l = live[(r + t) % live.length];
      l.samples.push(await timeCalls(l.impl, l.prepared.run, l.calls));
    }
  for (const l of live) {
    const s = l.samples;
    Object.assign(l.row, {
      median_ms: median(s), min_ms: Math.min(...s), max_ms: Math.max(...s), samples: s.length, calls_per_sample: l.calls,
    });
    l.row.gflops = gflops(n, d, l.row.median_ms);
    await l.prepared.dispose();
  }
  return rows;
}

// The mul+add peak: median GFLOP/s of the best accumulator-chain count.
function measurePeak(peak, samples) {
  const byChains = {};
  for (const chains of [8, 10, 12, 16]) {
    peak._peak_gflops(chains, 2e6);  // warm-up
    const xs = [];
    for (let s = 0; s < samples; s++) xs.push(peak._peak_gflops(chains, QUICK ? 2e6 : 1e7));
    byChains[chains] = xs;
  }
  return byChains;
}

// attentionStreaming at n = 16384, d = 64 in a fresh SIMD module: wasm memory before and after
// (it only grows), time, and a few rows checked against a float64 computation.
async function streamingLarge() {
  const { default: create } = await import(pathToFileURL(path.join(ROOT, 'wasm', 'attention.mjs')));
  let memory = null;
  const binary = fs.readFileSync(path.join(ROOT, 'build', 'wasm', 'attention_core.wasm'));
  const attn = await create({
    wasmBinary: binary,
    // the module's own instantiation, kept so that its memory can be read
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(binary, imports).then(({ instance, module }) => {
        memory = Object.values(instance.exports).find((x) => x instanceof WebAssembly.Memory);
        done(instance, module);
      });
      return {};
    },
  });
  const n = STREAMING_N, d = STREAMING_D;
  const q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
  const before = memory.buffer.byteLength;
  const t0 = performance.now();
  const out = attn.attentionStreaming({ q, k, v });
  const ms = performance.now() - t0;
  const after = memory.buffer.byteLength;
  // rows 0, 1, n/2 and n − 1 in float64
  let worst = 0;
  for (const i of [0, 1, n / 2, n - 1]) {
    const s = new Float64Array(n);
    let m = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q.data[i * d + c] * k.data[j * d + c];
      s[j] = dot / Math.sqrt(d);
      m = Math.max(m, s[j]);
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += (s[j] = Math.exp(s[j] - m));
    const want = new Float64Array(d), got = out.data.subarray(i * d, i * d + d);
    for (let j = 0; j < n; j++) for (let c = 0; c < d; c++) want[c] += (s[j] / sum) * v.data[j * d + c];
    worst = Math.max(worst, relError(got, want));
  }
  return { n, d, ms, gflops: gflops(n, d, ms), memory_before_bytes: before, memory_after_bytes: after, rel_error_rows: worst, limit_bytes: STREAMING_LIMIT };
}

// --- the run -----------------------------------------------------------------------------------
const fmt = (x, digits = 2) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(digits));

async function main() {
  const started = new Date();
  const errors = {};
  const simd = await loadOurs('simd');
  const scalar = await loadOurs('scalar');
  if (!simd.simd() || scalar.simd()) throw new Error('the SIMD/scalar modules are not what they say');
  let tfjs = null, ortMod = null;
  try { tfjs = await loadTf(); } catch (e) { errors.tfjs = String(e.message ?? e); log('TensorFlow.js:', errors.tfjs); }
  try { ortMod = await loadOrt(); } catch (e) { errors.ort = String(e.message ?? e); log('onnxruntime-web:', errors.ort); }
  const peak = await loadPeak();
  const impls = implementations({ simd, scalar, tfjs, ortMod, errors });
  const reference = (args) => simd.attentionSteps(args).output.data;

  const peakSamples = { start: measurePeak(peak, QUICK ? 3 : 7) };
  log('peak (start):', Object.entries(peakSamples.start).map(([c, xs]) => `${c}: ${fmt(median(xs), 1)}`).join(', '));
  const rows = [];
  for (const [n, d] of SIZES) {
    log(`n = ${n}, d = ${d} …`);
    rows.push(...await benchSize(n, d, impls, reference));
    if (n === 1024) peakSamples.middle = measurePeak(peak, QUICK ? 3 : 7);
  }
  peakSamples.end = measurePeak(peak, QUICK ? 3 : 7);
  // the peak: for each chain count, the median over all samples of the run; the best count wins
  const peakByChains = {};
  for (const c of [8, 10, 12, 16]) peakByChains[c] = median(Object.values(peakSamples).flatMap((p) => p[c] ?? []));
  const [peakChains, peakGflops] = Object.entries(peakByChains).sort((a, b) => b[1] - a[1])[0];
  const allPeak = Object.values(peakSamples).flatMap((p) => p[peakChains]);

  // native
  let native = null;
  const nativeFile = path.join(ROOT, 'build', 'bench', 'native.json');
  if (fs.existsSync(nativeFile)) {
    native = JSON.parse(fs.readFileSync(nativeFile, 'utf8'));
    // the flags CMake really compiled the core with (Release: -O3)
    const flagsFile = path.join(ROOT, 'build', 'native', 'CMakeFiles', 'attn_core_native.dir', 'flags.make');
    if (fs.existsSync(flagsFile))
      native.flags = (fs.readFileSync(flagsFile, 'utf8').match(/^CXX_FLAGS = (.*)$/m)?.[1] ?? '').trim();
  } else errors.native = `${nativeFile} is missing (bench/run.sh writes it)`;
  for (const [n, d] of SIZES) {
    const nr = native?.results.find((r) => r.n === n && r.d === d && r.impl === 'attention');
    if (nr) rows.push({ ...nr, impl: 'native', label: 'this project’s C++ core, native (hardware reference)', n, d, gflops: gflops(n, d, nr.median_ms) });
  }

  // ratios
  for (const [n, d] of SIZES) {
    const at = rows.filter((r) => r.n === n && r.d === d && r.median_ms);
    const peers = at.filter((r) => r.peer);
    const tf = peers.find((r) => r.impl === 'tfjs-wasm');
    const ortBest = peers.filter((r) => r.impl.startsWith('ort-')).sort((a, b) => a.median_ms - b.median_ms)[0];
    const bestPeer = [tf, ortBest].filter(Boolean).sort((a, b) => a.median_ms - b.median_ms)[0];
    for (const r of at) {
      if (bestPeer) r.vs_best_peer = bestPeer.median_ms / r.median_ms;
      r.vs_peak = r.gflops / peakGflops;
      if (ortBest && r.impl === ortBest.impl) r.ort_best = true;
    }
  }
  const get = (impl, n, d = 64) => rows.find((r) => r.impl === impl && r.n === n && r.d === d);

  const streaming = QUICK ? null : await streamingLarge().catch((e) => ({ error: String(e.message ?? e) }));

  // targets
  const targets = [];
  const t = (name, ok, detail) => targets.push({ name, ok: !!ok, detail });
  const s1024 = get('wasm-simd', 1024);
  t('n = 1024, d = 64: wasm SIMD attention ≥ 1.5× the best wasm peer', s1024?.vs_best_peer >= 1.5, `${fmt(s1024?.vs_best_peer)}×`);
  t('n = 1024, d = 64: wasm SIMD attention ≥ 60% of the wasm mul+add peak', s1024?.vs_peak >= 0.6, `${fmt(100 * (s1024?.vs_peak ?? NaN), 0)}%`);
  for (const [n, d] of SIZES) {
    const r = get('wasm-simd', n, d);
    t(`n = ${n}, d = ${d}: wasm SIMD attention ≥ 1.0× the best wasm peer`, r?.vs_best_peer >= 1.0, `${fmt(r?.vs_best_peer)}×`);
  }
  for (const [n, d] of SIZES.filter(([n]) => n >= 256)) {
    const a = get('wasm-simd', n, d), b = get('wasm-scalar', n, d);
    t(`n = ${n}, d = ${d}: SIMD build ≥ 3× the scalar build`, b?.median_ms / a?.median_ms >= 3, `${fmt(b?.median_ms / a?.median_ms)}×`);
  }
  const st2048 = get('wasm-streaming', 2048), at2048 = get('wasm-simd', 2048);
  t('n = 2048: attentionStreaming within 1.3× of attention’s time', st2048?.median_ms / at2048?.median_ms <= 1.3, `${fmt(st2048?.median_ms / at2048?.median_ms)}×`);
  if (streaming) {
    t(`n = ${STREAMING_N}, d = ${STREAMING_D}: attentionStreaming completes with < 64 MiB of wasm memory`,
      !streaming.error && streaming.memory_after_bytes < STREAMING_LIMIT && streaming.rel_error_rows <= MAX_REL_ERR,
      streaming.error ?? `${fmt(streaming.memory_after_bytes / 2 ** 20, 1)} MiB, rows checked to ${streaming.rel_error_rows.toExponential(1)}`);
  }

  const meta = {
    date: started.toISOString(), quick: QUICK, node: process.version, v8: process.versions.v8,
    cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadavg_at_start: os.loadavg(),
    ours: { version: simd.version() }, tfjs: tfjs?.info ?? null, ort: ortMod?.info ?? null, native: native ? { compiler: native.compiler, flags: native.flags } : null,
    peak: { chains: Number(peakChains), gflops: peakGflops, min: Math.min(...allPeak), max: Math.max(...allPeak), by_chains: peakByChains },
    errors,
  };
  const result = { meta, rows, streaming, targets };
  const outDir = process.env.BENCH_OUT ?? HERE;
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(result, null, 1) + '\n');
  fs.writeFileSync(path.join(outDir, 'results.md'), markdown(result));
  console.log(markdown(result));
}

function markdown({ meta, rows, streaming, targets }) {
  const L = [];
  L.push('# Benchmark results (`npm run bench`)', '');
  L.push(`One run on ${meta.date.slice(0, 16).replace('T', ' ')} UTC: ${meta.cpu}, ${meta.cores} cores (single-threaded runs), Node ${meta.node} (V8 ${meta.v8}), load average at start ${meta.loadavg_at_start.map((x) => x.toFixed(1)).join(' ')}. ` +
    'Full attention forward softmax(QKᵀ/√d)·V on fixed-seed float32 inputs in [−1, 1), n_q = n_k = n, d_k = d_v = d. ' +
    'Every output was checked against the reference (`attentionSteps`) before timing: ‖a − b‖∞/‖b‖∞ ≤ 1e-4. ' +
    'GFLOP/s counts 4·n²·d. Median of 21 samples (9 at n = 2048), each ≥ 10 ms of back-to-back calls, implementations interleaved in a rotating order with a GC between samples; min–max in brackets. ' +
    '"vs best peer" = best peer time / this time (> 1: faster than the faster of TensorFlow.js and onnxruntime-web); "vs peak" = GFLOP/s / wasm mul+add peak.' + (meta.quick ? ' **Quick run: few samples.**' : ''), '');
  L.push(`wasm SIMD128 mul+add peak: **${meta.peak.gflops.toFixed(1)} GFLOP/s** (median, ${meta.peak.chains} independent f32x4 chains; samples ${meta.peak.min.toFixed(1)}–${meta.peak.max.toFixed(1)}; by chain count: ${Object.entries(meta.peak.by_chains).map(([c, g]) => `${c}: ${g.toFixed(1)}`).join(', ')}).`, '');
  const sizes = [...new Set(rows.map((r) => `${r.n},${r.d}`))];
  for (const key of sizes) {
    const [n, d] = key.split(',').map(Number);
    L.push(`## n = ${n}, d = ${d}`, '', '| implementation | median ms [min–max] | GFLOP/s | vs best peer | vs peak |', '|---|---:|---:|---:|---:|');
    for (const r of rows.filter((x) => x.n === n && x.d === d)) {
      if (r.error) { L.push(`| ${r.label} | failed: ${r.error} | | | |`); continue; }
      const name = r.ort_best ? `${r.label} (ORT best)` : r.label;
      const bold = r.impl === 'wasm-simd' ? '**' : '';
      L.push(`| ${bold}${name}${bold} | ${fmt(r.median_ms, 3)} [${fmt(r.min_ms, 3)}–${fmt(r.max_ms, 3)}] | ${fmt(r.gflops, 1)} | ${bold}${fmt(r.vs_best_peer)}×${bold} | ${fmt(100 * r.vs_peak, 0)}% |`);
    }
    L.push('');
  }
  if (streaming) {
    L.push('## attentionStreaming at large n', '');
    if (streaming.error) L.push(`failed: ${streaming.error}`);
    else L.push(`n = ${streaming.n}, d = ${streaming.d}: ${(streaming.ms / 1000).toFixed(2)} s (${streaming.gflops.toFixed(1)} GFLOP/s), wasm memory ${(streaming.memory_before_bytes / 2 ** 20).toFixed(1)} MiB before the call (inputs not yet copied in) and **${(streaming.memory_after_bytes / 2 ** 20).toFixed(1)} MiB** after it (limit 64 MiB; the n×n scores alone would be ${(4 * streaming.n * streaming.n / 2 ** 30).toFixed(1)} GiB). Rows 0, 1, n/2, n−1 against float64: relative error ${streaming.rel_error_rows.toExponential(1)}.`);
    L.push('');
  }
  L.push('## Targets (issue 3)', '', '| target | measured | holds |', '|---|---:|:---:|');
  for (const t of targets) L.push(`| ${t.name} | ${t.detail} | ${t.ok ? 'yes' : '**no**'} |`);
  L.push('');
  const errs = Object.entries(meta.errors);
  if (errs.length) L.push('## Errors', '', ...errs.map(([k, v]) => `- ${k}: ${v}`), '');
  L.push(`Peers: TensorFlow.js ${meta.tfjs?.version ?? '—'} (backend ${meta.tfjs?.backend ?? '—'}, SIMD ${meta.tfjs?.simd}, threads ${meta.tfjs?.threads}); onnxruntime-web ${meta.ort?.version ?? '—'} (wasm EP, numThreads 1). Native: ${meta.native?.compiler ?? '—'} ${meta.native?.flags ?? ''}.`, '');
  return L.join('\n');
}

main().catch((e) => { console.error(e); process.exit(1); });
