// browser/kernel-ab-page.mjs — the page of bench/kernel-ab.mjs: relaxed-SIMD builds of the core
// (build/bench/core-bench-relaxed-LABEL.mjs, bench/wasm/build-core-bench.sh) and the relaxed_madd
// peak (build/bench/peak-relaxed-web.mjs). The page only runs the work; the driver times each piece
// by the CPU time of the renderer's main thread, so it exposes one function per piece.

const loaded = { peak: null, builds: {} };

// Loads the peak and the builds and runs each once at every size (tiering up before the timing).
globalThis.abInit = async (labels, sizes, d) => {
  const { default: createPeak } = await import('/build/bench/peak-relaxed-web.mjs');
  loaded.peak = await createPeak();
  for (const label of labels) {
    const { default: create } = await import(`/build/bench/core-bench-relaxed-${label}.mjs`);
    loaded.builds[label] = await create();
  }
  for (const chains of [10, 12, 16]) loaded.peak._peak_gflops(chains, 1e6);
  for (const label of labels) for (const n of sizes) globalThis.abAttention(label, n, d, 3);
};
// `iterations` steps of `chains` relaxed_madd chains: 8·chains·iterations flops.
globalThis.abPeak = (chains, iterations) => loaded.peak._peak_gflops(chains, iterations);
// `calls` calls of attention at n_q = n_k = n (bench/wasm/core_bench.cpp, one sample).
globalThis.abAttention = (label, n, d, calls) => {
  if (loaded.builds[label]._time_attention_batches(0, n, d, calls, 1) < 0)
    throw new Error(`${label}: attention failed`);
};

document.body.dataset.ready = 'true';
document.getElementById('status').textContent = 'ready';
