// harness.mjs — one full run of the benchmark in Node (bench/run.sh starts three, each in a fresh
// process, and bench/report.mjs turns them into bench/results.md). Loads this project's two wasm
// builds, TensorFlow.js-wasm, onnxruntime-web and the wasm mul+add peak, reads back how many
// threads each peer really runs, runs bench/suite.mjs and writes one JSON file.
//
//   node --expose-gc bench/harness.mjs --out FILE [--quick] [--streaming-large] [--all-forms] [--break=ID]
//     --quick            5 rounds, short warm-ups: a smoke run, not a result
//     --streaming-large  also attentionStreaming at n = 16384 (its memory claim; once per bench)
//     --all-forms        also the peer forms dropped as slower (re-measure bench/NOTES.md's claim)
//     --break=ID         feed implementation ID a wrong Q (see suite.mjs): the gate must reject it

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runSuite, implementations, drain } from './suite.mjs';
import { streamingLarge } from './streaming-large.mjs';
import { QK_SIGMA, V_SIGMA, MAX_REL_ERR } from './inputs.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const QUICK = flag('--quick');
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : null;
const BREAK = args.find((a) => a.startsWith('--break='))?.slice('--break='.length) ?? null;
const log = (text) => console.error('[bench node]', text);

// OS threads of this process right now (Linux): a wasm runtime that starts worker threads adds some.
const osThreads = () => {
  try {
    return fs.readdirSync('/proc/self/task').length;
  } catch {
    return null;
  }
};

const OURS = {
  simd: ['attention', 'attention_core.wasm'],
  scalar: ['attention-scalar', 'attention_core_scalar.wasm'],
  relaxed: ['attention-relaxed', 'attention_core_relaxed.wasm'],
};
async function loadOurs(build) {
  const [file, wasm] = OURS[build];
  const { default: create } = await import(pathToFileURL(path.join(ROOT, 'wasm', `${file}.mjs`)));
  return create({ wasmBinary: fs.readFileSync(path.join(ROOT, 'build', 'wasm', wasm)) });
}

// Node 20 validates relaxed SIMD only with --experimental-wasm-relaxed-simd (bench/run.sh passes
// it): the same 40-byte probe as the page's (web/src/engine.js).
const relaxedSimdHere = () =>
  import(pathToFileURL(path.join(ROOT, 'web', 'src', 'engine.js'))).then((e) => e.relaxedSimdSupported());

async function loadTf() {
  const tf = await import('@tensorflow/tfjs-core');
  const tfwasm = await import('@tensorflow/tfjs-backend-wasm');
  const dist = path.join(HERE, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
  // Only the single-threaded SIMD binary is offered, under all three names; with the multithread
  // flag off the backend does not even ask for the threaded one.
  const simdBinary = path.join(dist, 'tfjs-backend-wasm-simd.wasm');
  tfwasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': simdBinary,
    'tfjs-backend-wasm-simd.wasm': simdBinary,
    'tfjs-backend-wasm-threaded-simd.wasm': simdBinary,
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tfwasm.setThreadsCount(1);
  const threadsBefore = osThreads();
  if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") returned false');
  await tf.ready();
  const info = {
    version: tf.version_core,
    backend: tf.getBackend(),
    simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    multithread_flag: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'),
    // the count the backend's wasm reports after its init (get_threads_count), not the option
    threads_reported: tfwasm.getThreadsCount(),
    binary: 'tfjs-backend-wasm-simd.wasm',
    os_threads_added: osThreads() - threadsBefore,
  };
  if (!info.simd || info.threads_reported !== 1)
    throw new Error(`TensorFlow.js wasm is not SIMD single-threaded here: ${JSON.stringify(info)}`);
  return { tf, info };
}

async function loadOrt() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = path.join(HERE, 'node_modules', 'onnxruntime-web', 'dist') + path.sep;
  // The wasm backend initialises on the first session: create a throwaway one so that what ORT
  // settled on can be read back before timing.
  const threadsBefore = osThreads();
  const { attentionGraph } = await import('./onnx.mjs');
  const probe = await ort.InferenceSession.create(attentionGraph(2, 2, 2, 2), { executionProviders: ['wasm'] });
  await probe.release();
  const info = {
    version: ort.env.versions?.web ?? 'unknown',
    // ORT rewrites env.wasm.numThreads to 1 when its environment cannot run threads; read after init
    num_threads_after_init: ort.env.wasm.numThreads,
    // its only binary is ort-wasm-simd-threaded.wasm: threads exist only if it starts workers
    os_threads_added: osThreads() - threadsBefore,
  };
  if (info.num_threads_after_init !== 1)
    throw new Error(`onnxruntime-web is not single-threaded here: ${JSON.stringify(info)}`);
  return { ort, info };
}

function loadPeak(name = 'peak') {
  const file = path.join(ROOT, 'build', 'bench', `${name}.cjs`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run bench/run.sh`);
  return require(file)();
}

async function main() {
  if (!OUT)
    throw new Error(
      'usage: node --expose-gc bench/harness.mjs --out FILE [--quick] [--streaming-large] [--all-forms] [--break=ID]',
    );
  if (!globalThis.gc) log('warning: no --expose-gc, samples are not separated by a GC');
  const started = new Date();
  const loadavg = os.loadavg();
  const simd = await loadOurs('simd');
  const relaxedHere = await relaxedSimdHere();
  if (!relaxedHere)
    log('no relaxed SIMD in this Node (run it with --experimental-wasm-relaxed-simd): relaxed rows left out');
  const { impls, errors, info } = await implementations({
    simd,
    scalar: await loadOurs('scalar'),
    relaxed: relaxedHere ? await loadOurs('relaxed') : null,
    loadTf,
    loadOrt,
    allForms: flag('--all-forms'),
    breakId: BREAK,
    log,
  });
  const env = {
    quick: QUICK,
    breakId: BREAK,
    log,
    drain,
    cpuSeconds: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    },
  };
  const suite = await runSuite({
    impls,
    peak: await loadPeak(),
    relaxedPeak: relaxedHere ? await loadPeak('peak-relaxed') : null,
    env,
  });
  const streaming = flag('--streaming-large')
    ? await streamingLarge(ROOT).catch((e) => ({ error: String(e.message ?? e) }))
    : null;
  const run = {
    environment: 'node',
    meta: {
      date: started.toISOString(),
      seconds: (Date.now() - started) / 1000,
      quick: QUICK,
      break: BREAK,
      runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
      cpu: os.cpus()[0]?.model,
      cores: os.cpus().length,
      loadavg_at_start: loadavg,
      loadavg_at_end: os.loadavg(),
      gc_between_samples: !!globalThis.gc,
      inputs: { qk_sigma: QK_SIGMA, v_sigma: V_SIGMA, max_rel_err: MAX_REL_ERR },
      ours: { version: simd.version() },
      tfjs: info.tfjs,
      ort: info.ort,
      errors,
    },
    ...suite,
    streaming,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(run, null, 1) + '\n');
  log(`wrote ${path.relative(process.cwd(), OUT)} (${run.meta.seconds.toFixed(0)} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
