// The exercise view (view=exercise): one number of a small example to compute by hand, checked to
// the rounding asked for, with hints that reveal one sub-step at a time (labs/exercise.js holds
// the questions, the check and the hints; this file only draws them and keeps what the learner
// did while the page is open: the typed answers, the hints taken, the questions got right).
//
// The skeleton — every control — is built once, so that a re-render (a language switch, the next
// question) never takes the focus or the caret from under the keyboard; update() refills it.

import { h } from './dom.js';
import { math, mi, mn, mo, msub, msqrt, dk, paren } from './math.js';
import { symbolMath } from './names.js';
import { renderMatrix } from './matrix.js';
import { exerciseQuestion, checkAnswer, hints, CELL_KINDS } from '../labs/exercise.js';
import { EXAMPLE_SOURCES, MAX_SERIES_LENGTH } from '../labs/exercise-fields.js';
import { toRows } from '../matrix.js';
import { formatNumber } from '../format.js';

const slash = () => mo('/', { lspace: '0', rspace: '0' });
/** The cell asked for, as the article writes it: S₁₂, (S/√dₖ)₁₂, A₁₂, (AV)₁₂ — then "= ?". */
function askedMath(kind, i, j) {
  const index = mn(i >= 9 || j >= 9 ? `${i + 1},${j + 1}` : `${i + 1}${j + 1}`);
  const base = {
    score: () => mi('S'),
    scaled: () => paren(mi('S'), slash(), msqrt(dk())),
    weight: () => mi('A'),
    output: () => paren(mi('A'), mi('V')),
  }[kind]();
  const text = { score: 'S', scaled: '(S/√dₖ)', weight: 'A', output: '(AV)' }[kind];
  return math([msub(base, index), mo('='), mo('?')], { label: `${text} ${i + 1},${j + 1} = ?`, display: true });
}

/** What identifies a question, for remembering what the learner did with it. */
const questionKey = (q) => JSON.stringify([q.example.q, q.example.k, q.example.v, q.kind, q.i, q.j, q.digits]);

