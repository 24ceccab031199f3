// The printed handout: all nine steps of an example on A4 (styles/print.css shows it, and only it,
// when the page is printed). From the stepper: the current example with every number. From the
// exercise view: the current question's example with its inputs filled in and every intermediate
// left blank, for the learner to compute by hand. Laid out just before printing
// (controller/exports.js: the "Print handout" button and the window's beforeprint event); render
// only.

import { h } from './dom.js';
import { stepsFor } from '../steps.js';
import { TABLE_LIMIT } from '../state.js';
import { OPTIONS, optionDefaults } from '../options.js';
import { matrixFormat } from '../format.js';
import { symbol } from './names.js';
import { formulaTemplate } from './stage.js';
import { stepMatrices } from '../labs/export/matrices.js';
import { exerciseQuestion } from '../labs/exercise.js';
import { fromRows, toRows } from '../matrix.js';

/** One matrix as a plain bordered table: numbers, or empty boxes when `blank`. */
function printedMatrix(id, matrix, state, { blank }) {
  const caption = h('caption', {}, `${symbol(id, state).text}  (${matrix.rows}×${matrix.cols})`);
  if (matrix.rows > TABLE_LIMIT || matrix.cols > TABLE_LIMIT) {
    return h(
      'table',
      { class: 'printed too-large' },
      caption,
      h('tbody', {}, h('tr', {}, h('td', {}, `${matrix.rows}×${matrix.cols}`))),
    );
  }
  const format = matrixFormat(matrix.data, state.digits);
  return h(
    'table',
    { class: `printed${blank ? ' blank' : ''}`, dataset: { name: id } },
    caption,
    h(
      'tbody',
      {},
      toRows(matrix).map((row) =>
        h(
          'tr',
          {},
          row.map((x) => h('td', {}, blank ? '' : format(x))),
        ),
      ),
    ),
  );
}

/** The step's formula, pre-rendered by KaTeX at build time (the same <template> the stage uses). */
function formula(stepId, state) {
  const template = formulaTemplate('detail', stepId, state);
  return h('div', { class: 'handout-formula' }, template ? template.content.cloneNode(true) : null);
}

/** ctx: { state, model, t, engine } — fills `root` (#handout) for printing. */
export function renderHandout(root, { state, model, t, engine }) {
  const exercise = state.view === 'exercise';
  let shown = state,
    numbers = model,
    question = null;
  if (exercise) {
    // The learner's sheet: the question's example, asked with the article's options, and the core's
    // steps for it that exerciseQuestion already computed (only their shapes are printed).
    const page = { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) };
    question = exerciseQuestion(engine, state, page);
    shown = { ...state, ...optionDefaults(), mode: 'qkv', heads: 1 };
    const { q, k, v } = question.example;
    numbers = { ...question.steps, q: fromRows(q), k: fromRows(k), v: fromRows(v) };
  }
  const given = new Set(exercise ? ['q', 'k', 'v'] : ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v']);
  const printedOnce = new Set();
  const steps = stepsFor(shown).map(({ id: stepId }, index) => {
    // Each matrix is printed once, at the first step that shows it: the sheet stays within a few pages.
    const ids = stepMatrices(stepId, shown.mode, shown.heads).filter((id) => !printedOnce.has(id));
    ids.forEach((id) => printedOnce.add(id));
    return h(
      'section',
      { class: 'handout-step', dataset: { step: stepId } },
      h('h2', {}, `${index + 1}. ${t(`step.${stepId}.title`)}`),
      formula(stepId, shown),
      h(
        'div',
        { class: 'handout-matrices' },
        ids.map((id) => printedMatrix(id, numbers[id], shown, { blank: exercise && !given.has(id) })),
      ),
    );
  });
  const options = OPTIONS.map((o) => o.summary(shown[o.key], t)).filter(Boolean);
  root.replaceChildren(
    h(
      'header',
      { class: 'handout-head' },
      h('h1', {}, exercise ? t('handout.exerciseTitle') : t('handout.title')),
      h('p', {}, 'softmax(QKᵀ/√dₖ)·V'),
      h(
        'p',
        { class: 'handout-example' },
        exercise
          ? t(`ex.source.${question.example.source}`)
          : `${t(`preset.${state.preset}`)} · n = ${state.n}, dₖ = ${state.dk}, dᵥ = ${state.dv}`,
      ),
      h('p', { class: 'handout-options' }, options.join(' · ')),
      exercise ? h('p', { class: 'handout-task' }, t('handout.task', { digits: state.exdigits })) : null,
    ),
    ...steps,
  );
  root.dataset.kind = exercise ? 'exercise' : 'steps';
}
