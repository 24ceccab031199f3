// The lab view 'exercise' (state.view): the article's closing advice — compute a small example by
// hand — as a series of questions. The questions, the checking and the hints are the model's
// (exercise.js); what the reader did with each question (the typed answer, the hints
// revealed, the verdict) is kept in exercise-records.js for as long as the page is open.
// This file shows one question at a time, in parts: the figures (exercise-figures.js), the answer
// (exercise-answer.js), the hints (exercise-hints.js) and the teacher's panel (exercise-teacher.js).
//
// Which question is open and which series it belongs to live in the URL (exercise-fields.js), so
// Next/Previous and the teacher's panel go through setState; everything else is the view's own.
// The controls are built once with stable ids and updated in place: the app restores focus and a
// field's typed text by id, and a language switch must leave the answer being typed where it was.

import { h } from '../../views/dom.js';
import { listeners } from '../../controller/listeners.js';
import { askMath, typographic } from './exercise-math.js';
import { createFigures } from './exercise-figures.js';
import { createAnswer } from './exercise-answer.js';
import { createHints, setDisabled } from './exercise-hints.js';
import { createTeacher } from './exercise-teacher.js';
import { toRows } from '../../matrix.js';
import { exerciseQuestion, checkAnswer, hints, cellName } from './exercise.js';
import { exerciseRecords, seriesKey, takeVerdict } from './exercise-records.js';

/** The view's words for a checked answer: its parse error, or its verdict. */
function verdictWords(t, question) {
  // An empty field gets a word of its own ("this cell is empty" is the matrix editor's).
  const error = (e) => (e.key === 'empty' ? t('ex.err.empty') : t(`err.${e.key}`, e));
  const verdict = (result) => {
    if (result.verdict === 'unreadable') return error(result.error);
    if (result.verdict === 'correct')
      return t('ex.verdict.correct', { cell: cellName(question), answer: typographic(result.answer) });
    return t(`ex.verdict.${result.verdict}`);
  };
  return { error, verdict };
}

/** The question's head: where it is in the series, its example, and the series' progress. */
function createHead() {
  const parts = {
    position: h('p', { class: 'ex-position', id: 'ex-position' }),
    source: h('p', { class: 'ex-source' }),
    dots: h('ol', { class: 'ex-dots', 'aria-hidden': 'true' }),
    score: h('p', { class: 'ex-score' }),
  };
  const el = h(
    'div',
    { class: 'ex-head' },
    h('div', { class: 'ex-where' }, parts.position, parts.source),
    h('div', { class: 'ex-progress' }, parts.dots, parts.score),
  );
  function draw(t, question, { statuses, correct, done }) {
    parts.position.textContent = t('ex.position', { number: question.number, total: question.total });
    parts.source.textContent = t(`ex.source.${question.example.source}`);
    parts.dots.replaceChildren(
      ...statuses.map((status, k) => h('li', { class: `${status}${k + 1 === question.number ? ' current' : ''}` })),
    );
    parts.score.textContent = t('ex.score', { correct, done, total: question.total });
  }
  return { el, draw };
}

/** The question in words and as a formula. */
function createAsk() {
  const words = h('p', { class: 'ex-ask' });
  const formula = h('p', { class: 'ex-ask-math' });
  const el = h('div', { class: 'ex-question' }, words, formula);
  function draw(t, question) {
    words.textContent = t(`ex.ask.${question.kind}`, {
      i: question.i + 1,
      j: question.j + 1,
      dk: question.example.q[0].length,
    });
    formula.replaceChildren(askMath(question));
  }
  return { el, draw };
}

/** Previous and Next: go(-1) and go(+1); off at the series' ends. */
function createNav({ on, go }) {
  const prev = h('button', { type: 'button', id: 'ex-prev', class: 'ex-prev' });
  const next = h('button', { type: 'button', id: 'ex-next', class: 'ex-next' });
  on(prev, 'click', () => go(-1));
  on(next, 'click', () => go(+1));
  function draw(t, question) {
    prev.textContent = t('ex.prev');
    next.textContent = t('ex.next');
    setDisabled(prev, question.number <= 1);
    setDisabled(next, question.number >= question.total);
  }
  return { el: h('div', { class: 'ex-nav' }, prev, next), draw };
}

/**
 * What the reader does to the open question: check(), hint(), show(), go(±1). Each changes the
 * question's record (or the state), draws the view again and says what changed.
 */
