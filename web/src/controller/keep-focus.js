// Re-rendering without losing the reader's place. Stateless: it reads the document before and
// after `render`.

/**
 * Runs render() and gives back the reader's place: focus and open <details> come back, and in a
 * text field being typed into, the text as typed and the caret (typing "10." must not become
 * "10" with the caret at the start: the next "5" would give "510").
 */
export function keepingFocus(document, render) {
  const $ = (id) => document.getElementById(id);
  const active = document.activeElement;
  const focused = active?.id;
  const typing = active?.matches?.('input[type="text"], textarea')
    ? { value: active.value, start: active.selectionStart, end: active.selectionEnd }
    : null;
  const open = [...document.querySelectorAll('details[open]')].map((d) => d.id);
  render();
  for (const id of open) {
    const d = $(id);
    if (d) d.open = true;
  }
  if (!focused || document.activeElement === active) return;
  const again = $(focused);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (typing && again.matches('input[type="text"], textarea') && again.value !== typing.value) {
    again.value = typing.value;
    again.setSelectionRange(typing.start, typing.end);
  } else if (typing && again.setSelectionRange) again.setSelectionRange(typing.start, typing.end);
}
