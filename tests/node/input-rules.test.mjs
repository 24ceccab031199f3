// The input rules of wasm/vocabulary.mjs (issue 19 item 8): one rule per input, which the API,
// the page's fields and the URL hash all apply, so that a message says what happened to the
// number the reader gave. Each rule is checked at float32's edges and against the core itself: a
// value the rule accepts computes the article's example, a value it refuses is refused by the API
// with the rule's reason.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, I2, V10, matrix } from './load-module.mjs';
import {
  FLOAT32_MAX,
  FLOAT32_MIN_POSITIVE,
  temperatureProblem,
  cellProblem,
  underflowsFloat32,
} from '../../wasm/vocabulary.mjs';

const FOUR_HUNDRED_DIGITS = '9'.repeat(400);

describe('float32 limits', () => {
  it('FLOAT32_MAX is 2¹²⁸ − 2¹⁰⁴ and FLOAT32_MIN_POSITIVE is 2⁻¹⁴⁹, both exact in float32', () => {
    assert.equal(FLOAT32_MAX, 2 ** 128 - 2 ** 104);
    assert.equal(FLOAT32_MIN_POSITIVE, 2 ** -149);
    assert.equal(Math.fround(FLOAT32_MAX), FLOAT32_MAX);
    assert.equal(Math.fround(FLOAT32_MIN_POSITIVE), FLOAT32_MIN_POSITIVE);
  });
});

describe('temperatureProblem', () => {
  it("accepts the article's τ = 1 and every τ float32 holds, subnormal or rounded to its largest", () => {
    for (const tau of [1, 0.5, 4, 1e-40, 1e-45, FLOAT32_MIN_POSITIVE, FLOAT32_MAX, 3.4028235e38])
      assert.equal(temperatureProblem(tau), null, String(tau));
  });
  it('names why a τ is refused, with the limit it crosses', () => {
    assert.deepEqual(temperatureProblem(0), { reason: 'not_positive', value: 0, limit: 0 });
    assert.deepEqual(temperatureProblem(-1), { reason: 'not_positive', value: -1, limit: 0 });
    assert.deepEqual(temperatureProblem(-Infinity), { reason: 'not_positive', value: -Infinity, limit: 0 });
    assert.deepEqual(temperatureProblem(1e-46), { reason: 'below_float32', value: 1e-46, limit: FLOAT32_MIN_POSITIVE });
    assert.deepEqual(temperatureProblem(1e-50), { reason: 'below_float32', value: 1e-50, limit: FLOAT32_MIN_POSITIVE });
    assert.deepEqual(temperatureProblem(1e39), { reason: 'above_float32', value: 1e39, limit: FLOAT32_MAX });
    assert.deepEqual(temperatureProblem(Infinity), { reason: 'above_float32', value: Infinity, limit: FLOAT32_MAX });
    assert.equal(temperatureProblem(NaN).reason, 'not_a_number');
    assert.equal(temperatureProblem('2').reason, 'not_a_number');
    assert.equal(temperatureProblem(undefined).reason, 'not_a_number');
  });
  it('draws the lines where float32 rounds: half of 2⁻¹⁴⁹ is 0, just above it is 2⁻¹⁴⁹', () => {
    assert.equal(temperatureProblem(2 ** -150).reason, 'below_float32');
    assert.equal(temperatureProblem(2 ** -150 * 1.0001), null);
    assert.equal(temperatureProblem(FLOAT32_MAX + 2 ** 103 - 2 ** 76), null); // just under half an ulp above
    assert.equal(temperatureProblem(FLOAT32_MAX + 2 ** 103).reason, 'above_float32'); // half an ulp: ties to ∞
  });
});

describe('cellProblem', () => {
  it("accepts the article's numbers and 3.4028235e38, which float32 rounds to its largest", () => {
    for (const x of [0, 1, 10, -10, 0.67, 1e-50, 3e38, 3.4028235e38, -3.4028235e38, '3.4028235e38', ' 10 '])
      assert.equal(cellProblem(x), null, String(x));
  });
  it('calls 1e39 and a 400-digit number the same: too large for float32 (not ±∞)', () => {
    assert.deepEqual(cellProblem(1e39), { reason: 'above_float32', value: 1e39, limit: FLOAT32_MAX });
    assert.deepEqual(cellProblem('1e39'), { reason: 'above_float32', value: '1e39', limit: FLOAT32_MAX });
    assert.equal(cellProblem(FOUR_HUNDRED_DIGITS).reason, 'above_float32');
    assert.equal(cellProblem(`-${FOUR_HUNDRED_DIGITS}`).reason, 'above_float32');
    assert.equal(cellProblem('1e400').reason, 'above_float32');
  });
  it('calls ±∞ itself infinite, and NaN or text not a number', () => {
    for (const x of [Infinity, -Infinity, 'Infinity', '-inf', '∞']) assert.equal(cellProblem(x).reason, 'infinite', x);
    for (const x of [NaN, 'NaN', 'abc', '0x10', '', undefined]) assert.equal(cellProblem(x).reason, 'not_a_number', x);
  });
});

describe('underflowsFloat32', () => {
  it('is true for a number float32 holds as 0 (1e-50, issue 18), false for 0 and for subnormals', () => {
    assert.equal(underflowsFloat32(1e-50), true);
    assert.equal(underflowsFloat32(-1e-50), true);
    assert.equal(underflowsFloat32(1e-46), true);
    for (const x of [0, -0, 1, 1e-40, 1e-45, FLOAT32_MIN_POSITIVE, NaN]) assert.equal(underflowsFloat32(x), false, x);
  });
});

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: the API keeps the rules`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('every temperature the rule accepts computes; every one it refuses is refused with its reason', () => {
      const q = I2,
        k = I2,
        v = V10;
      for (const tau of [1, 1e-45, 3.4028235e38, 1e-40, FLOAT32_MAX, 0, -2, 1e-46, 1e-50, 1e39, Infinity, NaN]) {
        const problem = temperatureProblem(tau);
        for (const call of ['attentionSteps', 'attention', 'attentionStreaming']) {
          if (problem === null)
            assert.doesNotThrow(() => attn[call]({ q, k, v, temperature: tau }), `${call} τ=${tau}`);
          else
            assert.throws(
              () => attn[call]({ q, k, v, temperature: tau }),
              (e) =>
                e.code === 'bad_temperature' && e.params.reason === problem.reason && Object.is(e.params.value, tau),
              `${call} τ=${tau}`,
            );
        }
      }
      // The article's worked example, at τ = 1: A ≈ [[0.67, 0.33], [0.33, 0.67]].
      const { weights } = attn.attentionSteps({ q, k, v, temperature: 1 });
      assert.ok(Math.abs(weights.data[0] - 0.67) < 0.01);
    });

    it('a cell the rule accepts is finite in the core; one it calls too large is +∞ there (not_finite)', () => {
      assert.doesNotThrow(() => attn.attentionSteps({ q: matrix([[3.4028235e38, 0]]), k: I2, v: V10 }));
      assert.equal(cellProblem(1e39).reason, 'above_float32');
      assert.throws(
        () => attn.attentionSteps({ q: matrix([[1e39, 0]]), k: I2, v: V10 }),
        (e) => e.code === 'not_finite' && e.argument === 'q',
      );
    });
  });
}
