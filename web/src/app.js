// Wiring only: read the state from the URL, compute through the engine, hand results to the views,
// and turn the views' events into new states. The logic lives in state.js, model.js and views/.
// Two entry points start it: main.js (the development page, .wasm files next to the bundle) and
// main-inline.js (the offline file and the hosted site, the .wasm bytes inside the bundle).

import { parseState, serializeState, withoutEmbed, STEPS, LANGS, SIZE_LIMIT, choosePreset, setOption, setCell, setMatrix, resize, switchMode } from './state.js';
import { computeModel } from './model.js';
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
import { renderNav } from './views/nav.js';
import { renderStage } from './views/stage.js';
import { renderExplain, highlightCell } from './views/explain.js';
import { renderPanel, showErrors } from './views/panel.js';
import { renderEmbedDialog } from './views/embed-dialog.js';
import { moveInGrid } from './views/grid-keys.js';

const $ = (id) => document.getElementById(id);

/**
 * Starts the page. `binaries` ({ simd, scalar }: functions returning the .wasm bytes) is given by
 * the self-contained builds; without it the .wasm files are loaded from next to the bundle.
 */
export async function start({ binaries } = {}) {
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const host = connectToHost();

  let { state, notice } = parseState(location.hash);
  if (!location.hash && LANGS.includes(readPreference('lang'))) state.lang = readPreference('lang');
  let model = null;          // the last good result: stays on screen while an input is invalid
  let cell = null;           // the score/weight cell being explained, { i, j }
  const errors = new Map();  // field key → message (see showErrors)
  let engine;
  let t = translator(state.lang);
  let postedHash = null;

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
      try { if (location.hash !== hash) history.replaceState(null, '', hash); } catch { /* keep going */ }
      if (hash !== postedHash) { postedHash = hash; host.state(hash); }
    };
    if (soon) urlTimer = setTimeout(write, 250); else write();
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
      model = computeModel(engine, next);
    } catch (error) {
      // Worded from the Error's code and numbers, in the reader's language, at the field it is about.
      const field = engineErrorField(error);
      const cell = error.cell && field !== 'temperature' ? `:${error.cell.row}:${error.cell.col}` : '';
      errors.set(field ? `engine:${field}${cell}` : 'engine', describeEngineError(error, translator(next.lang), next));
      if (model) renderAll({ panel: false }); // nothing to show yet on the very first computation
      return false;
    }
    const langChanged = next.lang !== state.lang;
    const noticeGone = notice && !fromUrl;
    if (noticeGone) notice = null;
    state = next;
    t = translator(state.lang);
    if (cell && (cell.i >= state.n || cell.j >= (cell.kind === 'output' ? state.dv : state.n))) cell = null;
    writeUrl({ soon: edit });
    renderAll({ panel: panel || langChanged, frame: !edit || langChanged || noticeGone });
    return true;
  }

  /** Shows everything; `frame: false` skips the parts a value edit cannot change (header, steps). */
  function renderAll({ panel = true, frame = true } = {}) {
    if (frame) {
      renderChrome(document, {
        state, t, engineInfo: engine && `${engine.version()}${engine.simd() ? ', SIMD' : ''}`,
        build: buildId(), offlineFile: offersOfflineFile(), fullPageUrl: fullPageUrl(),
      });
      $('notice').textContent = notice ? t(`notice.${notice}`) : '';
      if (!state.embed || state.nav) renderNav($('nav'), { state, t, go });
    }
    renderStage($('stage-body'), { state, model, t, theme: dark.matches ? 'dark' : 'light',
      tokens: presetTokens(state.words, state.lang), stale: errors.size > 0 });
    if (cell && !$('stage-body').querySelector(`[data-pick="${cell.kind}"]`)) cell = null; // not on this step
    renderExplain($('cell-explain'), { state, model, t, cell, tokens: presetTokens(state.words, state.lang) });
    $('cell-explain').hidden = !$('stage-body').querySelector('.pick'); // steps 1–2 have no score to expand
    highlightCell($('stage-body'), cell);
    if (panel && (!state.embed || state.panel)) keepingFocus(() => renderPanel($('panel'), { state, t, on }));
    showErrors($('panel'), errors);
  }

  /** Re-renders without losing the reader's place: focus and open <details> come back. */
  function keepingFocus(render) {
    const focused = document.activeElement?.id;
    const open = [...document.querySelectorAll('details[open]')].map((d) => d.id);
    render();
    for (const id of open) { const d = $(id); if (d) d.open = true; }
    if (focused) $(focused)?.focus();
  }

  function go(step) {
    if (step < 1 || step > STEPS.length || step === state.step) return;
    commit({ ...state, step }, { panel: false });
  }

  /**
   * Size fields, the seed and the temperature: validate the text, then commit or show why not.
   * Empty text gets the field's own rule, not "this cell is empty": a type=number field hands over
   * '' for letters it cannot read.
   */
  function numberField(key, text, check, apply) {
    const parsed = parseNumber(text);
    const problem = parsed.ok ? check(parsed.value) : parsed.error.key === 'empty' ? check(NaN) : describe(parsed.error);
    if (problem) { errors.set(key, problem); renderAll({ panel: false }); return; }
    errors.delete(key);
    const next = apply(parsed.value);
    if (next.error) { errors.set(key, describe(next.error)); renderAll({ panel: false }); return; }
    commit(next);
  }

  const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

  // Everything the panel can ask for.
  const on = {
    preset: (preset) => { errors.clear(); commit(choosePreset(state, preset)); },
    mode: (mode) => { errors.clear(); commit(switchMode(state, mode, { q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) })); },
    option: (key, value) => commit(setOption(state, key, value)),
    size: (key, text) => numberField(`size:${key}`, text,
      (v) => (isInt(v, 1, SIZE_LIMIT) ? null : t('err.size', { max: SIZE_LIMIT })), (v) => resize(state, { [key]: v })),
    seed: (text) => numberField('size:seed', text,
      (v) => (isInt(v, 0, 2 ** 31 - 1) ? null : t('err.seed')), (v) => choosePreset(setOption(state, 'seed', v), 'random')),
    temperature: (text) => numberField('temperature', text,
      (v) => (v > 0 ? null : t('err.temperature')), (v) => setOption(state, 'temperature', v)),
    cell(name, i, j, text) {
      const key = `cell:${name}:${i}:${j}`;
      const parsed = parseNumber(text);
      if (!parsed.ok) { errors.set(key, describe(parsed.error)); renderAll({ panel: false, frame: false }); return; }
      errors.delete(key);
      commit(setCell(state, name, i, j, parsed.value), { panel: state.preset !== 'custom', edit: true });
    },
    paste(name, text) {
      const key = `paste:${name}`;
      const parsed = parseMatrix(text);
      const next = parsed.ok ? setMatrix(state, name, parsed.rows) : { error: parsed.error };
      if (next.error) { errors.set(key, describe(next.error)); renderAll({ panel: false }); return; }
      for (const k of [...errors.keys()]) if (k.startsWith(`cell:${name}:`) || k === key) errors.delete(k);
      commit(next);
    },
  };

  // The stage: hovering, focusing or clicking a score/weight cell expands it (on a heatmap too).
  function cellAt(event) {
    const td = event.target.closest?.('td.pick');
    if (td) return { i: Number(td.dataset.i), j: Number(td.dataset.j), kind: td.dataset.pick };
    const canvas = event.target.closest?.('canvas.heatmap.pick');
    if (!canvas || event.offsetX === undefined) return null;
    const box = canvas.getBoundingClientRect();
    const i = Math.floor((event.offsetY / box.height) * Number(canvas.dataset.rows));
    const j = Math.floor((event.offsetX / box.width) * Number(canvas.dataset.cols));
    return i >= 0 && j >= 0 && i < Number(canvas.dataset.rows) && j < Number(canvas.dataset.cols) ? { i, j, kind: canvas.dataset.pick } : null;
  }
  function pick(event) {
    const next = cellAt(event);
    if (!next || (cell && cell.i === next.i && cell.j === next.j && cell.kind === next.kind)) return;
    cell = next;
    renderExplain($('cell-explain'), { state, model, t, cell, tokens: presetTokens(state.words, state.lang) });
    highlightCell($('stage-body'), cell);
  }
  for (const type of ['mouseover', 'mousemove', 'focusin', 'click']) $('stage-body').addEventListener(type, pick);
  $('stage-body').addEventListener('keydown', moveInGrid);

  // ←/→ change the step, except while typing or moving inside a matrix, and in an embed fixed to
  // its step (no nav=1).
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (state.embed && !state.nav) return;
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
    try { await navigator.clipboard.writeText(text); status.textContent = t('link.copied'); }
    catch { status.textContent = t('link.copyFailed'); }
  }
  $('copy-link').addEventListener('click', () => {
    writeUrl();
    copy(location.href, $('copy-status'));
  });
  $('embed-button').addEventListener('click', () => {
    const embedState = { ...state, embed: true };
    const snippet = embedSnippet({
      pageUrl: location.href, hash: serializeState(embedState),
      title: `${t('app.title')} · ${t('nav.position', { step: state.step, total: STEPS.length })} ${t(`step.${STEPS[state.step - 1]}.title`)}`,
    });
    renderEmbedDialog($('embed-dialog'), {
      t, snippet,
      onCopy: (textarea) => { textarea.select(); copy(textarea.value, $('embed-copy-status')).then(() => { $('embed-copy-status').textContent = t('embed.copied'); }, () => {}); },
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
  window.addEventListener('pagehide', () => writeUrl());

  renderChrome(document, { state, t, build: buildId(), offlineFile: offersOfflineFile(), fullPageUrl: fullPageUrl() });
  $('loading').textContent = t('app.loading');
  registerServiceWorker({ onUpdated: () => { notice = 'updated'; renderAll({ panel: false }); } });
  try {
    engine = await loadEngine({ binaries });
  } catch (error) {
    $('stage-body').textContent = t('app.engineFailed', { message: error.message });
    throw error;
  }
  if (!commit(state, { fromUrl: true })) { notice = 'badHash'; commit(parseState('').state, { fromUrl: true }); }
  document.body.dataset.ready = 'true';
  host.ready();
}
