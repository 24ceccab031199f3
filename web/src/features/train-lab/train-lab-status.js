// The training lab's status lines (train-lab-view.js): the task's note — whether one layer can
// learn it and why not, or for the reader's own rule whether it has, measured (own-rule.js) — the
// run's step with its loss and accuracy and the held-out accuracy, where the run is computed, and
// the notice that the loss diverged.

import { h, setText } from '../../views/dom.js';
import { taskFor, HELD_OUT } from './train-lab.js';
import { ownVerdict } from './own-rule.js';
import { lastOf } from './train-lab-curves.js';
import { formatNumber } from '../../format.js';

/** { lines: [the task's note, the status, where, the divergence notice], word({ state, t }), draw({ state, t }, d) }. */
export function createStatusPart() {
  const p = (attrs) => h('p', attrs);
  const parts = {
    task: p({ class: 'train-task-note', id: 'train-task-note' }),
    status: p({ class: 'train-status', id: 'train-status' }),
    where: p({ class: 'train-where', id: 'train-where', hidden: true }),
    nan: p({ class: 'train-notice', id: 'train-nan', role: 'alert', hidden: true }),
  };
  return {
    lines: Object.values(parts),
    word: (look) => wordTask(parts.task, look),
    draw(look, d) {
      if (look.state.traintask === 'own') wordOwnVerdict(parts.task, look, d);
      drawStatus(parts, look, d);
    },
  };
}

/** A built-in task's note: what it is when one layer learns it, else why it does not. */
function wordTask(task, { state, t }) {
  if (state.traintask === 'own') return; // its line is measured (wordOwnVerdict)
  const { learnable } = taskFor(state);
  setText(task, t(`train.task.${state.traintask}.${learnable ? 'what' : 'why'}`));
  task.classList.toggle('train-limit', !learnable);
  delete task.dataset.verdict;
}

/**
 * The own rule's line, measured: what the rule is, then whether the first run's held-out accuracy
 * (on the pairs themselves) reached OWN_VERDICT.learned, or stalled short of it, and why.
 */
function wordOwnVerdict(task, { t }, d) {
  const verdict = ownVerdict(d.runs[0]?.snapshots ?? []);
  const accuracy = verdict.accuracy === undefined ? '' : formatNumber(verdict.accuracy, 3);
  setText(task, t('train.task.own.what') + ' ' + t(`train.own.verdict.${verdict.kind}`, { ...verdict, accuracy }));
  task.classList.toggle('train-limit', verdict.kind === 'stalled');
  task.dataset.verdict = verdict.kind;
}

function drawStatus(parts, { state, t }, d) {
  const run = d.runs[0];
  let text = t('train.status.starting');
  if (d.error) text = t('train.status.error', { message: d.error.message });
  else if (run && d.steps === 0) text = t('train.status.start', { total: state.trainsteps });
  else if (run) {
    const held = run.snapshots.at(-1);
    text =
      t('train.status', {
        step: d.steps,
        total: state.trainsteps,
        loss: formatNumber(lastOf(run, 1), 4),
        accuracy: formatNumber(lastOf(run, 2), 3),
      }) +
      t('train.status.heldOut', {
        accuracy: formatNumber(held.heldOut.accuracy, 3),
        count: HELD_OUT.count,
        step: held.step,
      });
  }
  setText(parts.status, text);
  parts.status.dataset.steps = String(d.steps);
  parts.where.hidden = !d.mode;
  parts.where.dataset.mode = d.mode ?? '';
  if (d.mode) setText(parts.where, t(`train.where.${d.mode}`));
  const diverged = d.runs.some((r) => r.points.some((p) => !Number.isFinite(p[1])));
  parts.nan.hidden = !diverged;
  setText(parts.nan, diverged ? t('train.notice.nan') : '');
}
