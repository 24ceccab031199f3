// Wiring only: read the state from the URL, compute through the engine, hand results to the views,
// and turn the views' events into new states. The logic lives in state.js, model.js and views/.
// Two entry points start it: main.js (the development page, .wasm files next to the bundle) and
// main-inline.js (the offline file and the hosted site, the .wasm bytes inside the bundle).

import {
  parseState,
  serializeState,
  withoutEmbed,
  STEPS,
  LANGS,
  SIZE_LIMIT,
  SIZE_NAMES,
  choosePreset,
  setOption,
  setCell,
  setMatrix,
  resize,
  switchMode,
} from './state.js';
import { computeModel, largestDifference } from './model.js';
import { OPTION_KEYS, option } from './options.js';
import { engineErrorField, describeEngineError } from './engine-errors.js';
import { loadEngine } from './engine.js';
import { parseNumber, parseMatrix } from './parse-matrix.js';
import { translator } from './i18n/index.js';
import { presetTokens } from './presets.js';
import { readPreference, writePreference } from './storage.js';
import { toRows } from './matrix.js';
import { connectToHost } from './embed/frame.js';
import { embedSnippet } from './embed/snippet.js';
import { registerServiceWorker, buildId, offersOfflineFile } from './offline.js';
import { renderChrome } from './views/chrome.js';
import { renderNav, updateMap } from './views/nav.js';
import { renderStage, shownPane } from './views/stage.js';
import { renderExplain, highlight } from './views/explain.js';
import { placePopover, SHEET_BELOW } from './views/popover.js';
import { renderEngineInfo } from './views/engine-info.js';
import { showStageErrors } from './views/controls.js';
import { renderPanel, showErrors } from './views/panel.js';
import { renderEmbedDialog } from './views/embed-dialog.js';
import { moveInGrid } from './views/grid-keys.js';
import { renderViewSwitch } from './views/view-switch.js';
import { createScaleLabView } from './views/scale-lab-view.js';
import { createCostLabView } from './views/cost-lab-view.js';
import { createExerciseView } from './views/exercise-view.js';
import { renderExportBar } from './views/export-bar.js';
import { renderHandout } from './views/handout.js';

/**
 * The labs (state.js's VIEWS besides 'steps'). Each is created when its view opens and destroyed
 * when it closes: create({ engine, setState(patch), announce(text) }) → { element, update(ctx),
 * destroy() }, where update gets { state, t, theme, model } after every change — a lab keeps its
 * own transient state (a run in progress, the typed answer) across a change of language.
 */
const LAB_VIEWS = { 'scale-lab': createScaleLabView, 'cost-lab': createCostLabView, exercise: createExerciseView };

const $ = (id) => document.getElementById(id);

/** The matrices of the step on screen (the stage keeps other steps' matrices, not drawn). */
const shownMatrices = () => shownPane($('stage-body')) ?? $('stage-body');

/**
 * Starts the page. `binaries` ({ simd, scalar }: functions returning the .wasm bytes) is given by
 * the self-contained builds; without it the .wasm files are loaded from next to the bundle.
 */
