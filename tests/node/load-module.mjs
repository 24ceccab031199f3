// Loads the built ES module in Node. Node ≥ 18 cannot fetch the separate .wasm (the glue picks up
// the global fetch; docs/toolchain.md, pitfall 2), so the binary is read from disk and handed over.
import fs from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

export const builds = {
  simd: { module: 'wasm/attention.mjs', core: 'build/wasm/attention_core.mjs', wasm: 'build/wasm/attention_core.wasm' },
  scalar: { module: 'wasm/attention-scalar.mjs', core: 'build/wasm/attention_core_scalar.mjs', wasm: 'build/wasm/attention_core_scalar.wasm' },
};

/** The public API of one build (wasm/api.mjs around the Embind module). */
export async function loadAttention(build = 'simd') {
  const { module, wasm } = builds[build];
  const { default: createAttention } = await import(new URL(module, ROOT));
  return createAttention({ wasmBinary: fs.readFileSync(new URL(wasm, ROOT)) });
}

/** The bare Embind module of one build, without api.mjs: to test what the bindings do alone. */
export async function loadCore(build = 'simd') {
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
  const attn = await wrapCore((options) => createCore(options).then((c) => (core = c)),
    { wasmBinary: fs.readFileSync(new URL(wasm, ROOT)) });
  return { attn, core, memoryBytes: () => core.HEAP8.length, heapBytes: () => core.heapInUse() };
}

export function readFixture() {
  return JSON.parse(fs.readFileSync(new URL('tests/fixtures/worked-example.json', ROOT), 'utf8'));
}

// [[1, 0], [0, 1]] → { rows, cols, data: Float32Array }; "-Infinity" (the fixture's −∞) → -Infinity.
export function matrix(rows) {
  const data = Float32Array.from(rows.flat(), (x) => (x === '-Infinity' ? -Infinity : x));
  return { rows: rows.length, cols: rows[0].length, data };
}

// Asserts every value of `actual` is within tol (absolute + relative) of `expected` (array of rows).
export function assertClose(assert, actual, expected, tol, what) {
  const want = matrix(expected);
  assert.equal(actual.rows, want.rows, `${what}: rows`);
  assert.equal(actual.cols, want.cols, `${what}: cols`);
  actual.data.forEach((x, t) => {
    const y = want.data[t];
    const ok = Number.isNaN(y) ? Number.isNaN(x) : !Number.isFinite(y) ? x === y : Math.abs(x - y) <= tol + tol * Math.abs(y);
    assert.ok(ok, `${what}[${Math.floor(t / want.cols)}][${t % want.cols}] = ${x}, expected ${y}`);
  });
}