export function createExerciseView({ engine, setState, announce }) {
  // What the learner did, per question (questionKey): { text, verdict, hints (how many shown), shown }.
  const done = new Map();
  let question = null;
  let t = null;
  let state = null;
  const fieldErrors = new Map(); // teacher's field id → the error's key and params

  const el = (tag, attrs, ...children) => h(tag, attrs, ...children);
  const intro = el('p', { class: 'lab-intro' });
  const progress = el('p', { class: 'ex-progress' });
  const source = el('p', { class: 'ex-source' });
  const matrices = el('div', { class: 'ex-matrices' });
  const ask = el('p', { class: 'ex-ask' });
  const asked = el('div', { class: 'ex-asked' });
  const rounding = el('p', { class: 'ex-rounding' });
  const answerLabel = el('label', { for: 'ex-answer' });
  const answer = el('input', {
    id: 'ex-answer',
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'ex-verdict',
  });
  const check = el('button', { type: 'submit', id: 'ex-check', class: 'primary' });
  const verdict = el('p', { id: 'ex-verdict', class: 'ex-verdict' });
  const hintButton = el('button', { type: 'button', id: 'ex-hint', onclick: () => revealHint() });
  const showButton = el('button', { type: 'button', id: 'ex-show', onclick: () => showAnswer() });
  const prev = el('button', { type: 'button', id: 'ex-prev', onclick: () => move(-1) });
  const next = el('button', { type: 'button', id: 'ex-next', onclick: () => move(1) });
  const hintsTitle = el('h3', { class: 'ex-hints-title' });
  const hintList = el('ol', { class: 'ex-hints' });
  const form = el(
    'form',
    {
      class: 'ex-form',
      onsubmit: (event) => {
        event.preventDefault();
        checkTyped();
      },
    },
    answerLabel,
    el('div', { class: 'ex-answer-row' }, answer, check),
    verdict,
  );
  answer.addEventListener('input', () => {
    record().text = answer.value;
  });

  // The teacher's settings: each writes its hash field at once (a copied link carries the series).
  const teacher = teacherPanel();

  const element = el(
    'section',
    { class: 'lab lab-exercise', 'aria-labelledby': 'ex-title' },
    el('h2', { id: 'ex-title' }),
    intro,
    el(
      'div',
      { class: 'ex-card' },
      el('div', { class: 'ex-head' }, progress, el('div', { class: 'ex-moves' }, prev, next)),
      source,
      matrices,
      el(
        'div',
        { class: 'ex-question' },
        ask,
        asked,
        rounding,
        form,
        el('div', { class: 'ex-actions' }, hintButton, showButton),
      ),
      el('div', { class: 'ex-hint-box' }, hintsTitle, hintList),
    ),
    teacher.element,
  );

  function record() {
    const key = questionKey(question);
    if (!done.has(key)) done.set(key, { text: '', verdict: null, hints: 0, shown: false });
    return done.get(key);
  }

  function checkTyped() {
    const r = record();
    r.text = answer.value;
    r.verdict = checkAnswer(question, answer.value);
    renderVerdict();
    announce(verdict.textContent);
  }

  function revealHint() {
    const r = record();
    const all = hints(question);
    if (r.hints < all.length) r.hints += 1;
    renderHints();
    hintList.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
    announce(hintList.lastElementChild?.textContent ?? '');
  }

  function showAnswer() {
    record().shown = true;
    renderVerdict();
    announce(verdict.textContent);
  }

  function move(by) {
    const ex = state.ex + by;
    if (ex < 1 || ex > state.exlen) return;
    setState({ ex });
  }

  function renderVerdict() {
    const r = record();
    const v = r.verdict;
    const lines = [];
    let tone = '';
    if (v?.verdict === 'correct') {
      lines.push(t('exercise.correct', { answer: question.answer }));
      tone = 'good';
    } else if (v?.verdict === 'close') {
      lines.push(t('exercise.close', { digits: question.digits }));
      tone = 'close';
    } else if (v?.verdict === 'wrong') {
      lines.push(t('exercise.wrong'));
      tone = 'bad';
    } else if (v?.verdict === 'unreadable') {
      lines.push(t(`err.${v.error.key}`, v.error));
      tone = 'bad';
    }
    if (r.shown && v?.verdict !== 'correct') {
      lines.push(t('exercise.shown', { answer: question.answer, exact: formatNumber(question.expected, 6) }));
      tone ||= 'shown';
    }
    verdict.textContent = lines.join(' ');
    verdict.dataset.verdict = v?.verdict ?? (r.shown ? 'shown' : '');
    verdict.className = `ex-verdict${tone ? ` ${tone}` : ''}`;
    answer.setAttribute('aria-invalid', v && v.verdict !== 'correct' && v.verdict !== 'close' ? 'true' : 'false');
    const right = [...done.values()].filter((x) => x.verdict?.verdict === 'correct').length;
    progress.textContent = `${t('exercise.progress', { number: question.number, total: question.total })} · ${t('exercise.score', { right })}`;
  }

  function renderHints() {
    const all = hints(question);
    const r = record();
    hintList.replaceChildren(
      ...all
        .slice(0, r.hints)
        .map((hint) =>
          el(
            'li',
            { dataset: { step: hint.step } },
            el('span', { class: 'ex-hint-step' }, t(`exercise.hint.${hint.step}`)),
            ' ',
            el('span', { class: 'ex-hint-formula' }, hint.formula),
          ),
        ),
    );
    hintsTitle.hidden = r.hints === 0;
    hintButton.textContent =
      r.hints === 0 ? t('exercise.hint') : r.hints < all.length ? t('exercise.hintMore') : t('exercise.hintsDone');
    // aria-disabled, not disabled: a disabled button would drop the keyboard's focus to <body>.
    hintButton.setAttribute('aria-disabled', String(r.hints >= all.length));
  }

  /** The example's Q, K, V, the rows the question reads marked. */
  function renderExample({ theme }) {
    const { example, kind, i, j } = question;
    const view = { digits: state.digits, theme, t };
    const figure = (name, rows, marked) => {
      const matrix = { rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) };
      const { el: fig } = renderMatrix(
        { id: `ex-${name}`, name: symbolMath(name, state), label: name.toUpperCase(), matrix, kind: 'div' },
        view,
      );
      for (const r of marked) fig.querySelector(`tbody tr[data-i="${r}"]`)?.classList.add('asked');
      return fig;
    };
    const all = example.k.map((_, r) => r);
    matrices.replaceChildren(
      figure('q', example.q, [i]),
      figure('k', example.k, kind === 'score' || kind === 'scaled' ? [j] : all),
      figure('v', example.v, kind === 'output' ? all : []),
    );
  }

  function teacherPanel() {
    const lengthInput = el('input', {
      id: 'ex-len',
      type: 'number',
      min: 1,
      max: MAX_SERIES_LENGTH,
      step: 1,
      inputmode: 'numeric',
    });
    const seedInput = el('input', { id: 'ex-seed', type: 'number', min: 0, step: 1, inputmode: 'numeric' });
    const digitsSelect = el(
      'select',
      { id: 'ex-digits' },
      [0, 1, 2, 3, 4].map((d) => el('option', { value: String(d) }, String(d))),
    );
    const kindBoxes = CELL_KINDS.map((kind) => el('input', { type: 'checkbox', id: `ex-kind-${kind}`, value: kind }));
    const fromRadios = EXAMPLE_SOURCES.map((from) =>
      el('input', { type: 'radio', name: 'ex-from', id: `ex-from-${from}`, value: from }),
    );
    const error = (id) => el('p', { class: 'field-error', id: `${id}-error` });
    const errors = { 'ex-len': error('ex-len'), 'ex-seed': error('ex-seed'), 'ex-kinds': error('ex-kinds') };
    const labels = {};
    const label = (id) => (labels[id] = el('label', { for: id }));
    const legend = (key) => (labels[key] = el('legend', {}));
    const summary = el('summary', {});
    const hint = el('p', { class: 'ex-teacher-hint' });

    const apply = (id, patch) => {
      fieldErrors.delete(id);
      setState({ ...patch, ex: 1 });
    };
    const fail = (id, key, params = {}) => {
      fieldErrors.set(id, { key, params });
      paintErrors();
    };
    lengthInput.addEventListener('change', () => {
      const v = Number(lengthInput.value);
      if (lengthInput.value.trim() === '' || !Number.isInteger(v) || v < 1 || v > MAX_SERIES_LENGTH)
        fail('ex-len', 'exercise.err.length', { max: MAX_SERIES_LENGTH });
      else apply('ex-len', { exlen: v });
    });
    seedInput.addEventListener('change', () => {
      const v = Number(seedInput.value);
      if (seedInput.value.trim() === '' || !Number.isInteger(v) || v < 0 || v > 2 ** 31 - 1)
        fail('ex-seed', 'err.seed');
      else apply('ex-seed', { exseed: v });
    });
    digitsSelect.addEventListener('change', () => setState({ exdigits: Number(digitsSelect.value) }));
    for (const box of kindBoxes)
      box.addEventListener('change', () => {
        const kinds = CELL_KINDS.filter((_, k) => kindBoxes[k].checked);
        if (kinds.length === 0) {
          box.checked = true;
          fail('ex-kinds', 'exercise.err.kinds');
          return;
        }
        apply('ex-kinds', { exkinds: kinds });
      });
    for (const radio of fromRadios)
      radio.addEventListener('change', () => {
        if (radio.checked) setState({ exfrom: radio.value, ex: 1 });
      });

    function paintErrors() {
      for (const [id, p] of Object.entries(errors)) {
        const e = fieldErrors.get(id);
        p.textContent = e ? t(e.key, e.params) : '';
        const control = id === 'ex-kinds' ? null : element.querySelector(`#${id}`);
        control?.setAttribute('aria-invalid', e ? 'true' : 'false');
        control?.setAttribute('aria-describedby', `${id}-error`);
      }
    }

    const element = el(
      'details',
      { class: 'ex-teacher', id: 'ex-teacher' },
      summary,
      hint,
      el(
        'div',
        { class: 'ex-teacher-grid' },
        el('div', { class: 'field' }, label('ex-len'), lengthInput, errors['ex-len']),
        el('div', { class: 'field' }, label('ex-seed'), seedInput, errors['ex-seed']),
        el('div', { class: 'field' }, label('ex-digits'), digitsSelect),
        el(
          'fieldset',
          { class: 'field', 'aria-describedby': 'ex-kinds-error' },
          legend('kinds'),
          kindBoxes.map((box) => el('span', { class: 'choice' }, box, label(box.id))),
          errors['ex-kinds'],
        ),
        el(
          'fieldset',
          { class: 'field' },
          legend('from'),
          fromRadios.map((radio) => el('span', { class: 'choice' }, radio, label(radio.id))),
        ),
      ),
    );

    return {
      element,
      update() {
        summary.textContent = t('exercise.teacher');
        hint.textContent = t('exercise.teacherHint');
        labels['ex-len'].textContent = t('exercise.length');
        labels['ex-seed'].textContent = t('exercise.seed');
        labels['ex-digits'].textContent = t('exercise.digits');
        labels.kinds.textContent = t('exercise.kinds');
        labels.from.textContent = t('exercise.from');
        for (const box of kindBoxes) {
          labels[box.id].textContent = t(`exercise.kind.${box.value}`);
          box.checked = state.exkinds.includes(box.value);
        }
        for (const radio of fromRadios) {
          labels[radio.id].textContent = t(`exercise.from.${radio.value}`);
          radio.checked = state.exfrom === radio.value;
        }
        // A field being typed into keeps its text; the others show the link's values.
        if (document.activeElement !== lengthInput && !fieldErrors.has('ex-len'))
          lengthInput.value = String(state.exlen);
        if (document.activeElement !== seedInput && !fieldErrors.has('ex-seed')) seedInput.value = String(state.exseed);
        digitsSelect.value = String(state.exdigits);
        paintErrors();
      },
    };
  }

  return {
    element,
    update(ctx) {
      ({ t, state } = ctx);
      const page = ctx.model && { q: toRows(ctx.model.q), k: toRows(ctx.model.k), v: toRows(ctx.model.v) };
      const before = question && questionKey(question);
      question = exerciseQuestion(engine, state, page);
      const key = questionKey(question);
      element.dataset.kind = question.kind;
      element.querySelector('#ex-title').textContent = t('view.exercise');
      intro.textContent = t('exercise.intro');
      source.textContent = `${t(`exercise.source.${question.example.source}`)} · ${t('exercise.options')}`;
      ask.textContent = t(`exercise.ask.${question.kind}`, { i: question.i + 1, j: question.j + 1 });
      asked.replaceChildren(askedMath(question.kind, question.i, question.j));
      rounding.textContent =
        question.digits === 0 ? t('exercise.roundingWhole') : t('exercise.rounding', { digits: question.digits });
      answerLabel.textContent = t('exercise.answer');
      check.textContent = t('exercise.check');
      showButton.textContent = t('exercise.show');
      prev.textContent = `← ${t('exercise.prev')}`;
      next.textContent = `${t('exercise.next')} →`;
      prev.setAttribute('aria-disabled', String(state.ex <= 1));
      next.setAttribute('aria-disabled', String(state.ex >= state.exlen));
      hintsTitle.textContent = t('exercise.hints');
      // A new question starts from what the learner typed for it before (or nothing).
      if (key !== before) answer.value = record().text;
      renderExample(ctx);
      renderVerdict();
      renderHints();
      teacher.update();
    },
    destroy() {},
  };
}
