// The exercise's teacher's panel (exercise-view.js): every control writes a hash field, so "Copy
// link" gives this series — the length, the seed and the digits of the answers, the kinds of
// question asked, and which example they are on. A field in error keeps its text and says why.

import { h } from '../../views/dom.js';
import { parseNumber } from '../../parse-matrix.js';
import { EXERCISE_FIELDS, CELL_KINDS, EXAMPLE_SOURCES, MAX_SERIES_LENGTH } from './exercise-fields.js';

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

/** A number field's message for `text`, or its value: read like every number on the page, then held to its range. */
function readNumber(field, text) {
  const parsed = parseNumber(text);
  const value = parsed.ok ? fieldType(field.key).parse(String(parsed.value)) : undefined;
  if (value !== undefined) return { value };
  return {
    problem:
      parsed.ok || parsed.error.key === 'empty'
        ? { key: field.error, params: { max: MAX_SERIES_LENGTH } }
        : { key: `err.${parsed.error.key}`, params: parsed.error },
  };
}

/** A labelled check box or radio button: { input, label, el }. */
function check(attrs) {
  const input = h('input', attrs);
  const label = h('label', { for: attrs.id });
  return { input, label, el: h('div', { class: 'check' }, input, label) };
}

/**
 * The panel: { el, draw(state, t) }. setState(patch) writes the hash; a field in error asks for
 * redraw() instead; on(target, type, handler) registers the panel's listeners (listeners.js).
 */
/** The number fields, each writing its hash field; a text out of range is kept with its message in `errors`. */
function numberFields({ setState, redraw, on, state, errors }) {
  return NUMBER_FIELDS.map((field) => {
    const label = h('label', { for: field.id });
    const attrs = { type: 'text', id: field.id, inputmode: 'numeric', autocomplete: 'off' };
    const input = h('input', { ...attrs, 'aria-describedby': `${field.id}-error` });
    const error = h('p', { class: 'field-error', id: `${field.id}-error` });
    on(input, 'change', () => {
      const { value, problem } = readNumber(field, input.value);
      if (problem) {
        errors.set(field.id, problem);
        return redraw();
      }
      errors.delete(field.id);
      setState(field.patch(value, state()));
    });
    return { field, label, input, error, el: h('div', { class: 'field' }, label, input, error) };
  });
}

/** The kinds' check boxes: those still ticked keep their order, a newly ticked one comes last; none is an error. */
function kindChecks({ setState, redraw, on, state, errors }) {
  const kinds = CELL_KINDS.map((kind) => ({ kind, ...check({ type: 'checkbox', id: `ex-kind-${kind}` }) }));
  const setKinds = () => {
    const ticked = kinds.filter((k) => k.input.checked).map((k) => k.kind);
    if (ticked.length === 0) {
      errors.set('ex-kinds', { key: 'ex.err.kinds', params: {} });
      return redraw();
    }
    errors.delete('ex-kinds');
    const kept = state().exkinds.filter((kind) => ticked.includes(kind));
    setState({ exkinds: [...kept, ...ticked.filter((kind) => !kept.includes(kind))], ex: 1 });
  };
  for (const { input } of kinds) on(input, 'change', setKinds);
  return kinds;
}

/**
 * The panel: { el, draw(state, t) }. setState(patch) writes the hash; a field in error asks for
 * redraw() instead; state() is the current state; on(target, type, handler) registers the
 * panel's listeners (listeners.js).
 */
export function createTeacher({ setState, redraw, on, state }) {
  const context = { setState, redraw, on, state, errors: new Map() }; // errors: a field's id → { key, params }
  const { errors } = context;
  const numbers = numberFields(context);
  const kinds = kindChecks(context);
  const sources = EXAMPLE_SOURCES.map((from) => {
    const radio = check({ type: 'radio', name: 'ex-from', id: `ex-from-${from}`, value: from });
    on(radio.input, 'change', () => setState({ exfrom: from, ex: 1 }));
    return { from, ...radio };
  });
  const parts = {
    summary: h('summary', {}),
    note: h('p', { class: 'hint' }),
    kindsLegend: h('legend', {}),
    kindsError: h('p', { class: 'field-error', id: 'ex-kinds-error' }),
    fromLegend: h('legend', {}),
  };
  const el = h(
    'details',
    { class: 'ex-teacher', id: 'ex-teacher' },
    parts.summary,
    h(
      'div',
      { class: 'ex-teacher-body' },
      parts.note,
      h(
        'div',
        { class: 'ex-teacher-fields' },
        numbers.map((n) => n.el),
      ),
      h(
        'fieldset',
        { class: 'ex-kinds', 'aria-describedby': 'ex-kinds-error' },
        parts.kindsLegend,
        kinds.map((k) => k.el),
        parts.kindsError,
      ),
      h(
        'fieldset',
        { class: 'ex-from' },
        parts.fromLegend,
        sources.map((r) => r.el),
      ),
    ),
  );

  function draw(state, t) {
    // An embedded exercise is the series its link fixed; the full page lets a teacher make one.
    el.hidden = Boolean(state.embed);
    parts.summary.textContent = t('ex.teacher');
    parts.note.textContent = t('ex.teacher.note');
    for (const { field, label, input, error } of numbers) {
      label.textContent = t(field.label, { max: MAX_SERIES_LENGTH });
      const problem = errors.get(field.id);
      error.textContent = problem ? t(problem.key, problem.params) : '';
      if (problem) input.setAttribute('aria-invalid', 'true');
      else {
        input.removeAttribute('aria-invalid');
        input.value = String(state[field.key]);
      } // the text in error stays as typed
    }
    parts.kindsLegend.textContent = t('ex.field.kinds');
    const kindsProblem = errors.get('ex-kinds');
    parts.kindsError.textContent = kindsProblem ? t(kindsProblem.key) : '';
    for (const { kind, input, label } of kinds) {
      label.textContent = t(`ex.kind.${kind}`);
      if (!kindsProblem) input.checked = state.exkinds.includes(kind);
    }
    parts.fromLegend.textContent = t('ex.field.from');
    for (const { from, input, label } of sources) {
      label.textContent = t(`ex.from.${from}`);
      input.checked = state.exfrom === from;
    }
  }
  return { el, draw };
}
