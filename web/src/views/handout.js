// The printed handout: all nine steps of an example on A4 (styles/print.css shows it, and only it,
// when the page is printed). From the stepper: the current example with every number. From the
// exercise view: the current question's example with its inputs filled in and every intermediate
// left blank, for the learner to compute by hand. Laid out just before printing
// (controller/exports.js: the "Print handout" button and the window's beforeprint event); render
// only.

import { h } from './dom.js';
import { stepsFor, stepWords, atOrAfter, stepById, stepFigures, FIGURES } from '../steps.js';
import { TABLE_LIMIT, articleSetting } from '../state.js';
import { OPTIONS } from '../options.js';
import { matrixFormat } from '../format.js';
import { symbol } from './names.js';
import { formulaTemplate } from './stage.js';
import { stepMatrices } from '../labs/export/matrices.js';
import { featureOf } from '../features/index.js';
import { fromRows, toRows } from '../matrix.js';
import { articleCredit } from './chrome.js';
import { stateTokens } from '../words.js';

/**
 * The words beside each matrix of a step, as the stage shows them (steps.js FIGURE `labels`):
 * id → { rowLabels?, colLabels? }. None without words.
 */
function stepLabels(stepId, state) {
  const words = stateTokens(state);
  if (!words) return new Map();
  return new Map(
    stepFigures(stepById(stepId), state).map(({ figure, labels }) => [
      FIGURES[figure].field,
      { rowLabels: labels ? words : undefined, colLabels: labels === 'pair' ? words : undefined },
    ]),
  );
}

/** One matrix as a plain bordered table: numbers, or empty boxes when `blank`; its words beside it. */
function printedMatrix(id, matrix, state, { blank, rowLabels, colLabels }) {
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
    colLabels
      ? h(
          'thead',
          {},
          h(
            'tr',
            {},
            rowLabels ? h('td', { class: 'corner' }) : null,
            colLabels.map((word) => h('th', { scope: 'col' }, word)),
          ),
        )
      : null,
    h(
      'tbody',
      {},
      toRows(matrix).map((row, i) =>
        h(
          'tr',
          {},
          rowLabels ? h('th', { scope: 'row' }, rowLabels[i]) : null,
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

/**
 * The handout's sections in order, each made by `section(step, numbers, head)`: every step with
 * one head; with heads, steps 1–2, then each head's own steps (scores to AV, with its numbers),
 * then concat and ·W_O.
 */
function handoutSteps(shown, numbers, heads, section) {
  const all = stepsFor(shown);
  if (!heads) return all.map((step) => section(step, numbers, null));
  const own = (step) => atOrAfter(step.id, 'scores') && !atOrAfter(step.id, 'concat');
  return [
    ...all.filter((step) => atOrAfter('scores', step.id) && !own(step)).map((step) => section(step, numbers, null)),
    ...heads.flatMap((head, b) => all.filter(own).map((step) => section(step, { ...numbers, ...head }, b + 1))),
    ...all.filter((step) => atOrAfter(step.id, 'concat')).map((step) => section(step, numbers, null)),
  ];
}

/** ctx: { state, model, t, engine } — fills `root` (#handout) for printing. */
export function renderHandout(root, { state, model, t, engine }) {
  // A view whose feature prints a question (the exercise, features/index.js) prints the learner's sheet.
  const askQuestion = featureOf(state.view)?.handout?.question;
  const exercise = Boolean(askQuestion);
  let shown = state,
    numbers = model,
    question = null;
  if (exercise) {
    // The learner's sheet: the question's example, asked with the article's options, and the core's
    // steps for it that exerciseQuestion already computed (only their shapes are printed).
    const page = { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) };
    question = askQuestion(engine, state, page);
    shown = articleSetting(state);
    const { q, k, v } = question.example;
    numbers = { ...question.steps, q: fromRows(q), k: fromRows(k), v: fromRows(v) };
  }
  const given = new Set(exercise ? ['q', 'k', 'v'] : ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v']);
  const printedOnce = new Set();
  const section = (step, numbersOf, head) => {
    const stepId = step.id;
    // Each matrix is printed once, at the first step that shows it: the sheet stays within a few pages.
    const ids = stepMatrices(stepId, shown).filter((id) => !printedOnce.has(`${head}/${id}`));
    ids.forEach((id) => printedOnce.add(`${head}/${id}`));
    const number = stepsFor(shown).indexOf(step) + 1;
    const labels = exercise ? new Map() : stepLabels(stepId, shown);
    return h(
      'section',
      { class: 'handout-step', dataset: { step: stepId, head: head ?? null } },
      h(
        'h2',
        {},
        `${head ? `${t('heads.headN', { i: head })} · ` : ''}${number}. ${t(stepWords(stepId, shown).title)}`,
      ),
      formula(stepId, shown),
      h(
        'div',
        { class: 'handout-matrices' },
        ids.map((id) =>
          printedMatrix(id, numbersOf[id], shown, { blank: exercise && !given.has(id), ...labels.get(id) }),
        ),
      ),
    );
  };
  const steps = handoutSteps(shown, numbers, model.heads && !exercise ? model.heads : null, section);
  const options = OPTIONS.map((o) => o.summary(shown[o.key], t)).filter(Boolean);
  root.replaceChildren(
    h(
      'header',
      { class: 'handout-head' },
      h('h1', {}, exercise ? t('handout.exerciseTitle') : t('handout.title')),
      h('p', {}, 'softmax(QKᵀ/√dₖ)·V'),
      h('p', { class: 'handout-source' }, articleCredit(state, t, { sections: true })),
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
