// The step's own formula with the numbers of one cell (issue 18, item 13): the article computes by
// hand, so the hand computation is shown where the reader looks. While a cell is hovered, focused
// or chosen, the step's formula (its detail formula, views/stage.js) gives way to that cell's line
// of its expansion — on the scores step S₁₂ = q₁·k₂ = 1·0 + 0·1 = 0 — taken from the popover's
// own lines (views/explain.js cellLines: one place writes each sum), folded the same way past six
// terms. A caption under it names the cell; a screen reader hears the line as text. On a step
// whose numbers are not sums (the input, the heads side by side) the caption says so. Render only.

import { setText } from './dom.js';
import { cellLines, cellHeading } from './explain.js';
import { chain } from './explain-parts.js';
import { speak } from './math.js';
import { STEPS, stepById, stepFigures, stepIdAt } from '../steps.js';

/**
 * The line of a cell's expansion that fills in step `stepId`'s formula: the one tagged with that
 * step, else the last one of an earlier step (a weight on the AV step: how that weight was made).
 */
export function stepLine(lines, stepId) {
  const here = lines.find((l) => l.steps.includes(stepId));
  if (here) return here;
  const at = STEPS.indexOf(stepId);
  return lines.filter((l) => l.steps.some((s) => STEPS.indexOf(s) <= at)).at(-1) ?? null;
}

/** Whether step `stepId` has cells whose numbers its formula can show (a figure with a `pick`). */
export const stepFills = (stepId, state) => stepFigures(stepById(stepId), state).some((figure) => figure.pick);

/**
 * Fills `slots` (views/stage.js filledSlots) for `ctx.cell` ({ i, j, kind } or null) on the
 * current step. ctx: { state, model, t, cell, tokens }. Returns what a screen reader should hear
 * ('' when no cell's numbers are shown).
 */
export function renderFilled(slots, ctx) {
  const { state, t, cell } = ctx;
  const stepId = stepIdAt(state, state.step);
  const found = cell ? stepLine(cellLines(ctx), stepId) : null;
  slots.formulas.classList.toggle('filling', Boolean(found));
  if (!found) {
    slots.filled.replaceChildren();
    delete slots.filled.dataset.cell;
    setText(slots.caption, t(stepFills(stepId, state) ? 'filled.hint' : 'filled.none'));
    return '';
  }
  const line = chain(...found.parts);
  slots.filled.replaceChildren(line);
  slots.filled.dataset.cell = `${cell.kind}:${cell.i}:${cell.j}`;
  const caption = `${cellHeading(ctx)} · ${found.label}`;
  setText(slots.caption, caption);
  return `${caption}: ${speak(line)}`;
}
