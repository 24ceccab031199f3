// The side panel: inputs (example, mode, sizes, editable matrices, paste) and the article's
// teaching points as controls (defined once in controls.js; the stage shows each beside its step).
// Render only: every change is handed to `on.*` callbacks of controller/editing.js.

import { h } from './dom.js';
import { formatInput, PRECISIONS } from '../format.js';
import { PRESETS, inputShapes, isIllustrative } from '../presets.js';
import { SIZE_NAMES, TABLE_LIMIT } from '../state.js';
import { CONTROLS, NUMBER_OPTIONS, radios } from './controls.js';
import { OPTIONS } from '../options.js';
import { shapeMath, symbol } from './names.js';
import { headsControls } from './heads-controls.js';
import { wordsText } from '../words.js';
import { scrollCue } from './scroll-cue.js';

const errorSlot = (key) => h('p', { class: 'field-error', id: `err-${key}`, role: 'alert' });

function presetControl({ state, t, on }) {
  const options = [...PRESETS, ...(state.preset === 'custom' ? ['custom'] : [])];
  return h(
    'div',
    { class: 'field' },
    h('label', { for: 'preset' }, t('preset.label')),
    h(
      'select',
      { id: 'preset', class: 'wide', onchange: (e) => on.preset(e.target.value) },
      options.map((p) => h('option', { value: p, selected: p === state.preset }, t(`preset.${p}`))),
    ),
    isIllustrative(state.preset) ? h('p', { class: 'note' }, t('preset.illustrative')) : null,
    state.preset === 'random' ? h('p', { class: 'note' }, t('preset.randomScale')) : null,
  );
}

function sizeControls({ state, t, on }) {
  const field = (key, label, value, disabled, handler) =>
    h(
      'div',
      { class: 'field size' },
      h('label', { for: `size-${key}` }, label),
      h('input', {
        id: `size-${key}`,
        type: 'number',
        min: key === 'seed' ? 0 : 1,
        max: key === 'seed' ? null : 64,
        step: 1,
        value: String(value),
        disabled,
        'aria-describedby': `err-size-${key}`,
        onchange: (e) => handler(e.target.value, e.target),
      }),
      errorSlot(`size-${key}`),
    );
  return h(
    'div',
    { class: 'sizes' },
    SIZE_NAMES.map((key) =>
      field(key, t(`size.${key}`), state[key], key === 'd' && state.mode === 'qkv', (text, el) =>
        on.size(key, text, el),
      ),
    ),
    state.preset === 'random'
      ? field('seed', t('size.seed'), state.seed, false, (text, el) => on.seed(text, el))
      : null,
  );
}

/**
 * The sentence's words, one per row of X (or Q): `typedWords` is the reader's text while its count
 * does not match n (it stays in the field, with the message under it).
 */
function wordsControl({ state, t, on, typedWords }) {
  return h(
    'div',
    { class: 'field words' },
    h('label', { for: 'words' }, t('words.label')),
    h('input', {
      id: 'words',
      type: 'text',
      class: 'wide',
      autocomplete: 'off',
      spellcheck: 'false',
      value: typedWords ?? wordsText(state),
      'aria-describedby': 'hint-words err-words',
      onchange: (e) => on.words(e.target.value),
    }),
    h(
      'p',
      { class: 'hint', id: 'hint-words' },
      t('words.hint', { n: state.n, matrix: state.mode === 'x' ? 'X' : 'Q' }),
    ),
    errorSlot('words'),
  );
}

/**
 * One input matrix. `filled` is the shape [rows, cols] it had before a paste or a size change
 * grew it: the cells outside it were filled with seeded random numbers, and are marked so.
 */
function matrixEditor(name, rows, { state, t, on, filled, typed, resettable }) {
  const cols = rows[0].length;
  const textName = symbol(name, state).text;
  const large = cols > TABLE_LIMIT; // long columns stay editable (a list to scroll), wide rows do not fit
  const isNew = (i, j) => Boolean(filled) && (i >= filled[0] || j >= filled[1]);
  // Each column as wide as the longest value, so that no value is cut (a trained weight has up to
  // 12 characters); a grid wider than the panel scrolls inside it (scroll-cue.js).
  const longest = Math.max(...rows.flat().map((value) => formatInput(value).length));
  const grid = large
    ? h('p', { class: 'note' }, t('editor.large'))
    : h(
        'div',
        {
          class: 'grid',
          style: { gridTemplateColumns: `repeat(${cols}, minmax(max(3.2em, ${longest + 2}ch), 1fr))` },
        },
        rows.map((row, i) =>
          row.map((value, j) =>
            h('input', {
              type: 'text',
              inputmode: 'decimal',
              autocomplete: 'off',
              spellcheck: 'false',
              id: `in-${name}-${i}-${j}`,
              class: `cell-input${isNew(i, j) ? ' filled' : ''}`,
              // a value the core refused stays as typed (its field says which value is computed)
              value: typed?.(name, i, j) ?? formatInput(value),
              'aria-label': t('mat.cell', { name: textName, i: i + 1, j: j + 1 }),
              'aria-describedby': `err-${name}`,
              oninput: (e) => on.cell(name, i, j, e.target.value),
            }),
          ),
        ),
      );
  if (!large) scrollCue(grid);
  const paste = h('textarea', {
    id: `paste-${name}`,
    rows: 3,
    spellcheck: 'false',
    'aria-describedby': `err-paste-${name} hint-paste-${name}`,
  });
  return h(
    'fieldset',
    { class: 'editor', id: `editor-${name}` },
    h('legend', {}, shapeMath(name, state, rows.length, cols)),
    grid,
    errorSlot(name),
    h(
      'details',
      { id: `details-paste-${name}` },
      h('summary', {}, t('editor.paste')),
      h('label', { for: `paste-${name}`, class: 'sr-only' }, `${t('editor.paste')} ${textName}`),
      paste,
      h('p', { class: 'hint', id: `hint-paste-${name}` }, t('editor.pasteHint')),
      h(
        'button',
        { type: 'button', id: `apply-${name}`, onclick: () => on.paste(name, paste.value) },
        t('editor.apply'),
      ),
      errorSlot(`paste-${name}`),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'reset-matrix',
        id: `reset-${name}`,
        'aria-disabled': String(!resettable?.(name)),
        onclick: () => on.reset(name),
      },
      t('editor.reset', { name: textName }),
    ),
  );
}