export async function start({ binaries } = {}) {
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const host = connectToHost();

  let { state, notice } = parseState(location.hash);
  if (!location.hash && LANGS.includes(readPreference('lang'))) state.lang = readPreference('lang');
  let model = null; // the last good result: stays on screen while an input is invalid
  // What the reader is looking at, beyond the state in the URL (views/explain.js, mixing.js):
  let cell = null; // the cell expanded in the popover, { i, j, kind: 'score'|'output' }
  let pinned = false; // the popover stays (a click, Enter, a tap) rather than following the pointer
  let expanded = false; // the popover shows every term of its sum
  let returning = false; // focus is going back to the popover's cell as it closes
  let row = null; // the word (row) chosen everywhere, or null
  let path = 'simd'; // which code computes: the SIMD loops (default) or the reference ("参考实现")
  let difference = null; // with the reference path: its largest difference from the SIMD path
  let filled = null; // after a paste or resize: { name: [rows, cols] before } of the matrices it grew
  let pendingFilled = null; // …as found by growing(), taken over by the commit that follows
  const errors = new Map(); // field key → message (see showErrors)
  let engine;
  let t = translator(state.lang);
  let postedHash = null;
  let lab = null; // the open lab: { view, instance } (LAB_VIEWS), or null on the stepper

  /** How an error object from the parser reads in the current language. */
  function describe(error) {
    const message = t(`err.${error.key}`, error);
    return error.col ? t('err.cellIn', { row: error.row, col: error.col, message }) : message;
  }

  // Writing the URL is slow in Chromium (history.replaceState costs tens of ms with a long hash),
  // so while a reader types into cells the URL follows a moment later; everything else writes it at once.
  let urlTimer = 0;
  function writeUrl({ soon = false } = {}) {
    clearTimeout(urlTimer);
    const write = () => {
      const hash = serializeState(state);
      // The URL is a convenience: in an unusual sandboxed frame where history throws, the page works on.
      try {
        if (location.hash !== hash) history.replaceState(null, '', hash);
      } catch {
        /* keep going */
      }
      if (hash !== postedHash) {
        postedHash = hash;
        host.state(hash);
      }
    };
    if (soon) urlTimer = setTimeout(write, 250);
    else write();
  }

  /** The full page (no embed switches) for this state, e.g. for "Open in the playground". */
  const fullPageUrl = () => `${location.href.replace(/#.*$/, '')}${serializeState(withoutEmbed(state))}`;

  /**
   * Computes `next`; on success it becomes the state and everything is shown. A notice about the
   * link (it did not parse) stays until the reader changes something (`fromUrl` is false).
   */
  function commit(next, { panel = true, edit = false, fromUrl = false } = {}) {
    for (const key of errors.keys()) if (key.startsWith('engine')) errors.delete(key);
    try {
      model = compute(next);
    } catch (error) {
      // Worded from the Error's code and numbers, in the reader's language, at the field it is about.
      const field = engineErrorField(error);
      const cell = error.cell && field !== 'temperature' ? `:${error.cell.row}:${error.cell.col}` : '';
      errors.set(field ? `engine:${field}${cell}` : 'engine', describeEngineError(error, translator(next.lang), next));
      if (model) renderAll({ panel: false }); // nothing to show yet on the very first computation
      return false;
    }
    const reshaped =
      SIZE_NAMES.some((key) => next[key] !== state[key]) || next.mode !== state.mode || next.preset !== state.preset;
    if (pendingFilled || reshaped) filled = pendingFilled;
    pendingFilled = null;
    const langChanged = next.lang !== state.lang;
    const noticeGone = notice && !fromUrl;
    if (noticeGone) notice = null;
    state = next;
    t = translator(state.lang);
    if (cell && (cell.i >= state.n || cell.j >= (cell.kind === 'output' ? state.dv : state.n))) cell = null;
    if (row !== null && row >= state.n) row = null;
    writeUrl({ soon: edit });
    renderAll({ panel: panel || langChanged, frame: !edit || langChanged || noticeGone });
    return true;
  }

  /**
   * Every intermediate of `next` on the chosen path, and the article's own exp without the max
   * (§7, shown beside the page's on the exp and sum steps): computed with the rest, not on arrival
   * at those steps, so that the stage can build any step ahead while the reader reads
   * (views/stage.js). With the reference path, the SIMD path is computed too, for the difference
   * the page shows.
   */
  function compute(next) {
    // A step to another step (same inputs, same options) needs no new numbers.
    const same =
      model && next.mats === state.mats && INPUT_KEYS.every((key) => next[key] === state[key]) && model.path === path;
    if (same) return model;
    const result = computeModel(engine, next, { path, article: true });
    difference = path === 'reference' ? largestDifference(computeModel(engine, next, { path: 'simd' }), result) : null;
    return result;
  }

  // Everything besides the matrices that the numbers depend on.
  const INPUT_KEYS = ['mode', 'n', 'd', 'dk', 'dv', ...OPTION_KEYS];
  const theme = () => (dark.matches ? 'dark' : 'light');
  const tokens = () => presetTokens(state.words, state.lang);

  /** Shows everything; `frame: false` skips the parts a value edit cannot change (header, steps). */
  function renderAll({ panel = true, frame = true } = {}) {
    const stepper = state.view === 'steps';
    // Written only on a change of view: a step must not restyle the whole page (body[data-view] is in styles/).
    if (document.body.dataset.view !== state.view) {
      document.body.dataset.view = state.view;
      $('stage-body').hidden = !stepper;
      $('lab-body').hidden = stepper;
    }
    // The stage first: a new step measures where its matrices were (for the motion) while the
    // page is still laid out as it was.
    if (stepper) {
      closeLab();
      keepingFocus(() =>
        renderStage($('stage-body'), {
          state,
          model,
          t,
          on,
          theme: theme(),
          tokens: tokens(),
          stale: errors.size > 0,
          row,
          onRow: chooseRow,
        }),
      );
    } else {
      openLab();
    }
    renderExportBar($('export-bar'), { state, model, t, theme: theme(), onPrint: printHandout });
    if (frame) {
      renderViewSwitch($('views'), { state, t, onView: chooseView });
      renderChrome(document, {
        state,
        t,
        engineInfo: engine && `${engine.version()}${engine.simd() ? ', SIMD' : ''}`,
        build: buildId(),
        offlineFile: offersOfflineFile(),
        fullPageUrl: fullPageUrl(),
      });
      $('notice').textContent = notice ? t(`notice.${notice}`) : '';
      if (!state.embed || state.nav) renderNav($('nav'), { state, t, go });
    }
    if (!state.embed || state.nav) updateMap($('nav'), { model, theme: theme() });
    if (engine)
      renderEngineInfo($('engine-info'), { state, t, build: engine.build, path, difference, onPath: choosePath });
    if (cell && !anchorOf(cell))
      closeExplain(); // not on this step
    else if (cell) showExplain({ place: false });
    highlight(shownMatrices(), { cell, row });
    if (panel && (!state.embed || state.panel)) keepingFocus(() => renderPanel($('panel'), { state, t, on, filled }));
    showErrors($('panel'), errors);
    showStageErrors($('stage-body'), errors);
  }

  /**
   * Re-renders without losing the reader's place: focus and open <details> come back, and in a
   * text field being typed into, the text as typed and the caret (typing "10." must not become
   * "10" with the caret at the start: the next "5" would give "510").
   */
  function keepingFocus(render) {
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

  // ---- The one number, next to its cell (views/explain.js, views/popover.js) ----------------

  /** The element a cell is drawn in on this step: { td } or { canvas, i, j }, or null. */
  function anchorOf({ i, j, kind }) {
    const stage = shownMatrices();
    const td = stage.querySelector(`td.pick[data-pick="${kind}"][data-i="${i}"][data-j="${j}"]`);
    if (td) return { td };
    const canvas = stage.querySelector(`canvas.heatmap.pick[data-pick="${kind}"]`);
    return canvas ? { canvas, i, j } : null;
  }

  // The cell the popover describes, for screen readers: one at a time, remembered rather than
  // searched for (the stage holds every step's cells once seen, views/panes.js).
  let described = null;
  function describeCell(td) {
    if (described === td) return;
    described?.removeAttribute('aria-describedby');
    td?.setAttribute('aria-describedby', 'cell-explain');
    described = td;
  }

  /** Fills the popover for `cell`; `place` moves it next to the cell (not when only numbers changed). */
  function showExplain({ place = true } = {}) {
    const popover = $('cell-explain');
    renderExplain(popover, {
      state,
      model,
      t,
      cell,
      tokens: tokens(),
      expanded,
      onExpand: () => {
        expanded = true;
        pinned = true;
        showExplain();
        popover.querySelector('.popover-close')?.focus();
      },
      onClose: () => closeExplain({ refocus: true }),
    });
    popover.classList.toggle('pinned', pinned);
    const anchor = anchorOf(cell);
    describeCell(anchor.td ?? null);
    if (place || popover.hidden) placePopover(popover, anchor);
  }

  /** Expands `next` ({ i, j, kind }); `pin` keeps it open until closed. */
  function explain(next, { pin = false } = {}) {
    const same = cell && next && cell.i === next.i && cell.j === next.j && cell.kind === next.kind;
    if (same && pinned === (pin || pinned)) return;
    if (!same) expanded = false;
    cell = next;
    pinned = pin || (same && pinned);
    showExplain();
    highlight(shownMatrices(), { cell, row });
  }

  function closeExplain({ refocus = false } = {}) {
    const was = cell && anchorOf(cell);
    cell = null;
    pinned = false;
    expanded = false;
    $('cell-explain').hidden = true;
    describeCell(null);
    highlight(shownMatrices(), { cell, row });
    if (!refocus || !was?.td) return;
    returning = true; // back on its cell, the popover stays closed until the reader moves on
    was.td.focus();
    returning = false;
  }

  // ---- The labs (LAB_VIEWS) ------------------------------------------------------------------

  /** Creates the lab of state.view if it is not open yet, and shows it the current state. */
  function openLab() {
    if (lab?.view !== state.view) {
      closeLab();
      const instance = LAB_VIEWS[state.view]({
        engine,
        setState: (patch) => commit({ ...state, ...patch }, { panel: false }),
        // Emptied first, then written at the next frame: the same words twice in a row (checking
        // the same wrong answer again) are still said twice.
        announce: (text) => {
          $('step-announce').textContent = '';
          requestAnimationFrame(() => {
            $('step-announce').textContent = text;
          });
        },
      });
      lab = { view: state.view, instance };
      $('lab-body').replaceChildren(instance.element);
    }
    keepingFocus(() => lab.instance.update({ state, t, theme: theme(), model }));
  }

  function closeLab() {
    if (!lab) return;
    lab.instance.destroy();
    lab = null;
    $('lab-body').replaceChildren();
  }

  function chooseView(view) {
    if (view === state.view) return;
    closeExplain();
    if (commit({ ...state, view }, { panel: false })) $('step-announce').textContent = t(`view.${view}`);
  }

  /** Lays the handout out (views/handout.js) and opens the browser's print dialog. */
  function printHandout() {
    renderHandout($('handout'), { state, model, t, engine, theme: theme() });
    window.print();
  }

  /** Chooses the word whose row is marked everywhere (and mixed on the AV step). */
  function chooseRow(i) {
    row = i;
    renderAll({ panel: false, frame: false });
  }

  function choosePath(next) {
    path = next;
    commit(state, { panel: false });
  }

  function go(step) {
    if (step < 1 || step > STEPS.length || step === state.step) return;
    closeExplain();
    if (commit({ ...state, step }, { panel: false })) {
      // Said once to screen readers (the map and the title change silently).
      $('step-announce').textContent =
        `${t('nav.position', { step, total: STEPS.length })} ${t(`step.${STEPS[step - 1]}.title`)}`;
    }
  }

  /**
   * Size fields, the seed and the temperature: validate the text, then commit or show why not.
   * Empty text gets the field's own rule, not "this cell is empty": a type=number field hands over
   * '' for letters it cannot read.
   */
  function numberField(key, text, check, apply) {
    const parsed = parseNumber(text);
    const problem = parsed.ok
      ? check(parsed.value)
      : parsed.error.key === 'empty'
        ? check(NaN)
        : describe(parsed.error);
    if (problem) {
      errors.set(key, problem);
      renderAll({ panel: false });
      return;
    }
    errors.delete(key);
    const next = apply(parsed.value);
    if (next.error) {
      errors.set(key, describe(next.error));
      renderAll({ panel: false });
      return;
    }
    commit(next);
  }

  const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

  /**
   * A paste or a size change may grow matrices other than the one changed, and state.js fills
   * their new cells with seeded random numbers: remember their old shapes, so the panel can say
   * so and mark those cells (until the shapes change again). Returns `next` unchanged.
   */
  function growing(next, pasted = null) {
    if (next.error || next.preset === 'random') return next;
    const grown = {};
    for (const [name, rows] of Object.entries(next.mats)) {
      const old = state.mode === next.mode ? state.mats[name] : null;
      if (!old || name === pasted) continue;
      if (rows.length > old.length || rows[0].length > old[0].length) grown[name] = [old.length, old[0].length];
    }
    pendingFilled = Object.keys(grown).length ? grown : null;
    return next;
  }

  // Everything the panel can ask for.
  const on = {
    preset: (preset) => {
      errors.clear();
      commit(choosePreset(state, preset));
    },
    mode: (mode) => {
      errors.clear();
      commit(switchMode(state, mode, { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) }));
    },
    option: (key, value) => commit(setOption(state, key, value)),
    size: (key, text) =>
      numberField(
        `size:${key}`,
        text,
        (v) => (isInt(v, 1, SIZE_LIMIT) ? null : t('err.size', { max: SIZE_LIMIT })),
        (v) => growing(resize(state, { [key]: v })),
      ),
    seed: (text) =>
      numberField(
        'size:seed',
        text,
        (v) => (isInt(v, 0, 2 ** 31 - 1) ? null : t('err.seed')),
        (v) => choosePreset(setOption(state, 'seed', v), 'random'),
      ),
    // An option typed as a number (options.js), checked by the option's own rule.
    optionText: (key, text) =>
      numberField(
        key,
        text,
        (v) => {
          const problem = option(key).validate(v);
          return problem ? t(problem) : null;
        },
        (v) => setOption(state, key, v),
      ),
    cell(name, i, j, text) {
      const key = `cell:${name}:${i}:${j}`;
      const parsed = parseNumber(text);
      if (!parsed.ok) {
        errors.set(key, describe(parsed.error));
        renderAll({ panel: false, frame: false });
        return;
      }
      errors.delete(key);
      commit(setCell(state, name, i, j, parsed.value), { panel: state.preset !== 'custom', edit: true });
    },
    paste(name, text) {
      const key = `paste:${name}`;
      const parsed = parseMatrix(text);
      const next = parsed.ok ? growing(setMatrix(state, name, parsed.rows), name) : { error: parsed.error };
      if (next.error) {
        errors.set(key, describe(next.error));
        renderAll({ panel: false });
        return;
      }
      for (const k of [...errors.keys()]) if (k.startsWith(`cell:${name}:`) || k === key) errors.delete(k);
      commit(next);
    },
  };

  // The stage: hovering or focusing a score, weight or output cell expands it in a popover next
  // to it (on a heatmap too); a click, Enter or a tap keeps it open, Escape closes it. A click on a
  // row's word chooses that word everywhere.
  const stage = $('stage-body');
  const cellOf = (td) => ({ i: Number(td.dataset.i), j: Number(td.dataset.j), kind: td.dataset.pick });
  function cellAt(event) {
    const td = event.target.closest?.('td.pick');
    if (td) return cellOf(td);
    const canvas = event.target.closest?.('canvas.heatmap.pick');
    if (!canvas || event.offsetX === undefined) return null;
    const box = canvas.getBoundingClientRect();
    const i = Math.floor((event.offsetY / box.height) * Number(canvas.dataset.rows));
    const j = Math.floor((event.offsetX / box.width) * Number(canvas.dataset.cols));
    return i >= 0 && j >= 0 && i < Number(canvas.dataset.rows) && j < Number(canvas.dataset.cols)
      ? { i, j, kind: canvas.dataset.pick }
      : null;
  }
  const follow = (event) => {
    if (!pinned) {
      const next = cellAt(event);
      if (next) explain(next);
    }
  };
  stage.addEventListener('mouseover', follow);
  stage.addEventListener('mousemove', (event) => {
    if (event.target.closest?.('canvas.heatmap.pick')) follow(event);
  });
  stage.addEventListener('mouseout', (event) => {
    if (pinned || !cell || event.relatedTarget?.closest?.('td.pick, canvas.heatmap.pick')) return;
    if (document.activeElement?.matches?.('td.pick')) return; // a cell focused from the keyboard keeps its popover
    closeExplain();
  });
  stage.addEventListener('focusin', (event) => {
    const td = event.target.closest?.('td.pick');
    if (td && !returning) explain(cellOf(td), { pin: pinned });
  });
  stage.addEventListener('focusout', (event) => {
    if (
      pinned ||
      !cell ||
      !event.target.closest?.('td.pick') ||
      event.relatedTarget?.closest?.('td.pick, #cell-explain')
    )
      return;
    closeExplain();
  });
  stage.addEventListener('click', (event) => {
    const word = event.target.closest?.('.row-pick');
    if (word) {
      chooseRow(Number(word.dataset.row));
      return;
    }
    const next = cellAt(event);
    if (next) explain(next, { pin: true });
  });
  stage.addEventListener('keydown', (event) => {
    moveInGrid(event);
    const td = event.target.closest?.('td.pick');
    if (!td || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    explain(cellOf(td), { pin: true });
    $('cell-explain').querySelector('button')?.focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !cell) return;
    const inside = $('cell-explain').contains(document.activeElement) || document.activeElement?.matches?.('td.pick');
    closeExplain({ refocus: inside });
  });
  document.addEventListener('click', (event) => {
    if (pinned && event.target.isConnected && !event.target.closest?.('#cell-explain, td.pick, canvas.heatmap.pick'))
      closeExplain();
  });
  window.addEventListener('resize', () => {
    if (cell) showExplain();
  });

  // ←/→ change the step, except while typing or moving inside a matrix, in an embed fixed to its
  // step (no nav=1), and in the labs.
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (state.view !== 'steps' || (state.embed && !state.nav)) return;
    if (event.target.closest?.('input, textarea, select, [contenteditable], td.pick, dialog')) return;
    if (event.key === 'ArrowRight') go(state.step + 1);
    else if (event.key === 'ArrowLeft') go(state.step - 1);
  });

  $('lang-switch').addEventListener('click', () => {
    const lang = state.lang === 'zh-CN' ? 'en' : 'zh-CN';
    writePreference('lang', lang);
    errors.clear();
    commit({ ...state, lang });
  });
  async function copy(text, status) {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t('link.copied');
    } catch {
      status.textContent = t('link.copyFailed');
    }
  }
  $('copy-link').addEventListener('click', () => {
    writeUrl();
    copy(location.href, $('copy-status'));
  });
  $('embed-button').addEventListener('click', () => {
    const embedState = { ...state, embed: true };
    const snippet = embedSnippet({
      pageUrl: location.href,
      hash: serializeState(embedState),
      // The frame's title names what it shows: the step, or the lab.
      title: `${t('app.title')} · ${
        state.view === 'steps'
          ? `${t('nav.position', { step: state.step, total: STEPS.length })} ${t(`step.${STEPS[state.step - 1]}.title`)}`
          : t(`view.${state.view}`)
      }`,
    });
    renderEmbedDialog($('embed-dialog'), {
      t,
      snippet,
      onCopy: (textarea) => {
        textarea.select();
        copy(textarea.value, $('embed-copy-status')).then(
          () => {
            $('embed-copy-status').textContent = t('embed.copied');
          },
          () => {},
        );
      },
    });
    $('embed-dialog').showModal();
  });
  // In a frame whose host runs embed.js, the host opens the full playground: a frame sandboxed
  // without allow-popups cannot open a tab itself. Without a host the link works as a link.
  $('embed-open-link').addEventListener('click', (event) => {
    if (!host.hostListens()) return;
    event.preventDefault();
    host.open(fullPageUrl());
  });
  window.addEventListener('hashchange', () => {
    if (location.hash === serializeState(state)) return;
    const parsed = parseState(location.hash);
    notice = parsed.notice;
    errors.clear();
    commit(parsed.state, { fromUrl: true });
  });
  dark.addEventListener('change', () => renderAll({ panel: false }));
  // Printing from the browser's menu (or Ctrl+P) prints the same handout as the button.
  window.addEventListener('beforeprint', () => {
    if (model) renderHandout($('handout'), { state, model, t, engine, theme: theme() });
  });
  window.addEventListener('pagehide', () => writeUrl());

  renderChrome(document, { state, t, build: buildId(), offlineFile: offersOfflineFile(), fullPageUrl: fullPageUrl() });
  $('loading').textContent = t('app.loading');
  registerServiceWorker({
    onUpdated: () => {
      notice = 'updated';
      renderAll({ panel: false });
    },
  });
  try {
    engine = await loadEngine({ binaries });
  } catch (error) {
    $('stage-body').textContent = t('app.engineFailed', { message: error.message });
    throw error;
  }
  if (!commit(state, { fromUrl: true })) {
    notice = 'badHash';
    commit(parseState('').state, { fromUrl: true });
  }
  document.body.dataset.ready = 'true';
  host.ready();
}
