// The engine calls: which code computes (the SIMD loops or the reference, "参考实现"), the
// computation of every intermediate for a new state, and the engine's line under the stage
// (views/engine-info.js) with the reference's largest difference from the SIMD path.

import { computeModel, largestDifference } from '../model.js';
import { OPTION_KEYS } from '../options.js';
import { renderEngineInfo } from '../views/engine-info.js';

// Everything besides the input matrices that the numbers depend on: the backward steps' loss and
// its matrix (Y or the given dO) too, so that the loss box's Apply recomputes at once.
const INPUT_KEYS = ['mode', 'n', 'd', 'dk', 'dv', 'heads', 'head', ...OPTION_KEYS, 'loss', 'y', 'dout'];

export function createEngineCalls(page) {
  let path = 'simd'; // which code computes: the SIMD loops (default) or the reference
  let difference = null; // with the reference path: its largest difference from the SIMD path

  /**
   * Every intermediate of `next` on the chosen path, and the article's own exp without the max
   * (§7, shown beside the page's on the exp and sum steps: model.js computes it when those steps
   * first read it, shown or built ahead while the reader reads, views/stage.js). With the
   * reference path, the SIMD path is computed too, for the difference the page shows.
   */
  function compute(next) {
    const { model, state, engine } = page;
    // A step to another step (same inputs, same options) needs no new numbers.
    const same =
      model && next.mats === state.mats && INPUT_KEYS.every((key) => next[key] === state[key]) && model.path === path;
    if (same) return model;
    const result = computeModel(engine, next, { path, article: true });
    difference = path === 'reference' ? largestDifference(computeModel(engine, next, { path: 'simd' }), result) : null;
    return result;
  }

  function choosePath(next) {
    path = next;
    page.commit(page.state, { panel: false });
  }

  /** The core's Error for `next`, or null when it computes (nothing is shown or kept). */
  function refusal(next) {
    try {
      computeModel(page.engine, next, { path });
      return null;
    } catch (error) {
      return error;
    }
  }

  return {
    compute,
    refusal,
    render() {
      if (!page.engine) return;
      const { state, t } = page;
      renderEngineInfo(page.$('engine-info'), {
        state,
        t,
        build: page.engine.build,
        path,
        difference,
        onPath: choosePath,
      });
    },
    destroy() {},
  };
}
