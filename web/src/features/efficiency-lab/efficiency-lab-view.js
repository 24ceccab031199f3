// The lab view 'efficiency-lab' (state.view): article 10, "效率与变体", which §8 promises. The
// reader's Q, K, V go through one efficient path at a time, each a panel beside the full n²
// attention. The shell draws the title, the choice of inputs and the row of panels, and hands the
// open panel its context; each panel is a module of its own (PANELS below).

import { h, setText } from '../../views/dom.js';
import { INPUTS, LAB_LIMIT, labInputs } from './efficiency-lab.js';
import { createNumberField } from './efficiency-fields.js';
import { createPopover } from './efficiency-popover.js';
import tilesPanel from './efficiency-tiles-panel.js';
import cachePanel from './efficiency-cache-panel.js';
import windowPanel from './efficiency-window-panel.js';
import sharedHeadsPanel from './efficiency-shared-heads-panel.js';
import linearPanel from './efficiency-linear-panel.js';
import costsPanel from './efficiency-costs-panel.js';

/**
 * The panels, in the order their buttons stand. Each is a module's default export:
 *   { id (one of efficiency-lab.js's PANEL_IDS), titleKey (its button's words),
 *     create({ engine, setState, announce, popover }) → { element, update(ctx), destroy() } }
 * where update's ctx is { state, t, theme, model, qkv }: qkv is the lab's Q, K, V as
 * { rows, cols, data } matrices (the inputs chosen above the panels), or null when there are none.
 * `popover` makes a number that expands with its arithmetic (efficiency-popover.js). The open panel
 * is the only one created; it is destroyed when another opens or the lab closes.
 */
const PANELS = [
  tilesPanel, // 1. tiles with an online softmax (FlashAttention's idea)
  cachePanel, // 2. the KV cache in decoding
  windowPanel, // 3. the sliding window
  sharedHeadsPanel, // 4. shared key–value heads (MQA / GQA)
  linearPanel, // 5. linear attention, φ(x) = elu(x) + 1
  costsPanel, // 6. the costs, measured in the tab
];

/** The panel the state opens: its own, or the first while its id has no panel. */
const panelOf = (state) => PANELS.find((panel) => panel.id === state.effpanel) ?? PANELS[0];

/** The choice of inputs: three radio buttons, and the random inputs' n and seed. */
function createInputs(setState) {
  const legend = h('legend', {});
  const radios = INPUTS.map((input) => {
    const radio = h('input', {
      type: 'radio',
      name: 'eff-input',
      id: `eff-input-${input}`,
      value: input,
      onchange: () => setState({ effinput: input }),
    });
    return { input, radio, label: h('label', { for: radio.id }) };
  });
  const n = createNumberField({ id: 'eff-n', labelKey: 'eff.n', min: 1, choose: (effn) => setState({ effn }) });
  const seed = createNumberField({
    id: 'eff-seed',
    labelKey: 'eff.seed',
    min: 0,
    choose: (effseed) => setState({ effseed }),
  });
  const random = h('span', { class: 'eff-random' }, n.el, seed.el);
  const shape = h('p', { class: 'eff-shape', id: 'eff-shape' });
  const el = h(
    'fieldset',
    { class: 'eff-inputs' },
    legend,
    h(
      'div',
      { class: 'eff-choices' },
      radios.map(({ radio, label }) => h('span', { class: 'eff-choice' }, radio, label)),
    ),
    random,
    shape,
  );
  return {
    el,
    draw(t, state, qkv) {
      setText(legend, t('eff.inputs'));
      for (const { input, radio, label } of radios) {
        radio.checked = state.effinput === input;
        setText(label, t(`eff.input.${input}`));
      }
      random.hidden = state.effinput !== 'random';
      n.draw(t, { value: state.effn, max: LAB_LIMIT });
      seed.draw(t, { value: state.effseed, max: 2 ** 31 - 1 });
      setText(shape, qkv ? t('eff.shape', { n: qkv.q.rows, dk: qkv.q.cols, dv: qkv.v.cols }) : t('eff.noInputs'));
    },
  };
}

/** The row of panels: one button each, the open one pressed. */
function createPanelSwitch(setState) {
  const buttons = PANELS.map((panel) =>
    h('button', {
      type: 'button',
      class: 'eff-panel-button',
      dataset: { panel: panel.id },
      onclick: () => setState({ effpanel: panel.id }),
    }),
  );
  const el = h(
    'nav',
    { class: 'eff-panels', id: 'eff-panels' },
    h(
      'ul',
      {},
      buttons.map((b) => h('li', {}, b)),
    ),
  );
  return {
    el,
    draw(t, open) {
      el.setAttribute('aria-label', t('eff.panels'));
      PANELS.forEach((panel, i) => {
        setText(buttons[i], `${i + 1}. ${t(panel.titleKey)}`);
        buttons[i].setAttribute('aria-pressed', String(panel === open));
      });
    },
  };
}

/** create({ engine, setState, announce }) → { element, update(ctx), destroy() } (controller/labs.js). */
export function createEfficiencyLabView({ engine, setState, announce }) {
  const popover = createPopover();
  const inputs = createInputs(setState);
  const panelSwitch = createPanelSwitch(setState);
  const title = h('h2', { id: 'eff-title' });
  const lede = h('p', { class: 'explain eff-lede' });
  const host = h('div', { class: 'eff-host' });
  const element = h(
    'section',
    { class: 'lab lab-efficiency-lab', 'aria-labelledby': 'eff-title' },
    title,
    lede,
    inputs.el,
    panelSwitch.el,
    host,
  );
  // open: { panel, instance }; inputs: the last Q, K, V and what they were made from (a new
  // model, or other fields, makes them anew; anything else keeps the very same matrices, so that
  // a panel can keep what it computed from them).
  const view = { open: null, inputs: { key: null, qkv: null, error: null } };

  function inputsFor(state, model) {
    const key = state.effinput === 'page' ? model : `${state.effinput}:${state.effn}:${state.effseed}`;
    if (view.inputs.key !== key) {
      try {
        view.inputs = { key, qkv: labInputs(engine, state, model), error: null };
      } catch (error) {
        view.inputs = { key, qkv: null, error };
      }
    }
    return view.inputs;
  }

  function openPanel(panel) {
    if (view.open?.panel === panel) return view.open.instance;
    popover.close();
    view.open?.instance.destroy();
    const instance = panel.create({ engine, setState, announce, popover });
    view.open = { panel, instance };
    host.replaceChildren(instance.element);
    return instance;
  }

  return {
    element,
    update({ state, t, theme, model }) {
      setText(title, t('view.efficiency-lab'));
      setText(lede, t('eff.lede'));
      const { qkv, error } = inputsFor(state, model);
      inputs.draw(t, state, qkv);
      const panel = panelOf(state);
      panelSwitch.draw(t, panel);
      element.dataset.panel = panel.id;
      const instance = openPanel(panel);
      instance.update({ state, t, theme, model, qkv });
      host.querySelector(':scope > .eff-input-error')?.remove();
      if (error)
        host.prepend(
          h('p', { class: 'notice warn eff-input-error', role: 'alert' }, t('eff.error', { message: error.message })),
        );
    },
    destroy() {
      view.open?.instance.destroy();
      view.open = null;
      popover.destroy();
    },
  };
}
