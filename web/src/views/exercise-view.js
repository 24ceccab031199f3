// The lab view 'exercise' (state.view): the article's closing advice — compute a small example by
// hand — as a series of questions. The questions, the checking and the hints are the model's
// (labs/exercise.js); this file shows one question at a time and keeps what the reader did with
// each (the typed answer, the hints revealed, the verdict) for as long as the page is open.
//
// Which question is open and which series it belongs to live in the URL (exercise-fields.js), so
// Next/Previous and the teacher's panel go through setState; everything else is the view's own.
// The controls are built once with stable ids and updated in place: the app restores focus and a
// field's typed text by id, and a language switch must leave the answer being typed where it was.

import { h } from './dom.js';
import { math, mi, mn, mo, msub, msqrt, mrow } from './math.js';
import { shapeMath } from './names.js';
import { renderMatrix } from './matrix.js';
import { KIND_OF } from '../colors.js';
import { fromRows, toRows } from '../matrix.js';
import { TABLE_LIMIT } from '../state.js';
import { parseNumber } from '../parse-matrix.js';
import { formatNumber } from '../format.js';
import { exerciseQuestion, checkAnswer, hints, cellName } from '../labs/exercise.js';
import { EXERCISE_FIELDS, CELL_KINDS, EXAMPLE_SOURCES, MAX_SERIES_LENGTH } from '../labs/exercise-fields.js';

// The fields that make a series; with `ex` added they name one question.
const SERIES_KEYS = ['exlen', 'exseed', 'exdigits', 'exkinds', 'exfrom'];
// On the page's example, the example is part of the series: edited in the stepper, it is another.
const seriesKey = (state, page) =>
  SERIES_KEYS.map((key) => String(state[key])).join('|') + (state.exfrom === 'page' ? JSON.stringify(page) : '');
const fieldType = (key) => EXERCISE_FIELDS.find((field) => field.key === key).type;

// The teacher's number fields: the hash field each writes, what else changes with it (a new seed
// is a new series: back to its first question), and the message when the text is out of range.
const NUMBER_FIELDS = [
  {
    id: 'ex-len',
    key: 'exlen',
    label: 'ex.field.len',
    error: 'ex.err.len',
    patch: (v, s) => ({ exlen: v, ex: Math.min(s.ex, v) }),
  },
  { id: 'ex-seed', key: 'exseed', label: 'ex.field.seed', error: 'err.seed', patch: (v) => ({ exseed: v, ex: 1 }) },
  {
    id: 'ex-digits',
    key: 'exdigits',
    label: 'ex.field.digits',
    error: 'ex.err.digits',
    patch: (v) => ({ exdigits: v }),
  },
];

const MINUS = '\u2212';
const typographic = (text) => text.replace(/^-/, MINUS);

/** The cell's index as the article writes it under a name: 12, or 12,1 once an index has two digits. */
const index = (i, j) =>
  i >= 9 || j >= 9 ? mrow(mn(String(i + 1)), mo(','), mn(String(j + 1))) : mn(`${i + 1}${j + 1}`);

/** The name of the matrix a kind of question asks about, as MathML children. */
function matrixName(kind, dk) {
  if (kind === 'score') return [mi('S')];
  if (kind === 'scaled') return [mi('S'), mo('/', { lspace: '0', rspace: '0' }), msqrt(mn(String(dk)))];
  if (kind === 'weight') return [mi('A')];
  return [mi('A'), mi('V')];
}

/** "A₁₂ = ?" (or S₁₁/√2 = ?, (AV)₁₁ = ?) as one <math>. */
function askMath(question) {
  const { kind, i, j, example } = question;
  const dk = example.q[0].length;
  const target = {
    score: () => [msub(mi('S'), index(i, j))],
    scaled: () => [msub(mi('S'), index(i, j)), mo('/', { lspace: '0', rspace: '0' }), msqrt(mn(String(dk)))],
    weight: () => [msub(mi('A'), index(i, j))],
    output: () => [msub(mrow(mo('('), mi('A'), mi('V'), mo(')')), index(i, j))],
  }[kind]();
  return math([...target, mo('='), mo('?')], { label: `${cellName(question)} = ?` });
}

// What the reader did, per question of a series: `${seriesKey}|${number}` → { text, hints (how
// many shown), shown (the answer), verdict (checkAnswer's), done, solved }. Kept for as long as the
// page is open, across the view closing: a reader who looks something up in the stepper and comes
// back finds the score and the answers as they left them.
const records = new Map();

