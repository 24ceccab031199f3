// The lab view 'train-lab' (state.view): watch one attention layer learn. The run's fields are
// the hash's (train-lab.js), so a link replays the same run; the run itself lives in this view
// (train-runner.js: in a Web Worker, or in slices on the page's thread in a sandboxed embed), and
// destroy() ends it. Its parts, each with its own elements: the controls (train-lab-controls.js),
// the status lines (train-lab-status.js), the curves of the loss with the gradient through the
// softmax and of the accuracy (train-lab-curves.js), the race (§4) with the race over seeds
// (train-lab-race.js), A on a probe sequence with its timeline of snapshots
// (train-lab-attention.js), the fork from a snapshot (train-lab-fork.js, train-fork.js), the
// learned W_Q and W_K (train-lab-params.js) and the walk of one step in the stepper
// (train-lab-walk.js). This file wires them to the run, and keeps the run for Back (keepRun).

import { h, setText } from '../../views/dom.js';
import { createAttentionPanel } from './train-lab-attention.js';
import { createTrainControls } from './train-lab-controls.js';
import { createStatusPart } from './train-lab-status.js';
import { createCurvesPart, lastOf } from './train-lab-curves.js';
import { createRacePart, raceNames } from './train-lab-race.js';
import { createParamsPart } from './train-lab-params.js';
import { createWalkControl } from './train-lab-walk.js';
import { createForkPart } from './train-lab-fork.js';
import { seedRaceConfigs, SEED_COUNT } from './train-race.js';
import { walkState } from './train-walk.js';
import { taskFor, SNAPSHOT_EVERY, trainerConfigs, runChanged } from './train-lab.js';
import { forkOf, forkChange, forkWords, sessionRuns, withoutFork, NO_FORK } from './train-fork.js';
import { createTrainRunner } from './train-runner.js';
import { formatNumber } from '../../format.js';
import workerSource from '../../labs/labs-worker-source.js';

/** Progress is announced at most this often while the run plays (a screen reader reads each one). */
const ANNOUNCE_EVERY_MS = 5000;

/** The parts that only show text: built once, worded in update. */
function staticParts() {
  const p = (attrs) => h('p', attrs);
  return {
    title: h('h2', {}),
    lede: p({ class: 'train-lede' }),
    attentionTitle: h('h3', {}),
    attentionText: p({}),
  };
}

export function createTrainLabView({ engine, setState, announce, openStepper, keep = new Map() }) {
  const parts = staticParts();
  const view = {
    state: null, // the last update's state, words and theme
    t: null,
    theme: 'light',
    scrub: null, // the snapshot the timeline was moved back to, or null at its live end
    lastAnnounced: -Infinity,
    destroyed: false,
    replaying: false, // resume() is training the run back to where it was (its play events go unannounced)
    seeds: { key: '', results: [], running: false }, // the race over seeds' record (runSeeds)
    keep, // the page's keep, where the run waits for Back (keepRun)
  };
  const frames = frameScheduler(() => draw(), view);
  const runner = runnerFor(engine, view, frames, announce);
  const controls = controlsFor(runner, view, setState, () => restart(runner, view, announce, true));
  const status = createStatusPart();
  const curves = createCurvesPart();
  const race = createRacePart({ onRun: () => runSeeds(runner, view, frames, announce) });
  // The timeline follows the run while it sits at its end; moved back, it stays where it was put.
  const attention = createAttentionPanel({
    onScrub: (index, atEnd) => {
      view.scrub = atEnd ? null : index;
      draw();
    },
  });
  const rewind = rewindButton(runner, view, announce, () => draw());
  const fork = forkControl(view, () => runner.data().steps, setState, announce);
  const params = createParamsPart();
  const walk = walkControl(runner, view, openStepper);
  const element = layout(parts, { controls, status, curves, race, attention, rewind, fork, params, walk });

  function draw() {
    if (!view.state) return;
    const d = runner.data();
    const names = runNames(view, d.runs.length);
    controls.update({
      state: view.state,
      t: view.t,
      playing: d.playing,
      canStep: d.runs.length > 0 && d.steps < view.state.trainsteps,
      error: d.error,
    });
    status.draw(view, d);
    curves.draw(view, d, names);
    race.draw(view, d, view.seeds);
    drawAttention(attention, view, d, names);
    drawRewind(rewind, view, d);
    fork.update({ state: view.state, t: view.t, ready: d.runs.length > 0 && !d.playing, step: walkStep(view, d) });
    params.draw(view, d, names);
    drawWalk(walk, view, d);
    announceProgress(view, d, announce);
  }

  return {
    element,
    update({ state, t, theme }) {
      const before = view.state;
      Object.assign(view, { state, t, theme });
      wordStatic(parts, view);
      [status, curves, race, params].forEach((part) => part.word(view));
      if (runChanged(before, state)) resume(runner, view, announce, draw, restart(runner, view, announce, false));
      forgetSeeds(runner, view);
      draw();
    },
    destroy() {
      keepRun(view, runner.data());
      view.destroyed = true;
      frames.cancel();
      runner.destroy();
    },
  };
}

