// The relaxed-SIMD build (issue 20): the pass that renames clang 14's prototype f32x4.qfma to
// f32x4.relaxed_madd (scripts/lib/relaxed-simd.mjs), proved on a module small enough to read,
// and the built module: relaxed_madd in its fast paths and its backward pass (the training
// kernels), its forward steps the SIMD128 build's bit for bit. Its numbers against the reference are in fast-paths.test.mjs and
// api.test.mjs, which run every build.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import v8 from 'node:v8';
import { renameQfmaToRelaxedMadd } from '../../scripts/lib/relaxed-simd.mjs';
import { loadAttention, builds, random, customMask, I2, V10 } from './load-module.mjs';

v8.setFlagsFromString('--experimental-wasm-relaxed-simd');

const QFMA = [0xfd, 0xaf, 0x01];
const RELAXED_MADD = [0xfd, 0x85, 0x02];

// (func (export "f") (param f32 f32 f32) (result f32)
//   v128.const <16 bytes that start with fd af 01>  drop      ;; not an instruction to rename
//   (f32x4.extract_lane 0 (f32x4.qfma (f32x4.splat a) (f32x4.splat b) (f32x4.splat c))))
function moduleWith(fma) {
  const constBytes = [...QFMA, ...new Array(13).fill(0)];
  const body = [
    0x00, // no locals
    0xfd, 0x0c, ...constBytes, 0x1a,
    0x20, 0x00, 0xfd, 0x13,
    0x20, 0x01, 0xfd, 0x13,
    0x20, 0x02, 0xfd, 0x13,
    ...fma,
    0xfd, 0x1f, 0x00,
    0x0b,
  ]; // prettier-ignore
  const section = (id, bytes) => [id, bytes.length, ...bytes];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x03, 0x7d, 0x7d, 0x7d, 0x01, 0x7d]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, 0x01, 0x66, 0x00, 0x00]),
    ...section(10, [0x01, body.length, ...body]),
  ]); // prettier-ignore
}

const count = (bytes, seq) => {
  let n = 0;
  for (let i = 0; i + seq.length <= bytes.length; i++) if (seq.every((b, t) => bytes[i + t] === b)) n++;
  return n;
};

describe('the qfma → relaxed_madd rename', () => {
  it('makes a module that engines refuse into one that computes a·b + c: 2·3 + 1 = 7 (qfma would give 2 + 3·1 = 5)', async () => {
    const prototype = moduleWith(QFMA);
    assert.equal(WebAssembly.validate(prototype), false, 'engines refuse the prototype opcode');
    const { bytes, renamed } = renameQfmaToRelaxedMadd(prototype);
    assert.equal(renamed, 1);
    assert.ok(WebAssembly.validate(bytes));
    const { instance } = await WebAssembly.instantiate(bytes);
    assert.equal(instance.exports.f(2, 3, 1), 7);
    assert.equal(instance.exports.f(-1.5, 4, 0.25), -5.75);
  });

  it('renames instructions only: the same bytes inside a v128.const stay, and nothing else moves', () => {
    const prototype = moduleWith(QFMA);
    const { bytes } = renameQfmaToRelaxedMadd(prototype);
    assert.equal(bytes.length, prototype.length);
    assert.equal(count(bytes, QFMA), 1, 'the constant still holds fd af 01');
    assert.equal(count(bytes, RELAXED_MADD), 1);
    assert.deepEqual(
      [...bytes].filter((b, i) => b !== prototype[i]),
      [0x85, 0x02],
      'exactly the two opcode bytes changed',
    );
    assert.deepEqual(renameQfmaToRelaxedMadd(moduleWith(RELAXED_MADD)).renamed, 0);
  });

  it('leaves a module without qfma byte for byte as it was (the SIMD128 build: every instruction decoded)', () => {
    const simd = fs.readFileSync(new URL(`../../${builds.simd.wasm}`, import.meta.url));
    const { bytes, renamed } = renameQfmaToRelaxedMadd(simd);
    assert.equal(renamed, 0);
    assert.ok(Buffer.from(bytes).equals(simd));
  });

  it('stops at an instruction it does not know rather than guess where the next one starts', () => {
    const bad = moduleWith(QFMA);
    bad[bad.indexOf(0x20)] = 0x06; // local.get → the exception-handling `try`, which it does not decode
    assert.throws(() => renameQfmaToRelaxedMadd(bad), /unknown opcode 0x6/);
  });
});

describe('the relaxed-SIMD build', () => {
  let relaxed, simd;
  before(async () => {
    relaxed = await loadAttention('relaxed');
    simd = await loadAttention('simd');
  });

  it("has the SIMD128 build's JS glue, but for the name of its .wasm (so wasm/attention-relaxed.mjs can use that glue); so has the scalar build", () => {
    const glue = (build) => fs.readFileSync(new URL(`../../${builds[build].core}`, import.meta.url), 'utf8');
    assert.equal(glue('relaxed').replaceAll('attention_core_relaxed.wasm', 'attention_core.wasm'), glue('simd'));
    assert.equal(glue('scalar').replaceAll('attention_core_scalar.wasm', 'attention_core.wasm'), glue('simd'));
  });

  it('holds relaxed_madd instructions and no prototype qfma', () => {
    const bytes = fs.readFileSync(new URL(`../../${builds.relaxed.wasm}`, import.meta.url));
    assert.equal(renameQfmaToRelaxedMadd(bytes).renamed, 0, 'no qfma left');
    assert.ok(WebAssembly.validate(bytes));
  });

  it("computes the steps on the page with the SIMD128 build's loops: every intermediate equal bit for bit", () => {
    const cases = [{ q: I2, k: I2, v: V10 }];
    for (const [nQ, nK, d] of [
      [3, 5, 4],
      [17, 9, 11],
      [64, 64, 64],
    ]) {
      const q = random(nQ, d, nQ, -2, 2),
        k = random(nK, d, nK + 1, -2, 2),
        v = random(nK, d, nK + 2, -3, 3);
      cases.push({ q, k, v }, { q, k, v, mask: 'causal', scale: 'dk' }, { q, k, v, mask: customMask(nQ, nK, 7) });
      cases.push({ q, k, v, stable: false, temperature: 0.5 }, { q, k, v, axis: 'column' });
    }
    for (const args of cases) {
      const a = relaxed.attentionSteps(args),
        b = simd.attentionSteps(args);
      for (const name of ['scores', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output'])
        assert.ok(Buffer.from(a[name].data.buffer).equals(Buffer.from(b[name].data.buffer)), `${name} differs`);
    }
  });

  it('gives the worked example through its fused fast paths: AV ≈ [[6.698, 3.302], [3.302, 6.698]]', () => {
    for (const out of [
      relaxed.attention({ q: I2, k: I2, v: V10 }),
      relaxed.attentionStreaming({ q: I2, k: I2, v: V10 }),
    ])
      assert.deepEqual(
        Array.from(out.data, (x) => Number(x.toFixed(3))),
        [6.698, 3.302, 3.302, 6.698],
      );
  });
});