/** Which matrices a paste or resize grew, said in words next to the editors. */
function filledNote({ state, t, filled }) {
  const names = Object.keys(filled ?? {});
  if (!names.length) return null;
  return h(
    'p',
    { class: 'notice info filled-note', id: 'filled-note', role: 'status' },
    t('editor.filled', { names: names.map((name) => symbol(name, state).text).join(t('list.and')) }),
  );
}

function optionControls(ctx) {
  const { state, t, on } = ctx;
  return [
    OPTIONS.map((o) => CONTROLS[o.key](ctx, '')),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'digits' }, t('opt.digits')),
      h(
        'select',
        { id: 'digits', onchange: (e) => on.option('digits', Number(e.target.value)) },
        PRECISIONS.map((d) =>
          h('option', { value: String(d), selected: d === state.digits }, t('opt.digits.value', { digits: d })),
        ),
      ),
    ),
  ];
}

/**
 * ctx: { state, t, on, filled? ({ name: [rows, cols] } of the matrices a paste or resize grew),
 * typed? ((name, i, j) → the text of a cell whose value the core refused, kept as typed),
 * typedWords? (the words the reader typed, kept while they do not fit n) }.
 */
export function renderPanel(root, ctx) {
  const { state, t, on } = ctx;
  root.replaceChildren(
    h(
      'section',
      { class: 'panel-section', 'aria-labelledby': 'inputs-title' },
      h('h2', { id: 'inputs-title' }, t('panel.inputs')),
      errorSlot('engine'),
      presetControl(ctx),
      radios(
        'mode',
        t('mode.label'),
        [
          ['x', t('mode.x')],
          ['qkv', t('mode.qkv')],
        ],
        state.mode,
        (v) => on.mode(v),
      ),
      sizeControls(ctx),
      wordsControl(ctx),
      headsControls(ctx),
      filledNote(ctx),
      Object.keys(inputShapes(state)).map((name) =>
        matrixEditor(name, state.mats[name], { ...ctx, filled: ctx.filled?.[name] }),
      ),
    ),
    h(
      'section',
      { class: 'panel-section', 'aria-labelledby': 'options-title' },
      h('h2', { id: 'options-title' }, t('panel.options')),
      optionControls(ctx),
    ),
  );
}

/**
 * Shows each error next to its field. errors: Map from a field key to its message, where the key
 * is 'cell:<name>:<i>:<j>', 'paste:<name>', 'size:<key>', 'words', 'temperature' or
 * 'engine[:<name>[:<i>:<j>]]'.
 */
export function showErrors(root, errors) {
  for (const el of root.querySelectorAll('[aria-invalid="true"]')) el.removeAttribute('aria-invalid');
  for (const el of root.querySelectorAll('.field-error')) el.textContent = '';
  for (const [key, message] of errors) {
    const [kind, name, i, j] = key.split(':');
    const spots = {
      cell: [`in-${name}-${i}-${j}`, `err-${name}`],
      paste: [`paste-${name}`, `err-paste-${name}`],
      size: [`size-${name}`, `err-size-${name}`],
      words: ['words', 'err-words'],
      ...Object.fromEntries(NUMBER_OPTIONS.map(({ key }) => [key, [key, `err-${key}`]])),
      // a refusal of the core: at its matrix (and its cell, when the reader typed that value)
      engine: [
        name ? (i !== undefined ? `in-${name}-${i}-${j}` : `editor-${name}`) : null,
        name ? `err-${name}` : 'err-engine',
      ],
    }[kind] ?? [null, 'err-engine'];
    const [inputId, slotId] = spots;
    if (inputId) root.querySelector(`#${inputId}`)?.setAttribute('aria-invalid', 'true');
    // A message whose field has no slot on screen (say, about W in a projection) goes to the top.
    const slot = root.querySelector(`#${slotId}`) ?? root.querySelector('#err-engine');
    if (slot && !slot.textContent) slot.textContent = message;
  }
}