/**
 * The run (train-runner.js): its answers drawn at the next frame, its events announced — but for
 * a replay's (resume), which says itself where the replay stopped.
 */
function runnerFor(engine, view, frames, announce) {
  const runner = createTrainRunner({
    engine,
    workerSource,
    onChange: () => frames.schedule(),
    onEvent: (event) => {
      if (view.replaying && event.type !== 'error') return;
      view.lastAnnounced = performance.now(); // the progress waits its turn after this
      announceEvent(event, runner.data(), view.t, announce);
    },
  });
  return runner;
}

/** The run's fields and buttons (train-lab-controls.js): a change of the run's fields drops its fork (withoutFork). */
function controlsFor(runner, view, setState, reset) {
  return createTrainControls({
    setState: (change) => setState(withoutFork(view.state, change)),
    actions: {
      play: () => runner.play(() => view.state.trainsteps),
      pause: () => runner.pause(),
      step: () => runner.step(),
      reset,
    },
  });
}

/** A new run of the state's configs (and fork) from step 0, the timeline at its live end; announced when the reader asked. */
function restart(runner, view, announce, announced) {
  view.scrub = null;
  const { probe } = taskFor(view.state);
  const { configs, forks } = sessionRuns(view.state, trainerConfigs(view.state));
  const started = runner.reset(configs, probe, forks);
  if (announced) announce(view.t('train.announce.reset'));
  return started;
}

/**
 * The run this lab had when it last closed (keepRun), or a fork was made from (forkControl), if
 * it is the state's: retrained to the same step — the same numbers, since the same config in the
 * same build gives the same run — with the timeline where it was and the race over seeds'
 * results. What was kept is read once. `started`: the restart's promise.
 */
async function resume(runner, view, announce, draw, started) {
  const kept = view.keep.get('run');
  view.keep.delete('run');
  if (kept?.key !== runKey(view.state)) return;
  if (kept.seeds.key === seedsKey(view.state)) view.seeds = kept.seeds;
  if (!(await started) || kept.steps === 0) return;
  view.replaying = true;
  await runner.play(kept.steps);
  view.replaying = false;
  if (runner.data().steps === kept.steps) {
    view.scrub = kept.scrub;
    announce(view.t('train.announce.rewound', { step: kept.steps }));
  }
  draw();
}

/**
 * The step of the model the walk hands over: the snapshot the timeline shows, or, at its live end,
 * the model as it is now.
 */
function walkStep(view, d) {
  const snapshots = d.runs[0]?.snapshots ?? [];
  if (view.scrub === null || view.scrub >= snapshots.length - 1) return d.steps;
  return snapshots[view.scrub].step;
}

