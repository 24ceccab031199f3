// Issue 27, item 6: a link is never thrown away for an overflow on the way. On the worked example
// with the causal mask, A = [[1, 0], [0.33, 0.67]]: its first column sums to 1.33, so a finite dO
// of 3e38 down that column (given, or as AV − Y with Y = −3e38) makes dV₁₁ = Aᵀ·dO outgrow
// float32. Both modes open it, show ∞ and NaN where float32 gives them, and count them from the dV
// step on; from X, dW_V = Xᵀ·dV is made with them (X = I₂: its first column 1·∞ + 0·2e38 = ∞ and
// 0·∞ + 1·2e38 = NaN, as float32 gives them).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import { parseState, serializeState } from '../../web/src/state.js';
import { nonFiniteFrom } from '../../web/src/non-finite.js';
import { toRows } from '../../web/src/matrix.js';

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

const QKV = 'preset=custom&mode=qkv&mask=causal&q=1,0;0,1&k=1,0;0,1&v=10,0;0,10';
const FROM_X = 'preset=custom&mode=x&mask=causal&x=1,0;0,1&wq=1,0;0,1&wk=1,0;0,1&wv=10,0;0,10';
const LOSSES = { 'dO given': 'loss=given&dout=3e38,0;3e38,0', 'Y of ½‖AV − Y‖²': 'loss=mse&y=-3e38,0;-3e38,0' };

for (const [mode, inputs] of Object.entries({ 'Q, K, V directly': QKV, 'from X': FROM_X }))
  for (const [loss, fields] of Object.entries(LOSSES))
    test(`${mode}, ${loss}: dV outgrows float32, and the link opens with ∞ and the notice from dV`, () => {
      const { state, notice } = parseState(`#step=11&${inputs}&${fields}`);
      assert.equal(notice, null);
      const model = computeModel(engine, state);
      assert.ok(model.gradOutput.data.every(Number.isFinite), 'dO itself is finite');
      assert.equal(model.gradV.data[0], Infinity, 'dV₁₁ = 1·3e38 + 0.33·3e38');
      assert.equal(nonFiniteFrom(model), 'dv');
      assert.equal(model.nonFinite.gradV, 1);
      if (state.mode === 'x') {
        const [[a, b], [c, d]] = toRows(model.gradWv);
        assert.deepEqual([a, Number.isNaN(c)], [Infinity, true], 'column 1: 1·∞ + 0·2e38, 0·∞ + 1·2e38');
        assert.ok(Number.isFinite(b) && Number.isFinite(d), 'column 2 stays finite');
        assert.equal(model.nonFinite.gradWv, 2);
      } else assert.equal(model.gradWv, undefined);
      // The page's own link for it opens again, the same.
      assert.equal(serializeState(parseState(serializeState(state)).state), serializeState(state));
    });
