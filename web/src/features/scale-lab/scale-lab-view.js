// The lab view 'scale-lab' (state.view): article §4's "why divide by √d_k", measured at the
// reader's d_k (state.labdk). The numbers come from scale-lab.js (one call per d_k, cached
// here: it takes up to ~0.15 s at d_k = 1024); the view only draws them, in three parts:
//  - the d_k control (scale-lab-control.js), kept in place across updates;
//  - the body (scale-lab-body.js): the histograms of q·k, q·k/√d_k and q·k/d_k with their measured
//    variance beside the theory (d_k, 1, 1/d_k); one query's row of weights under each scaling;
//    the largest entry of the softmax's Jacobian under each scaling, on an axis that ends at 1/4;
//  - the charts themselves (scale-lab-charts.js): SVG, role=img with a summary in words.

import { h } from '../../views/dom.js';
import { scaleLab, DK_STEPS, SCALE_LAB_DEFAULTS } from './scale-lab.js';
import { createDkControl } from './scale-lab-control.js';
import { drawBody, num } from './scale-lab-body.js';

/** create({ engine, setState, announce }) → { element, update(ctx), destroy() } (controller/labs.js's LAB_VIEWS). */
export function createScaleLabView({ engine, setState, announce }) {
  const results = new Map(); // d_k → scaleLab(…): each d_k is computed once per visit
  const labOf = (dk) => {
    if (!results.has(dk)) results.set(dk, scaleLab(engine, { dk }));
    return results.get(dk);
  };
  // shown: { dk, lang } drawn last; speak: the next update comes from the control, say its result once
  const view = { shown: null, dk: SCALE_LAB_DEFAULTS.dk, speak: false };
  const control = createDkControl({
    current: () => view.dk,
    choose: (dk) => {
      if (dk === view.dk) return;
      view.speak = true;
      setState({ labdk: dk });
    },
  });
  const title = h('h2', { id: 'sl-title' });
  const lead = h('p', { class: 'explain sl-lead' });
  const body = h('div', { class: 'sl-body' });
  const element = h(
    'section',
    { class: 'lab lab-scale-lab', 'aria-labelledby': 'sl-title', dataset: { dk: view.dk } },
    title,
    lead,
    control.el,
    body,
  );

  /** The body at d_k, or the core's refusal in its place; the numbers table stays open if it was. */
  function drawLab(t, dk) {
    const open = body.querySelector('#sl-numbers')?.open;
    let lab;
    try {
      lab = labOf(dk);
    } catch (error) {
      body.replaceChildren(
        h('p', { class: 'notice warn', role: 'alert' }, t('scalelab.error', { message: error.message })),
      );
      return null;
    }
    drawBody(body, t, lab);
    if (open) body.querySelector('#sl-numbers').open = true;
    return lab;
  }

  return {
    element,
    update({ state, t }) {
      const dk = DK_STEPS.includes(state.labdk) ? state.labdk : SCALE_LAB_DEFAULTS.dk;
      view.dk = dk;
      element.dataset.dk = String(dk);
      title.textContent = t('view.scale-lab');
      lead.textContent = t('scalelab.lead', { count: SCALE_LAB_DEFAULTS.count });
      control.draw(t, dk);
      if (view.shown?.dk === dk && view.shown.lang === state.lang) {
        view.speak = false;
        return;
      }
      const lab = drawLab(t, dk);
      view.shown = lab && { dk, lang: state.lang };
      if (!lab) return;
      if (view.speak)
        announce(
          t('scalelab.announce', { dk, none: num(lab.series.none.variance), sqrt: num(lab.series.sqrt_dk.variance) }),
        );
      view.speak = false;
    },
    destroy() {
      results.clear();
    },
  };
}