/**
 * "Walk one training step" (train-lab-walk.js): the model after walkStep's step, its
 * probe's step opened in the stepper — the first run's (÷√d_k in the race). The run is kept
 * (keepRun), so that Back from the stepper finds it.
 */
function walkControl(runner, view, openStepper) {
  return createWalkControl({
    onWalk: async (head) => {
      const d = runner.data();
      const reply = await runner.walk(0, head, walkStep(view, d));
      if (!reply || view.destroyed) return;
      keepRun(view, d);
      openStepper(walkState(view.state, reply));
    },
  });
}

/** The walk control follows the run: ready once it has numbers and is not playing; the model's width. */
function drawWalk(walk, view, d) {
  const width = d.runs[0]?.parameters?.wQ[0]?.rows ?? 0;
  const ready = d.runs.length > 0 && !d.playing;
  walk.update({ state: view.state, t: view.t, ready, width, step: walkStep(view, d), forked: !!forkOf(view.state) });
}

/** Draws at the next frame, once however many answers came in since; nothing after destroy(). */
function frameScheduler(draw, view) {
  let frame = 0;
  return {
    schedule() {
      if (frame || view.destroyed) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        draw();
      });
    },
    cancel: () => cancelAnimationFrame(frame),
  };
}

/** A run's identity: its configs and fork (every field but the step count). */
const runKey = (state) => JSON.stringify(sessionRuns(state, trainerConfigs(state)));

/**
 * "Fork at step s" (train-lab-fork.js): the fork goes into the link, which restarts the run
 * with it beside the run it leaves; both are then trained (resume) to the step the run had
 * reached — the original to the same numbers it had, the fork from s on — so that the reader sees
 * at once what the change did. `steps()`: the step the run has reached.
 */
function forkControl(view, steps, setState, announce) {
  return createForkPart({
    onFork: (step, choice) => {
      const change = forkChange(view.state, step, choice);
      const next = { ...view.state, ...change };
      const to = Math.max(step, steps());
      view.keep.set('run', { key: runKey(next), steps: to, scrub: null, seeds: view.seeds });
      announce(view.t('train.announce.forked', { step, to, change: forkWords(view.t, next, forkOf(next)) }));
      setState(change);
    },
    onRemove: () => setState(NO_FORK),
  });
}

/** "Continue from this snapshot": back on the timeline, the run goes on from there (the later steps dropped). */
function rewindButton(runner, view, announce, draw) {
  const button = h('button', {
    type: 'button',
    id: 'train-rewind',
    hidden: true,
    onclick: async () => {
      const step = Number(button.dataset.step);
      await runner.rewind(step);
      if (runner.data().steps !== step) return;
      view.scrub = null;
      announce(view.t('train.announce.rewound', { step }));
      draw();
    },
  });
  return button;
}

/**
 * What Back to this lab finds (resume): the run's identity, how far it had trained, the timeline's
 * position and the race over seeds' results, in the page's keep (controller/labs.js).
 */
function keepRun(view, d) {
  if (!view.state) return;
  const seeds = view.seeds.running ? { ...view.seeds, results: [], running: false } : view.seeds;
  view.keep.set('run', { key: runKey(view.state), steps: d.steps, scrub: view.scrub, seeds });
}

/** The race over seeds' identity: the race's configs from the first seed, and the budget. */
const seedsKey = (state) => JSON.stringify([seedRaceConfigs(state, 0), state.trainsteps]);

/** Results of another race over seeds (another task, d_k, seed, rate or budget) are dropped, and its run stopped. */
function forgetSeeds(runner, view) {
  if (view.seeds.key === seedsKey(view.state)) return;
  runner.seeds.cancel();
  view.seeds = { key: seedsKey(view.state), results: [], running: false };
}

