// The controller's parts, each created with the parts it uses (no part looks another up by name),
// then registered with the page in the order they render. New behaviour (a head selector, a
// play/pause loop) is a new part here; a new key or button is an entry of controller/actions.js.

import { createStage } from './stage.js';
import { createLabs } from './labs.js';
import { createExports } from './exports.js';
import { createFrame } from './frame.js';
import { createStepNav } from './step-nav.js';
import { createEngineCalls } from './engine-calls.js';
import { createExplain } from './explain.js';
import { createFilledFormula } from './filled-formula.js';
import { createArrowsPart } from './arrows.js';
import { createEditing } from './editing.js';
import { createUndo } from './undo.js';
import { createUrlSync } from './url-sync.js';
import { createEmbedding } from './embedding.js';
import { createHeads } from './heads.js';
import { createClassroom } from './classroom.js';
import { createActions } from './actions.js';

/**
 * The order the parts render in (each part's render(opts) runs after every change): the stage
 * first — a new step measures where its matrices were, for the motion, while the page is still
 * laid out as it was — and the popover after everything it may point into; the classroom after
 * the stage, as it sizes the type to the step on screen.
 */
export const RENDER_ORDER = [
  'stage',
  'labs',
  'exports',
  'frame',
  'nav',
  'engine',
  'explain',
  'filled',
  'arrows',
  'editing',
  'undo',
  'url',
  'embedding',
  'heads',
  'classroom',
  'actions',
];

/**
 * Creates every part of `page` (each before the parts that use it; the popover before the window's
 * other resize listener, the classroom's) and registers them in RENDER_ORDER. `labViews`: the labs'
 * views, for tests (createLabs loads the real ones when a lab first opens). Returns the parts by name.
 */
export function createParts(page, { labViews } = {}) {
  const engine = createEngineCalls(page);
  page.compute = engine.compute;
  const undo = createUndo(page);
  const explain = createExplain(page);
  const filled = createFilledFormula(page, { explain });
  const heads = createHeads(page, { explain });
  const editing = createEditing(page, { undo, engine, heads });
  const arrows = createArrowsPart(page, { explain, editing });
  const stage = createStage(page, { editing, heads, arrows });
  const labs = createLabs(page, { explain, views: labViews });
  const exports = createExports(page);
  const frame = createFrame(page);
  const nav = createStepNav(page, { explain });
  const url = createUrlSync(page, { explain });
  const embedding = createEmbedding(page, { url });
  const classroom = createClassroom(page, { nav, url });
  const actions = createActions(page, { nav, undo, explain, classroom, stage });
  const parts = { stage, labs, exports, frame, nav, engine, explain, filled, arrows };
  Object.assign(parts, { editing, undo, url, embedding, heads, classroom, actions });
  for (const name of RENDER_ORDER) page.use(name, parts[name]);
  return parts;
}