function readerActions(view, { setState, announce, redraw, typedText, solutionText }) {
  const { record } = view;
  return {
    check() {
      const rec = record();
      takeVerdict(rec, typedText(), checkAnswer(view.current.question, typedText()));
      redraw();
      announce(verdictWords(view.ctx.t, view.current.question).verdict(rec.verdict));
    },
    hint() {
      const rec = record();
      if (rec.hints >= view.current.steps.length) return;
      rec.hints += 1;
      redraw();
      const step = view.current.steps[rec.hints - 1];
      announce(`${view.ctx.t(`ex.step.${step.step}`)}: ${step.formula}`);
    },
    show() {
      Object.assign(record(), { shown: true, done: true, hints: view.current.steps.length });
      redraw();
      announce(solutionText());
    },
    go(step) {
      const { state, t } = view.ctx;
      const ex = state.ex + step;
      if (ex < 1 || ex > view.current.question.total) return;
      setState({ ex }); // draws the view again: view.current is now question ex
      // Said once: focus stays on the button, so a screen reader would not hear the new question.
      const { question } = view.current;
      announce(
        t('ex.opened', {
          position: t('ex.position', { number: ex, total: question.total }),
          cell: cellName(question),
        }),
      );
    },
  };
}

/** The question of the state (a new one when the state names another), or null while it cannot be made. */
function openQuestion(view, engine) {
  const { state, model } = view.ctx;
  // exfrom=page: every question is on the stepper's current Q, K, V.
  const page = model && { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) };
  if (state.exfrom === 'page' && !page) return null;
  const series = seriesKey(state, page);
  const key = `${series}|${state.ex}`;
  const opened = view.current?.key !== key;
  if (opened) {
    const question = exerciseQuestion(engine, state, page);
    view.current = { key, question, steps: hints(question) };
  }
  return { series, opened };
}

/** Draws the open question and the teacher's panel into the view's parts. */
function draw(view, parts, shown) {
  const { state, t } = view.ctx;
  const { key, question, steps } = view.current;
  const rec = view.record();
  parts.title.textContent = t('view.exercise');
  parts.lede.textContent = t('ex.lede');
  parts.head.draw(t, question, view.records.progress(shown.series, question.total));
  parts.figures.draw(key, question, view.ctx);
  parts.ask.draw(t, question);
  parts.answer.draw({ t, question, rec, opened: shown.opened, words: verdictWords(t, question) });
  parts.hints.draw({ t, question, hintSteps: steps, rec, name: cellName(question) });
  parts.nav.draw(t, question);
  parts.teacher.draw(state, t);
}

/**
 * create({ engine, setState, announce, keep }) → { element, update(ctx), destroy() }. `keep` is
 * the lab's store for as long as the page is open (controller/labs.js): the records live there.
 */
export function createExerciseView({ engine, setState, announce, keep }) {
  // ctx: the last update's { state, t, theme, model }; current: { key, question, steps } of the open question
  const view = { ctx: null, current: null, records: exerciseRecords(keep) };
  view.record = () => view.records.record(view.current.key);
  const added = listeners();
  const { on } = added;
  const redraw = () => {
    const shown = openQuestion(view, engine);
    if (shown) draw(view, parts, shown);
  };
  const act = readerActions(view, {
    setState,
    announce,
    redraw,
    typedText: () => parts.answer.input.value,
    solutionText: () => parts.hints.solution.textContent,
  });
  const parts = {
    title: h('h2', { id: 'ex-title' }),
    lede: h('p', { class: 'ex-lede' }),
    head: createHead(),
    figures: createFigures(),
    ask: createAsk(),
    answer: createAnswer({ on, typed: (text) => (view.record().text = text), check: act.check }),
    hints: createHints({ on, hint: act.hint, show: act.show }),
    nav: createNav({ on, go: act.go }),
    teacher: createTeacher({ setState, redraw, on, state: () => view.ctx.state }),
  };
  const card = h(
    'section',
    { class: 'ex-card', 'aria-labelledby': 'ex-position' },
    ['head', 'figures', 'ask', 'answer'].map((name) => parts[name].el),
    parts.hints.tools,
    parts.hints.steps,
    parts.nav.el,
  );
  const element = h(
    'section',
    { class: 'lab lab-exercise', 'aria-labelledby': 'ex-title' },
    parts.title,
    parts.lede,
    card,
    parts.teacher.el,
  );

  return {
    element,
    update(next) {
      view.ctx = next;
      redraw();
    },
    destroy: () => added.removeAll(),
  };
}