/** Runs the race over SEED_COUNT seeds, drawing each seed's result as it comes. */
async function runSeeds(runner, view, frames, announce) {
  if (view.seeds.running) return;
  const { state } = view;
  const mine = { key: seedsKey(state), results: [], running: true };
  view.seeds = mine;
  frames.schedule();
  announce(view.t('train.seeds.started', { count: SEED_COUNT }));
  const pairs = Array.from({ length: SEED_COUNT }, (_, k) => seedRaceConfigs(state, k));
  const results = await runner.seeds.run(pairs, state.trainsteps, (sofar) => {
    if (view.seeds === mine) mine.results = sofar;
    frames.schedule();
  });
  if (view.seeds !== mine || view.destroyed) return;
  mine.running = false;
  if (results) announce(view.t('train.seeds.over', { done: results.length }));
  frames.schedule();
}

/** The view's element, in reading order. */
function layout(parts, { controls, status, curves, race, attention, rewind, fork, params, walk }) {
  return h(
    'section',
    { class: 'lab lab-train-lab' },
    parts.title,
    parts.lede,
    controls.el,
    ...status.lines,
    race.el,
    ...curves.figures,
    h('section', { class: 'train-part' }, parts.attentionTitle, parts.attentionText, attention.el, rewind),
    fork.el,
    params.el,
    walk.el,
  );
}

/** What a screen reader hears when the run starts, pauses, ends or fails. */
function announceEvent(event, d, t, announce) {
  const first = d.runs[0];
  const numbers = first && {
    step: d.steps,
    loss: formatNumber(lastOf(first, 1), 4),
    accuracy: formatNumber(lastOf(first, 2), 3),
  };
  if (event.type === 'play') announce(t('train.announce.play'));
  else if (event.type === 'pause') announce(t('train.announce.pause', numbers));
  else if (event.type === 'done') announce(t('train.announce.done', numbers));
  else if (event.type === 'error') announce(t('train.status.error', { message: event.error.message }));
}

/** While the run plays, its step and loss, at most every ANNOUNCE_EVERY_MS (throttled for a screen reader). */
function announceProgress(view, d, announce) {
  if (!d.playing || !d.runs[0]?.points.length || performance.now() - view.lastAnnounced < ANNOUNCE_EVERY_MS) return;
  view.lastAnnounced = performance.now();
  announce(view.t('train.announce.progress', { step: d.steps, loss: formatNumber(lastOf(d.runs[0], 1), 4) }));
}

/** Each run's name: none for a single run, the scaling's in the race, the fork's and the original's. */
function runNames(view, count) {
  if (forkOf(view.state)) return [view.t('train.fork.short'), view.t('train.fork.original')].map((n) => `${n} · `);
  if (view.state.trainscale !== 'race') return Array(count).fill('');
  return raceNames(view.state, view.t).map((name) => `${name} · `);
}

/** The view's own headings and texts, worded at each update. */
function wordStatic(parts, { state, t }) {
  setText(parts.title, t('view.train-lab'));
  setText(parts.lede, t('train.lede', { heads: state.trainheads }));
  setText(parts.attentionTitle, t('train.attention.title'));
  setText(parts.attentionText, t('train.attention.text', { every: SNAPSHOT_EVERY }));
}

/** "Continue from this snapshot": shown while the timeline is back on an earlier snapshot and the run is still. */
function drawRewind(rewind, view, d) {
  const step = walkStep(view, d);
  rewind.hidden = d.playing || !d.runs.length || step >= d.steps;
  rewind.dataset.step = String(step);
  setText(rewind, view.t('train.rewind', { step }));
}

function drawAttention(attention, view, d, names) {
  if (!d.runs.length) return;
  const count = d.runs[0].snapshots.length;
  const index = view.scrub === null ? count - 1 : Math.min(view.scrub, count - 1);
  const { probe, label } = taskFor(view.state);
  attention.update({
    runs: d.runs.map((run, r) => ({ name: names[r], snapshot: run.snapshots[index] })),
    labels: probe.map(label),
    t: view.t,
    theme: view.theme,
    timeline: { count, index, step: d.runs[0].snapshots[index].step, live: index === count - 1 },
  });
}
