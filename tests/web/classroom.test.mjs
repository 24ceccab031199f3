// The classroom mode's pure parts (web/src/classroom.js): its hash fields and their round trip,
// which actions a lab leaves to the browser, the pace a teacher types, and the countdown. What each
// key and a presentation clicker ask for is tested with the page's actions (actions.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseState, serializeState, defaultState } from '../../web/src/state.js';
import { actsIn, stepAfter, pacing, parsePace, PACE_LIMIT } from '../../web/src/classroom.js';

test('classroom=1 and pace=8 round trip; pace is written only when set, neither field without the mode', () => {
  const { state, notice } = parseState('#step=3&classroom=1&pace=8');
  assert.equal(notice, null);
  assert.deepEqual([state.classroom, state.pace, state.step], [true, 8, 3]);
  const hash = serializeState(state);
  assert.match(hash, /(^#|&)classroom=1(&|$)/);
  assert.match(hash, /(^|&)pace=8(&|$)/);
  assert.deepEqual(parseState(hash).state, state);
  // The mode without a pace: no pace in the link.
  const still = serializeState({ ...state, pace: 0 });
  assert.match(still, /classroom=1/);
  assert.doesNotMatch(still, /pace=/);
  // The page as it always was: neither field, and a link without them opens without the mode.
  assert.doesNotMatch(serializeState(defaultState()), /classroom|pace/);
  assert.deepEqual([defaultState().classroom, defaultState().pace], [false, 0]);
  assert.doesNotMatch(serializeState({ ...state, classroom: false }), /classroom|pace/);
});

test('classroom is a whole screen: an embed reads the link without it; a lab keeps it, without a pace (no steps)', () => {
  const embed = parseState('#embed=1&classroom=1&pace=8');
  assert.equal(embed.notice, null);
  assert.deepEqual([embed.state.classroom, embed.state.pace], [false, 0]);
  assert.doesNotMatch(serializeState(embed.state), /classroom|pace/);
  const lab = parseState('#view=scale-lab&classroom=1&pace=5');
  assert.equal(lab.notice, null);
  assert.deepEqual([lab.state.classroom, lab.state.pace], [true, 0]);
  assert.match(serializeState(lab.state), /(^#|&)classroom=1(&|$)/);
  assert.doesNotMatch(serializeState(lab.state), /pace=/);
  assert.deepEqual(parseState(serializeState(lab.state)).state, lab.state);
  // An embed's snippet made from a classroom state does not carry the mode.
  const classroom = parseState('#classroom=1&pace=8').state;
  assert.doesNotMatch(serializeState({ ...classroom, embed: true }), /classroom|pace/);
});

test('a link with a pace the page does not take (0.5, -1, 601, words) is not read', () => {
  for (const pace of ['0.5', '-1', String(PACE_LIMIT + 1), 'fast']) {
    assert.equal(parseState(`#classroom=1&pace=${pace}`).notice, 'badHash', pace);
  }
  assert.equal(parseState('#classroom=2').notice, 'badHash');
  assert.equal(parseState(`#classroom=1&pace=${PACE_LIMIT}`).state.pace, PACE_LIMIT);
});

test('the pace typed into the bar: whole seconds 1 … 600, empty or 0 is off, anything else is refused', () => {
  assert.deepEqual(parsePace('8'), { pace: 8 });
  assert.deepEqual(parsePace(' 30 '), { pace: 30 });
  assert.deepEqual(parsePace(''), { pace: 0 });
  assert.deepEqual(parsePace('0'), { pace: 0 });
  for (const text of ['1.5', '-3', 'abc', '601', '8s', '1e2'])
    assert.deepEqual(parsePace(text), { error: { key: 'classroom.paceError', max: PACE_LIMIT } }, text);
});

test("in a lab the page keys are the browser's (they scroll it); full screen, blank and leave are the mode's", () => {
  for (const action of ['next', 'previous', 'first', 'last', 'play']) {
    assert.equal(actsIn('steps', action), true, action);
    assert.equal(actsIn('scale-lab', action), false, action);
  }
  for (const action of ['fullscreen', 'blank', 'leave'])
    for (const view of ['steps', 'scale-lab', 'cost-lab', 'exercise', 'train-lab'])
      assert.equal(actsIn(view, action), true, `${view} ${action}`);
});

test('the step each action moves to, within 1 … count (9 steps, 11 with heads)', () => {
  assert.equal(stepAfter('next', 3, 9), 4);
  assert.equal(stepAfter('next', 9, 9), 9);
  assert.equal(stepAfter('previous', 1, 9), 1);
  assert.equal(stepAfter('previous', 5, 9), 4);
  assert.equal(stepAfter('first', 7, 11), 1);
  assert.equal(stepAfter('last', 2, 11), 11);
  assert.equal(stepAfter('play', 2, 11), 2);
});

test('the countdown: seconds left, the fraction gone, due at the pace; in whole seconds for reduced motion', () => {
  assert.deepEqual(pacing(0, 8), { due: false, remaining: 8, fraction: 0 });
  assert.deepEqual(pacing(2500, 8), { due: false, remaining: 6, fraction: 2500 / 8000 });
  assert.deepEqual(pacing(2500, 8, { reduced: true }), { due: false, remaining: 6, fraction: 2000 / 8000 });
  assert.deepEqual(pacing(8000, 8), { due: true, remaining: 0, fraction: 1 });
  assert.deepEqual(pacing(9500, 8), { due: true, remaining: 0, fraction: 1 });
  assert.equal(pacing(-5, 1).fraction, 0, 'a clock set back reads as just started');
});