export function createExerciseView({ engine, setState, announce }) {
  const fieldErrors = new Map(); // a teacher's field id → { key, params } of its message
  let ctx = null; // the last update's { state, t, theme, model }
  let current = null; // { key, question, steps } of the open question
  let drawn = ''; // what the matrices were drawn for

  const record = (key = current.key) => {
    if (!records.has(key))
      records.set(key, { text: '', hints: 0, shown: false, verdict: null, done: false, solved: false });
    return records.get(key);
  };

  // ---- The elements, built once ----------------------------------------------------------------
  const title = h('h2', { id: 'ex-title' });
  const lede = h('p', { class: 'ex-lede' });

  const position = h('p', { class: 'ex-position', id: 'ex-position' });
  const source = h('p', { class: 'ex-source' });
  const dots = h('ol', { class: 'ex-dots', 'aria-hidden': 'true' });
  const score = h('p', { class: 'ex-score' });
  const figures = h('div', { class: 'ex-figures' });
  const askWords = h('p', { class: 'ex-ask' });
  const askFormula = h('p', { class: 'ex-ask-math' });

  const answerLabel = h('label', { for: 'ex-answer' });
  const answer = h('input', {
    type: 'text',
    id: 'ex-answer',
    class: 'ex-answer-input',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'ex-round ex-answer-error',
  });
  const checkButton = h('button', { type: 'button', id: 'ex-check', class: 'primary' });
  const rounding = h('p', { class: 'hint', id: 'ex-round' });
  const answerError = h('p', { class: 'field-error', id: 'ex-answer-error' });
  const verdict = h('p', { class: 'ex-verdict', id: 'ex-verdict' });

  const hintButton = h('button', { type: 'button', id: 'ex-hint' });
  const showButton = h('button', { type: 'button', id: 'ex-show' });
  const stepsTitle = h('h3', { id: 'ex-steps-title' });
  const stepList = h('ol', { class: 'ex-steps-list' });
  const solution = h('p', { class: 'ex-solution' });
  const steps = h(
    'section',
    { class: 'ex-steps', 'aria-labelledby': 'ex-steps-title' },
    stepsTitle,
    stepList,
    solution,
  );

  const prevButton = h('button', { type: 'button', id: 'ex-prev', class: 'ex-prev' });
  const nextButton = h('button', { type: 'button', id: 'ex-next', class: 'ex-next' });

  const card = h(
    'section',
    { class: 'ex-card', 'aria-labelledby': 'ex-position' },
    h(
      'div',
      { class: 'ex-head' },
      h('div', { class: 'ex-where' }, position, source),
      h('div', { class: 'ex-progress' }, dots, score),
    ),
    figures,
    h('div', { class: 'ex-question' }, askWords, askFormula),
    h(
      'div',
      { class: 'ex-answer' },
      answerLabel,
      h('div', { class: 'ex-answer-row' }, answer, checkButton),
      rounding,
      answerError,
      verdict,
    ),
    h('div', { class: 'ex-tools' }, hintButton, showButton),
    steps,
    h('div', { class: 'ex-nav' }, prevButton, nextButton),
  );

  // The teacher's panel: every control writes a hash field, so "Copy link" gives this series.
  const teacherSummary = h('summary', {});
  const teacherNote = h('p', { class: 'hint' });
  const numberInputs = NUMBER_FIELDS.map((field) => {
    const label = h('label', { for: field.id });
    const input = h('input', {
      type: 'text',
      id: field.id,
      inputmode: 'numeric',
      autocomplete: 'off',
      'aria-describedby': `${field.id}-error`,
    });
    const error = h('p', { class: 'field-error', id: `${field.id}-error` });
    input.addEventListener('change', () => setNumber(field, input.value));
    return { field, label, input, error, el: h('div', { class: 'field' }, label, input, error) };
  });
  const kindsLegend = h('legend', {});
  const kindBoxes = CELL_KINDS.map((kind) => {
    const box = h('input', { type: 'checkbox', id: `ex-kind-${kind}`, onchange: setKinds });
    const label = h('label', { for: box.id });
    return { kind, box, label, el: h('div', { class: 'check' }, box, label) };
  });
  const kindsError = h('p', { class: 'field-error', id: 'ex-kinds-error' });
  const kinds = h(
    'fieldset',
    { class: 'ex-kinds', 'aria-describedby': 'ex-kinds-error' },
    kindsLegend,
    kindBoxes.map((k) => k.el),
    kindsError,
  );
  const fromLegend = h('legend', {});
  const fromRadios = EXAMPLE_SOURCES.map((from) => {
    const radio = h('input', {
      type: 'radio',
      name: 'ex-from',
      id: `ex-from-${from}`,
      value: from,
      onchange: () => setState({ exfrom: from, ex: 1 }),
    });
    const label = h('label', { for: radio.id });
    return { from, radio, label, el: h('div', { class: 'check' }, radio, label) };
  });
  const teacher = h(
    'details',
    { class: 'ex-teacher', id: 'ex-teacher' },
    teacherSummary,
    h(
      'div',
      { class: 'ex-teacher-body' },
      teacherNote,
      h(
        'div',
        { class: 'ex-teacher-fields' },
        numberInputs.map((n) => n.el),
      ),
      kinds,
      h(
        'fieldset',
        { class: 'ex-from' },
        fromLegend,
        fromRadios.map((r) => r.el),
      ),
    ),
  );

  const element = h(
    'section',
    { class: 'lab lab-exercise', 'aria-labelledby': 'ex-title' },
    title,
    lede,
    card,
    teacher,
  );

  // ---- What the reader does --------------------------------------------------------------------
  answer.addEventListener('input', () => {
    record().text = answer.value;
    if (answerError.textContent) {
      answerError.textContent = '';
      answer.removeAttribute('aria-invalid');
    }
  });
  answer.addEventListener('keydown', (event) => {
    // Not while an input method is composing (Enter then confirms the characters). A <form> would
    // do this for free, but a sandboxed embed without allow-forms never fires its submit.
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      check();
    }
  });
  checkButton.addEventListener('click', check);
  hintButton.addEventListener('click', () => {
    const rec = record();
    if (rec.hints >= current.steps.length) return;
    rec.hints += 1;
    render();
    const step = current.steps[rec.hints - 1];
    announce(`${ctx.t(`ex.step.${step.step}`)}: ${step.formula}`);
  });
  showButton.addEventListener('click', () => {
    const rec = record();
    rec.shown = true;
    rec.done = true;
    rec.hints = current.steps.length;
    render();
    announce(solution.textContent);
  });
  prevButton.addEventListener('click', () => go(-1));
  nextButton.addEventListener('click', () => go(+1));

  function check() {
    const rec = record();
    rec.text = answer.value;
    rec.verdict = checkAnswer(current.question, answer.value);
    if (rec.verdict.verdict !== 'unreadable') rec.done = true;
    // Counted as solved only when found before the answer was shown.
    if (rec.verdict.verdict === 'correct' && !rec.shown) rec.solved = true;
    render();
    announce(verdictText(rec.verdict));
  }

  function go(step) {
    const { state, t } = ctx;
    const ex = state.ex + step;
    if (ex < 1 || ex > current.question.total) return;
    setState({ ex });
    // Said once: focus stays on the button, so a screen reader would not hear the new question.
    announce(
      t('ex.opened', {
        position: t('ex.position', { number: ex, total: current.question.total }),
        cell: cellName(current.question),
      }),
    );
  }

  /** A teacher's number field: read like every number on the page, then held to the field's range. */
  function setNumber(field, text) {
    const parsed = parseNumber(text);
    const value = parsed.ok ? fieldType(field.key).parse(String(parsed.value)) : undefined;
    if (value === undefined) {
      fieldErrors.set(
        field.id,
        parsed.ok || parsed.error.key === 'empty'
          ? { key: field.error, params: { max: MAX_SERIES_LENGTH } }
          : { key: `err.${parsed.error.key}`, params: parsed.error },
      );
      render();
      return;
    }
    fieldErrors.delete(field.id);
    setState(field.patch(value, ctx.state));
  }

  /** The kinds asked for: those still ticked keep their order, a newly ticked one comes last. */
  function setKinds() {
    const ticked = kindBoxes.filter((k) => k.box.checked).map((k) => k.kind);
    if (ticked.length === 0) {
      fieldErrors.set('ex-kinds', { key: 'ex.err.kinds', params: {} });
      render();
      return;
    }
    fieldErrors.delete('ex-kinds');
    const kept = ctx.state.exkinds.filter((kind) => ticked.includes(kind));
    setState({ exkinds: [...kept, ...ticked.filter((kind) => !kept.includes(kind))], ex: 1 });
  }

  function verdictText(result) {
    const { t } = ctx;
    if (result.verdict === 'unreadable') return errorText(result.error);
    if (result.verdict === 'correct')
      return t('ex.verdict.correct', { cell: cellName(current.question), answer: typographic(result.answer) });
    return t(`ex.verdict.${result.verdict}`);
  }

  // The parse error in the reader's language; an empty field gets a word of its own ("this cell is
  // empty" is the matrix editor's).
  const errorText = (error) => (error.key === 'empty' ? ctx.t('ex.err.empty') : ctx.t(`err.${error.key}`, error));

  // ---- Showing it ------------------------------------------------------------------------------
  function render() {
    const { state, t, model } = ctx;
    // exfrom=page: every question is on the stepper's current Q, K, V.
    const page = model && { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) };
    if (state.exfrom === 'page' && !page) return;
    const series = seriesKey(state, page);
    const key = `${series}|${state.ex}`;
    const opened = current?.key !== key;
    if (opened) {
      const question = exerciseQuestion(engine, state, page);
      current = { key, question, steps: hints(question) };
    }
    const { question } = current;
    const rec = record();
    const name = cellName(question);

    title.textContent = t('view.exercise');
    lede.textContent = t('ex.lede');
    position.textContent = t('ex.position', { number: question.number, total: question.total });
    source.textContent = t(`ex.source.${question.example.source}`);
    renderProgress(series, question);
    renderFigures(question);
    askWords.textContent = t(`ex.ask.${question.kind}`, {
      i: question.i + 1,
      j: question.j + 1,
      dk: question.example.q[0].length,
    });
    askFormula.replaceChildren(askMath(question));

    answerLabel.textContent = t('ex.answerLabel');
    if (opened) answer.value = rec.text; // another question: its own answer; otherwise as typed
    checkButton.textContent = t('ex.check');
    rounding.textContent =
      question.digits <= 1 ? t(`ex.round.${question.digits}`) : t('ex.round.n', { digits: question.digits });
    const unreadable = rec.verdict?.verdict === 'unreadable';
    answerError.textContent = unreadable ? errorText(rec.verdict.error) : '';
    if (unreadable) answer.setAttribute('aria-invalid', 'true');
    else answer.removeAttribute('aria-invalid');
    verdict.textContent = rec.verdict && !unreadable ? verdictText(rec.verdict) : '';
    verdict.className = `ex-verdict${rec.verdict && !unreadable ? ` ${rec.verdict.verdict}` : ''}`;

    const all = rec.hints >= current.steps.length;
    hintButton.textContent = all ? t('ex.hintsAll') : t('ex.hint', { shown: rec.hints, total: current.steps.length });
    setDisabled(hintButton, all);
    showButton.textContent = t('ex.show');
    setDisabled(showButton, rec.shown);
    renderSteps(rec, name);

    prevButton.textContent = t('ex.prev');
    nextButton.textContent = t('ex.next');
    setDisabled(prevButton, question.number <= 1);
    setDisabled(nextButton, question.number >= question.total);

    renderTeacher();
  }

  // aria-disabled rather than disabled: a button that becomes disabled loses focus, and a reader
  // who pressed Next to the last question must stay on Next.
  function setDisabled(button, off) {
    if (off) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  }

  function renderProgress(series, question) {
    const { t } = ctx;
    let correct = 0,
      done = 0;
    const items = [];
    for (let n = 1; n <= question.total; n++) {
      const rec = records.get(`${series}|${n}`);
      if (rec?.solved) correct++;
      if (rec?.done) done++;
      const status = rec?.solved
        ? 'solved'
        : rec?.shown
          ? 'shown'
          : rec?.verdict && rec.verdict.verdict !== 'unreadable'
            ? rec.verdict.verdict
            : 'todo';
      items.push(h('li', { class: `${status}${n === question.number ? ' current' : ''}` }));
    }
    dots.replaceChildren(...items);
    score.textContent = t('ex.score', { correct, done, total: question.total });
  }

  /** Q, K and V as the stepper draws them, the rows the question uses marked; then the cell asked for. */
  function renderFigures(question) {
    const { state, t, theme } = ctx;
    const drawing = `${current.key}|${theme}|${state.lang}`;
    if (drawing === drawn) return;
    drawn = drawing;
    const { kind, i, j, example } = question;
    const figure = (id, rows) => {
      const matrix = fromRows(rows);
      return renderMatrix(
        {
          id: `ex-${id}`,
          name: shapeMath(id, state, matrix.rows, matrix.cols),
          label: id.toUpperCase(),
          caption: t(`mat.${id}`),
          matrix,
          kind: KIND_OF[id],
        },
        { digits: 4, theme, t },
      ).el;
    };
    const q = figure('q', example.q),
      k = figure('k', example.k),
      v = figure('v', example.v);
    const markRow = (fig, row) => fig.querySelector(`tbody tr[data-i="${row}"]`)?.classList.add('hl-row');
    markRow(q, i);
    if (kind === 'score' || kind === 'scaled') markRow(k, j);
    if (kind === 'output') for (const td of v.querySelectorAll(`td.c[data-j="${j}"]`)) td.classList.add('hl-col');
    figures.replaceChildren(h('div', { class: 'ex-inputs' }, q, k, v), unknownGrid(question));
  }

  /** The matrix the question is about, empty but for a "?" in the cell asked for (small ones only). */
  function unknownGrid(question) {
    const { t } = ctx;
    const { kind, i, j, example } = question;
    const rows = example.q.length,
      cols = kind === 'output' ? example.v[0].length : example.k.length;
    if (rows > TABLE_LIMIT || cols > TABLE_LIMIT) return null;
    const nameText = cellName(question).replace(/[₀-₉,]+/g, ''); // S, S/√2, A, (AV)
    const nameMath = math(matrixName(kind, example.q[0].length), { label: nameText });
    const body = Array.from({ length: rows }, (_, r) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, String(r + 1)),
        Array.from({ length: cols }, (_, c) =>
          r === i && c === j ? h('td', { class: 'c ex-cell hl-cell' }, '?') : h('td', { class: 'c ex-blank' }),
        ),
      ),
    );
    return h(
      'figure',
      { class: 'matrix ex-unknown' },
      h('figcaption', {}, h('span', { class: 'name' }, nameMath), h('span', { class: 'caption' }, t('ex.unknown'))),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          {
            class: 'mat',
            'aria-label': t('ex.unknownLabel', { name: `${nameText} ${rows}×${cols}`, cell: cellName(question) }),
          },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('td', { class: 'corner' }),
              Array.from({ length: cols }, (_, c) => h('th', { scope: 'col' }, String(c + 1))),
            ),
          ),
          h('tbody', {}, body),
        ),
      ),
    );
  }

  /** The sub-steps revealed so far, each with its live formula (one line per sum), then the answer. */
  function renderSteps(rec, name) {
    const { t } = ctx;
    const { question } = current;
    stepsTitle.textContent = t('ex.steps');
    stepList.replaceChildren(
      ...current.steps.slice(0, rec.hints).map((step) =>
        h(
          'li',
          {},
          h('span', { class: 'ex-step-name' }, t(`ex.step.${step.step}`)),
          step.formula.split('; ').map((line) => h('span', { class: 'ex-step-line' }, line)),
        ),
      ),
    );
    solution.textContent = rec.shown
      ? t('ex.answer', { cell: name, answer: typographic(question.answer), exact: formatNumber(question.expected, 4) })
      : '';
    steps.hidden = rec.hints === 0 && !rec.shown;
  }

  function renderTeacher() {
    const { state, t } = ctx;
    // An embedded exercise is the series its link fixed; the full page lets a teacher make one.
    teacher.hidden = Boolean(state.embed);
    teacherSummary.textContent = t('ex.teacher');
    teacherNote.textContent = t('ex.teacher.note');
    for (const { field, label, input, error } of numberInputs) {
      label.textContent = t(field.label, { max: MAX_SERIES_LENGTH });
      const problem = fieldErrors.get(field.id);
      error.textContent = problem ? t(problem.key, problem.params) : '';
      if (problem) input.setAttribute('aria-invalid', 'true');
      else {
        input.removeAttribute('aria-invalid');
        input.value = String(state[field.key]);
      } // the text in error stays as typed
    }
    kindsLegend.textContent = t('ex.field.kinds');
    const kindsProblem = fieldErrors.get('ex-kinds');
    kindsError.textContent = kindsProblem ? t(kindsProblem.key) : '';
    for (const { kind, box, label } of kindBoxes) {
      label.textContent = t(`ex.kind.${kind}`);
      if (!kindsProblem) box.checked = state.exkinds.includes(kind);
    }
    fromLegend.textContent = t('ex.field.from');
    for (const { from, radio, label } of fromRadios) {
      label.textContent = t(`ex.from.${from}`);
      radio.checked = state.exfrom === from;
    }
  }

  return {
    element,
    update(next) {
      ctx = next;
      render();
    },
    destroy() {},
  };
}
