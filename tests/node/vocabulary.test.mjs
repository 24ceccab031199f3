// wasm/vocabulary.mjs against the core's own tables (core/options.hpp, core/error.hpp), and the
// bindings' checked tables on their own: every name the JS side uses is one the core knows, and a
// name the core does not know is refused with bad_option rather than cast to some enum.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore, I2 } from './load-module.mjs';
import { SCALES, AXES, MASKS, CORE_ERROR_CODES, API_ERROR_CODES, ERROR_CODES } from '../../wasm/vocabulary.mjs';

const options = { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' };

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: the bindings and vocabulary.mjs speak the same names`, () => {
    let core;
    before(async () => {
      core = await loadCore(build);
    });

    it('scales, axes and masks are the core\'s names (a custom mask travels as "custom")', () => {
      const names = core.vocabulary();
      assert.deepEqual(names.scales, [...SCALES]);
      assert.deepEqual(names.axes, [...AXES]);
      assert.deepEqual(names.masks, [...MASKS, 'custom']);
    });

    it("the core's error codes are CORE_ERROR_CODES, and every code is listed once", () => {
      assert.deepEqual(core.vocabulary().errorCodes, [...CORE_ERROR_CODES]);
      assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
      for (const code of [...CORE_ERROR_CODES, ...API_ERROR_CODES]) assert.ok(ERROR_CODES.includes(code), code);
    });

    it('every name of the vocabulary is accepted by the bindings', () => {
      for (const scale of SCALES)
        assert.equal(core.attentionSteps(I2, I2, I2, { ...options, scale }).error, undefined, scale);
      for (const axis of AXES)
        assert.equal(core.attentionSteps(I2, I2, I2, { ...options, axis }).error, undefined, axis);
      for (const mask of MASKS) assert.equal(core.attention(I2, I2, I2, { ...options, mask }).error, undefined, mask);
    });

    for (const [option, got, message] of [
      ['scale', 'sqrt', 'scale must be "sqrt_dk", "dk" or "none" (got "sqrt")'],
      ['axis', '1', 'axis must be "row" or "column" (got "1")'],
      ['mask', 'future', 'mask must be "none", "causal" or "custom" (got "future")'],
    ]) {
      it(`an unknown ${option} name reaching the bindings is refused with bad_option`, () => {
        for (const call of ['attentionSteps', 'attention', 'attentionStreaming']) {
          const { error } = core[call](I2, I2, I2, { ...options, [option]: got });
          assert.deepEqual(
            { ...error, params: { ...error.params } },
            { code: 'bad_option', argument: option, message, params: { got: JSON.stringify(got) } },
            call,
          );
        }
      });
    }
  });
}
