// Loads the built ES module in Node. Node ≥ 18 cannot fetch the separate .wasm (the glue picks up
// the global fetch; docs/toolchain.md, pitfall 2), so the binary is read from disk and handed over.
import fs from 'node:fs';
import v8 from 'node:v8';

const ROOT = new URL('../../', import.meta.url);

export const builds = {
  relaxed: {
    module: 'wasm/attention-relaxed.mjs',
    core: 'build/wasm/attention_core_relaxed.mjs', // the same glue as simd's (relaxed-simd.test.mjs)
    wasm: 'build/wasm/attention_core_relaxed.wasm',
  },
  simd: { module: 'wasm/attention.mjs', core: 'build/wasm/attention_core.mjs', wasm: 'build/wasm/attention_core.wasm' },
  scalar: {
    module: 'wasm/attention-scalar.mjs',
    core: 'build/wasm/attention_core_scalar.mjs', // the same glue as simd's (relaxed-simd.test.mjs)
    wasm: 'build/wasm/attention_core_scalar.wasm',
  },
};

// Node 20 validates relaxed SIMD only behind a V8 flag; set before the module is compiled, it
// applies to this process from then on (as `node --experimental-wasm-relaxed-simd` would).
function enableRelaxedSimd() {
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
}

/** The public API of one build (wasm/api.mjs around the Embind module). */
export async function loadAttention(build = 'simd') {
  if (build === 'relaxed') enableRelaxedSimd();
  const { module, wasm } = builds[build];
  const { default: createAttention } = await import(new URL(module, ROOT));
  return createAttention({ wasmBinary: fs.readFileSync(new URL(wasm, ROOT)) });
}

/** The bare Embind module of one build, without api.mjs: to test what the bindings do alone. */
export async function loadCore(build = 'simd') {
  if (build === 'relaxed') enableRelaxedSimd();
  const { core, wasm } = builds[build];
  const { default: createCore } = await import(new URL(core, ROOT));
  return createCore({ wasmBinary: fs.readFileSync(new URL(wasm, ROOT)) });
}

/**
 * The public API of one build and the Embind module under it, to watch the module's memory:
 * memoryBytes() is the size of the wasm memory, which grows when the allocator runs out and never
 * shrinks; heapBytes() is what the allocator has handed out and not taken back, which a leak
 * makes grow call after call.
 */
export async function loadAttentionWithCore(build = 'simd') {
  const { core: corePath, wasm } = builds[build];
  const { default: createCore } = await import(new URL(corePath, ROOT));
  const { wrapCore } = await import(new URL('wasm/api.mjs', ROOT));
  let core;
  const attn = await wrapCore((options) => createCore(options).then((c) => (core = c)), {
    wasmBinary: fs.readFileSync(new URL(wasm, ROOT)),
  });
  return { attn, core, memoryBytes: () => core.HEAP8.length, heapBytes: () => core.heapInUse() };
}

/**
 * The public API of one build and the module's wasm memory (a WebAssembly.Memory), which a caller
 * reaches as this does: through Emscripten's instantiateWasm option, instantiating the module itself.
 */
export async function loadAttentionWithMemory(build = 'simd') {
  const { core: corePath, wasm } = builds[build];
  const { default: createCore } = await import(new URL(corePath, ROOT));
  const { wrapCore } = await import(new URL('wasm/api.mjs', ROOT));
  const binary = fs.readFileSync(new URL(wasm, ROOT));
  let memory;
  const attn = await wrapCore(createCore, {
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(binary, imports).then(({ instance, module }) => {
        memory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
        receive(instance, module);
      });
      return {};
    },
  });
  return { attn, memory };
}

/** A Float32Array whose buffer has been transferred away (what postMessage with a transfer list does). */
export function detached(length) {
  const data = new Float32Array(length);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  return data;
}

export function readFixture() {
  return JSON.parse(fs.readFileSync(new URL('tests/fixtures/worked-example.json', ROOT), 'utf8'));
}

// [[1, 0], [0, 1]] → { rows, cols, data: Float32Array }; "-Infinity" (the fixture's −∞) → -Infinity.
export function matrix(rows) {
  const data = Float32Array.from(rows.flat(), (x) => (x === '-Infinity' ? -Infinity : x));
  return { rows: rows.length, cols: rows[0].length, data };
}

/** The article's worked example (§7): Q = K = I₂, V = 10·I₂. */
export const I2 = matrix([
  [1, 0],
  [0, 1],
]);
export const V10 = matrix([
  [10, 0],
  [0, 10],
]);

/**
 * Asserts that `attn` still computes the worked example's AV ≈ [[6.698, 3.302], [3.302, 6.698]]:
 * what the suites check after a refusal, an abort or a soak, to show the module still answers.
 */
export function assertWorkedExample(assert, attn, what) {
  assertClose(
    assert,
    attn.attentionSteps({ q: I2, k: I2, v: V10 }).output,
    [
      [6.698, 3.302],
      [3.302, 6.698],
    ],
    1e-4,
    what,
  );
}

// Asserts every value of `actual` is within tol (absolute + relative) of `expected` (array of rows).
export function assertClose(assert, actual, expected, tol, what) {
  const want = matrix(expected);
  assert.equal(actual.rows, want.rows, `${what}: rows`);
  assert.equal(actual.cols, want.cols, `${what}: cols`);
  actual.data.forEach((x, t) => {
    const y = want.data[t];
    const ok = Number.isNaN(y)
      ? Number.isNaN(x)
      : !Number.isFinite(y)
        ? x === y
        : Math.abs(x - y) <= tol + tol * Math.abs(y);
    assert.ok(ok, `${what}[${Math.floor(t / want.cols)}][${t % want.cols}] = ${x}, expected ${y}`);
  });
}

/**
 * Asserts every cell of `actual` against `expected` ({ rows, cols, data }): NaN only against NaN,
 * ±∞ only against itself, finite values when near(a, b). Reports how many cells differ and the
 * first one.
 */
export function assertEachCell(assert, actual, expected, what, near) {
  assert.equal(actual.rows, expected.rows, `${what}: rows`);
  assert.equal(actual.cols, expected.cols, `${what}: cols`);
  assert.ok(actual.data instanceof Float32Array, `${what}: a Float32Array`);
  let bad = 0,
    first = '';
  for (let t = 0; t < expected.data.length; t++) {
    const a = actual.data[t],
      b = expected.data[t];
    const ok = Number.isNaN(b) ? Number.isNaN(a) : !Number.isFinite(b) ? a === b : near(a, b);
    if (!ok && bad++ === 0) first = `[${Math.floor(t / expected.cols)}][${t % expected.cols}] = ${a}, expected ${b}`;
  }
  assert.equal(bad, 0, `${what}: ${bad} cells differ, first ${first}`);
}

/** Deterministic inputs in [lo, hi) (xorshift32): the same numbers on every run and platform. */
export function random(rows, cols, seed, lo = -1, hi = 1) {
  let x = (seed * 2654435761 + 1) >>> 0;
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    data[i] = lo + (hi - lo) * ((x >>> 8) / 2 ** 24);
  }
  return { rows, cols, data };
}

/** A 0/1 mask with about a quarter masked, row 1 fully masked (its output must be zeros) and column 0 masked. */
export function customMask(nQ, nK, seed) {
  const m = random(nQ, nK, seed, 0, 1);
  for (let t = 0; t < m.data.length; t++)
    m.data[t] = m.data[t] < 0.25 || t % nK === 0 || Math.floor(t / nK) === 1 ? 0 : 1;
  return m;
}
