// engine.js, the page's only owner of the wasm instance, in Node (bytes passed in, no network):
// both builds give the article's numbers, and the SIMD probe works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine, simdSupported } from '../../web/src/engine.js';
import { computeModel } from '../../web/src/model.js';
import { defaultState } from '../../web/src/state.js';

const bytes = (name) => fs.readFileSync(new URL(`../../build/wasm/${name}`, import.meta.url));

test('Node 20 has wasm SIMD, so the probe says yes', () => {
  assert.equal(simdSupported(), true);
});

for (const [scalar, file] of [
  [false, 'attention_core.wasm'],
  [true, 'attention_core_scalar.wasm'],
]) {
  test(`the ${scalar ? 'scalar' : 'SIMD'} build computes the worked example`, async () => {
    // Only the build asked for is read: the other's bytes are never needed.
    const binaries = scalar
      ? { scalar: () => bytes(file), simd: () => assert.fail('SIMD bytes read') }
      : { simd: () => bytes(file), scalar: () => assert.fail('scalar bytes read') };
    const engine = await loadEngine({ binaries, scalar });
    assert.equal(engine.simd(), !scalar);
    assert.equal(engine.build, scalar ? 'scalar' : 'simd');
    const model = computeModel(engine, defaultState());
    assert.deepEqual(
      Array.from(model.output.data, (x) => x.toPrecision(4)),
      ['6.698', '3.302', '3.302', '6.698'],
    );
    assert.throws(() => engine.attentionSteps({ q: model.q }), Error, 'invalid input throws an Error');
    assert.equal(computeModel(engine, defaultState()).output.data.length, 4, 'and the engine stays usable');
  });
}
