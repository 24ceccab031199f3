// browser/page.mjs — one full run of the benchmark inside the page (Debian's Chromium, driven by
// bench/browser/run.mjs): the project's module as built (wasm/attention.mjs → build/wasm/*.wasm,
// SIMD128 and scalar), TensorFlow.js-wasm, onnxruntime-web and the wasm mul+add peak, through the
// same suite, inputs and correctness gate as the Node harness (bench/suite.mjs).
//
// The driver exposes two functions before the page loads: benchCpuSeconds() (the renderer
// process's CPU time, all threads, read by the driver over the DevTools protocol) and
// benchLog(text). It then calls window.runBench({ quick, breakId, allForms }) and gets the run.

import { runSuite, implementations, drain } from '../suite.mjs';

const log = (text) => {
  document.getElementById('status').textContent = text;
  globalThis.benchLog?.(text);
};

// The relaxed-SIMD build and peak only where this browser validates relaxed SIMD (the page's own
// probe, web/src/engine.js).
async function loadOurs() {
  const [{ default: createSimd }, { default: createScalar }, { default: createRelaxed }, { relaxedSimdSupported }] =
    await Promise.all([
      import('/wasm/attention.mjs'),
      import('/wasm/attention-scalar.mjs'),
      import('/wasm/attention-relaxed.mjs'),
      import('/web/src/engine.js'),
    ]);
  const relaxed = relaxedSimdSupported();
  return {
    simd: await createSimd(),
    scalar: await createScalar(),
    relaxed: relaxed ? await createRelaxed() : null,
  };
}

async function loadTf() {
  const { tf } = globalThis;
  const dist = '/bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/';
  // only the single-threaded SIMD binary is offered, under all three names (the server's log
  // shows which one was fetched)
  const simdBinary = `${dist}tfjs-backend-wasm-simd.wasm`;
  tf.wasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': simdBinary,
    'tfjs-backend-wasm-simd.wasm': simdBinary,
    'tfjs-backend-wasm-threaded-simd.wasm': simdBinary,
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.wasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") returned false');
  await tf.ready();
  const info = {
    version: tf.version_core,
    backend: tf.getBackend(),
    simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    multithread_flag: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'),
    threads_reported: tf.wasm.getThreadsCount(),
  };
  if (!info.simd || info.threads_reported !== 1)
    throw new Error(`TensorFlow.js wasm is not SIMD single-threaded here: ${JSON.stringify(info)}`);
  return { tf, info };
}

async function loadOrt() {
  const ort = await import('/bench/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = '/bench/node_modules/onnxruntime-web/dist/';
  // the wasm backend initialises on the first session; read back what it settled on
  const { attentionGraph } = await import('../onnx.mjs');
  const probe = await ort.InferenceSession.create(attentionGraph(2, 2, 2, 2), { executionProviders: ['wasm'] });
  await probe.release();
  const info = { version: ort.env.versions?.web ?? 'unknown', num_threads_after_init: ort.env.wasm.numThreads };
  if (info.num_threads_after_init !== 1)
    throw new Error(`onnxruntime-web is not single-threaded here: ${JSON.stringify(info)}`);
  return { ort, info };
}

async function loadPeak(name = 'peak-web') {
  const { default: createPeak } = await import(`/build/bench/${name}.mjs`);
  return createPeak();
}

// The smallest step performance.now() takes here (browsers coarsen it outside cross-origin
// isolation): the resolution of every sample's clock.
function timerResolutionMs() {
  let smallest = Infinity;
  for (let i = 0; i < 1000; i++) {
    const t0 = performance.now();
    let t1 = t0;
    while (t1 === t0) t1 = performance.now();
    smallest = Math.min(smallest, t1 - t0);
  }
  return smallest;
}

globalThis.runBench = async ({ quick = false, breakId = null, allForms = false } = {}) => {
  const started = Date.now();
  const { simd, scalar, relaxed } = await loadOurs();
  const { impls, errors, info } = await implementations({
    simd,
    scalar,
    relaxed,
    loadTf,
    loadOrt,
    allForms,
    breakId,
    log,
  });
  const env = {
    quick,
    breakId,
    log,
    drain, // gc() exists when the driver starts Chromium with --js-flags=--expose-gc
    cpuSeconds: async () => (globalThis.benchCpuSeconds ? globalThis.benchCpuSeconds() : null),
  };
  const suite = await runSuite({
    impls,
    peak: await loadPeak(),
    relaxedPeak: relaxed ? await loadPeak('peak-relaxed-web') : null,
    env,
  });
  return {
    environment: 'browser',
    meta: {
      seconds: (Date.now() - started) / 1000,
      quick,
      break: breakId,
      user_agent: navigator.userAgent,
      gc_between_samples: typeof globalThis.gc === 'function',
      timer_resolution_ms: timerResolutionMs(),
      // without cross-origin isolation a page has no SharedArrayBuffer, so no wasm threads at all
      cross_origin_isolated: globalThis.crossOriginIsolated === true,
      shared_array_buffer: typeof SharedArrayBuffer !== 'undefined',
      workers_created: globalThis.benchWorkersCreated ?? null,
      ours: { version: simd.version() },
      tfjs: info.tfjs,
      ort: info.ort,
      errors,
    },
    ...suite,
  };
};
document.getElementById('status').textContent = 'ready';
document.body.dataset.ready = 'true';
