// engine.js, the page's only owner of the wasm instance, in Node (bytes passed in, no network):
// each build gives the article's numbers, and the probes pick the fastest build the engine runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import v8 from 'node:v8';
import { loadEngine, simdSupported, relaxedSimdSupported, bestBuild } from '../../web/src/engine.js';
import { computeModel } from '../../web/src/model.js';
import { defaultState } from '../../web/src/state.js';

const bytes = (name) => fs.readFileSync(new URL(`../../build/wasm/${name}`, import.meta.url));

test('Node 20 has wasm SIMD, and relaxed SIMD only behind its flag: the probes say so, and bestBuild() follows', () => {
  assert.equal(simdSupported(), true);
  assert.equal(relaxedSimdSupported(), false);
  assert.equal(bestBuild(), 'simd');
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  assert.equal(relaxedSimdSupported(), true);
  assert.equal(bestBuild(), 'relaxed');
  // Only among the builds offered: the self-contained page carries SIMD128 and scalar alone.
  assert.equal(bestBuild({ simd: () => {}, scalar: () => {} }), 'simd');
  assert.equal(bestBuild({ scalar: () => {} }), 'scalar');
});

const FILES = {
  relaxed: 'attention_core_relaxed.wasm',
  simd: 'attention_core.wasm',
  scalar: 'attention_core_scalar.wasm',
};
for (const build of Object.keys(FILES)) {
  test(`the ${build} build computes the worked example`, async () => {
    v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
    // Only the build asked for is read: the others' bytes are never needed.
    const binaries = Object.fromEntries(
      Object.entries(FILES).map(([b, file]) => [
        b,
        b === build ? () => bytes(file) : () => assert.fail(`${b} bytes read`),
      ]),
    );
    const engine = await loadEngine({ binaries, build });
    assert.equal(engine.simd(), build !== 'scalar');
    assert.equal(engine.build, build);
    const model = computeModel(engine, defaultState());
    assert.deepEqual(
      Array.from(model.output.data, (x) => x.toPrecision(4)),
      ['6.698', '3.302', '3.302', '6.698'],
    );
    assert.throws(() => engine.attentionSteps({ q: model.q }), Error, 'invalid input throws an Error');
    assert.equal(computeModel(engine, defaultState()).output.data.length, 4, 'and the engine stays usable');
  });
}
