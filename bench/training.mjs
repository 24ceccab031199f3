// training.mjs — training steps per second in Node (issue 17, item 7): forward, backward and Adam,
// batch 32, at the two sizes of training-model.mjs, ours (the SIMD128 and relaxed-SIMD builds,
// through the public API: createTrainer) against TensorFlow.js training the same model with the
// same step on its two CPU backends (wasm: XNNPACK, SIMD, 1 thread; cpu: plain JS). Each
// TensorFlow.js backend passes the loss gate (training-model.mjs) before it is timed; one that fails
// it, or cannot train (a missing gradient kernel), is reported, never timed.
//
// A run: for each size, a fresh trainer (or model) per implementation, 10 steps of warm-up, then
// steps for at least 1 s; implementations interleaved within a run, so that a noisy spell on this
// shared machine hits them all. The figures are medians of RUNS runs, with their lowest and highest.
//
//   node bench/training.mjs [--runs N] [--out FILE]   → prints the table, writes FILE (JSON;
//   default build/bench/training/node.json), which bench/training-report.mjs reads

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../tests/node/load-module.mjs';
import {
  SIZES,
  BATCH,
  trainerConfig,
  tfjsModel,
  lossGate,
  reverseBatch,
  seededBelow,
  stepsPerSecond,
  summary,
} from './training-model.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 3));
const OUT = option('--out', path.join(HERE, '..', 'build', 'bench', 'training', 'node.json'));

async function loadTf() {
  // TensorFlow.js with its gradients and both CPU backends (bench/training-bundle.mjs)
  const { default: tf } = await import('../build/bench/tfjs-training-node.cjs');
  // the single-threaded SIMD binary under every name, as the attention benchmark loads it (harness.mjs)
  const simdBinary = path.join(
    HERE,
    'node_modules',
    '@tensorflow',
    'tfjs-backend-wasm',
    'dist',
    'tfjs-backend-wasm-simd.wasm',
  );
  tf.setWasmPaths({
    'tfjs-backend-wasm.wasm': simdBinary,
    'tfjs-backend-wasm-simd.wasm': simdBinary,
    'tfjs-backend-wasm-threaded-simd.wasm': simdBinary,
  });
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.setThreadsCount(1);
  return tf;
}

/** Each implementation: { id, label, prepare(size) → { step(count) } | throws, dispose() }. */
function implementations(ours, tf) {
  const oursImpl = (id, label, attn) => ({
    id,
    label,
    prepare(size) {
      const trainer = attn.createTrainer(trainerConfig(size));
      return { step: (count) => trainer.step(count), dispose: () => trainer.dispose() };
    },
  });
  const tfImpl = (backend) => ({
    id: `tfjs-${backend}`,
    label: `TensorFlow.js ${tf.version_core}, ${backend} backend`,
    backend,
    prepare(size) {
      const trainer = ours.simd.createTrainer(trainerConfig(size));
      const model = tfjsModel(tf, size, trainer.parameters());
      trainer.dispose();
      const below = seededBelow(3);
      // the batch is made inside the timing, as our core makes its own
      return {
        step: (count) => {
          for (let s = 0; s < count; s++) model.step(reverseBatch(size.config, BATCH, below));
        },
        dispose: () => model.dispose(),
      };
    },
  });
  return [
    oursImpl('ours-simd', 'ours, SIMD128 build', ours.simd),
    oursImpl('ours-relaxed', 'ours, relaxed-SIMD build', ours.relaxed),
    tfImpl('wasm'),
    tfImpl('cpu'),
  ];
}

const ours = { simd: await loadAttention('simd'), relaxed: await loadAttention('relaxed') };
const tf = await loadTf();
const impls = implementations(ours, tf);

// The gate, per TensorFlow.js backend and size: the same loss as ours, and one step that trains.
const gates = {};
for (const impl of impls.filter((i) => i.backend)) {
  await tf.setBackend(impl.backend);
  await tf.ready();
  gates[impl.id] = {};
  for (const size of SIZES) {
    try {
      gates[impl.id][size.key] = lossGate(tf, size, ours.simd.createTrainer);
      const prepared = impl.prepare(size);
      prepared.step(1);
      prepared.dispose();
    } catch (error) {
      gates[impl.id][size.key] = { passed: false, error: String(error?.message ?? error) };
    }
    console.error(`[training] gate ${impl.id} ${size.label}: ${JSON.stringify(gates[impl.id][size.key])}`);
  }
}

const loadavg = [os.loadavg()];
const runs = {}; // id → size → [steps/s per run]
const cpuRuns = {}; // id → size → [steps per CPU second per run]
// this process's CPU time (user + system, every thread: V8's compiler and GC helpers add a little)
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
for (let r = 0; r < RUNS; r++) {
  for (const size of SIZES)
    for (const impl of impls) {
      if (impl.backend && !gates[impl.id][size.key].passed) continue;
      if (impl.backend) {
        await tf.setBackend(impl.backend);
        await tf.ready();
      }
      const prepared = impl.prepare(size);
      const rate = await stepsPerSecond(prepared.step, { cpuSeconds });
      prepared.dispose();
      ((runs[impl.id] ??= {})[size.key] ??= []).push(rate.wall);
      ((cpuRuns[impl.id] ??= {})[size.key] ??= []).push(rate.cpu);
      console.error(
        `[training] run ${r + 1}/${RUNS} ${impl.id} ${size.label}: ${rate.wall.toFixed(0)} steps/s, ${rate.cpu.toFixed(0)} per CPU second`,
      );
    }
  loadavg.push(os.loadavg());
}

const result = {
  environment: 'node',
  meta: {
    date: new Date().toISOString(),
    runtime: `Node ${process.version}`,
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    loadavg,
    batch: BATCH,
    tfjs: tf.version_core,
  },
  sizes: SIZES.map(({ key, label }) => ({ key, label })),
  gates,
  impls: impls.map(({ id, label }) => ({
    id,
    label,
    sizes: Object.fromEntries(Object.entries(runs[id] ?? {}).map(([k, xs]) => [k, summary(xs)])),
    cpu: Object.fromEntries(Object.entries(cpuRuns[id] ?? {}).map(([k, xs]) => [k, summary(xs)])),
  })),
};
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify(result, null, 1) + '\n');
for (const impl of result.impls)
  for (const size of SIZES) {
    const s = impl.sizes[size.key];
    if (s)
      console.log(
        `${impl.id.padEnd(14)} ${size.label.padEnd(24)} ${s.median.toFixed(0)} steps/s (${s.low.toFixed(0)}–${s.high.toFixed(0)})`,
      );
  }
