// The training lab's hand-off to the stepper (train-lab-walk.js): the state that walks one
// training step of the trained model on the probe. Pure: no DOM, no engine.

import { probeState } from '../../state.js';
import { toRows } from '../../matrix.js';
import { float32Text } from '../../labs/export/numbers.js';
import { TRAIN_FIELD_KEYS } from './train-lab.js';

/** A matrix as rows of the shortest decimals of its float32 values: the same numbers, a shorter link. */
const shortRows = (m) => toRows(m).map((row) => row.map((x) => Number(float32Text(x))));

/**
 * The stepper's state for a session's 'walk' reply ({ x, wq, wk, wv, dout, causal, scale }): X,
 * the head's W's, the scaling its next step uses (a fork's, after the fork) and its mask, and dO
 * given; the language, theme and digits stay the reader's. The lab's own fields stay in the
 * state (the stepper's link leaves them out): Back, which takes only the view from the URL, then
 * opens the lab on the same run.
 */
export function walkState(state, reply) {
  const lab = Object.fromEntries(TRAIN_FIELD_KEYS.map((key) => [key, state[key]]));
  const stepper = probeState(state, {
    x: shortRows(reply.x),
    wq: shortRows(reply.wq),
    wk: shortRows(reply.wk),
    wv: shortRows(reply.wv),
    dout: shortRows(reply.dout),
    scale: reply.scale,
    mask: reply.causal ? 'causal' : 'none',
  });
  return { ...stepper, ...lab };
}
