// The exercise's answer (exercise-view.js): the field for the reader's number, Check (or Enter),
// how to round, a parse error next to the field, and the verdict. Built once with stable ids: the
// app restores focus and a field's typed text by id, and a language switch must leave the answer
// being typed where it was.

import { h } from '../../views/dom.js';

/**
 * The answer: { el, input, draw({ t, question, rec, opened, words }) }. typed(text) is called as
 * the reader types, check() on Check or Enter; on(target, type, handler) registers the listeners.
 * words: { error(parseError), verdict(result) } word the record's verdict.
 */
export function createAnswer({ on, typed, check }) {
  const label = h('label', { for: 'ex-answer' });
  const input = h('input', {
    type: 'text',
    id: 'ex-answer',
    class: 'ex-answer-input',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'ex-round ex-answer-error',
  });
  const button = h('button', { type: 'button', id: 'ex-check', class: 'primary' });
  const rounding = h('p', { class: 'hint', id: 'ex-round' });
  const error = h('p', { class: 'field-error', id: 'ex-answer-error' });
  const verdict = h('p', { class: 'ex-verdict', id: 'ex-verdict' });
  const el = h(
    'div',
    { class: 'ex-answer' },
    label,
    h('div', { class: 'ex-answer-row' }, input, button),
    rounding,
    error,
    verdict,
  );

  on(input, 'input', () => {
    typed(input.value);
    if (error.textContent) {
      error.textContent = '';
      input.removeAttribute('aria-invalid');
    }
  });
  on(input, 'keydown', (event) => {
    // Not while an input method is composing (Enter then confirms the characters). A <form> would
    // do this for free, but a sandboxed embed without allow-forms never fires its submit.
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      check();
    }
  });
  on(button, 'click', check);

  function draw({ t, question, rec, opened, words }) {
    label.textContent = t('ex.answerLabel');
    if (opened) input.value = rec.text; // another question: its own answer; otherwise as typed
    button.textContent = t('ex.check');
    rounding.textContent =
      question.digits <= 1 ? t(`ex.round.${question.digits}`) : t('ex.round.n', { digits: question.digits });
    const unreadable = rec.verdict?.verdict === 'unreadable';
    error.textContent = unreadable ? words.error(rec.verdict.error) : '';
    if (unreadable) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    verdict.textContent = rec.verdict && !unreadable ? words.verdict(rec.verdict) : '';
    verdict.className = `ex-verdict${rec.verdict && !unreadable ? ` ${rec.verdict.verdict}` : ''}`;
  }
  return { el, input, draw };
}
