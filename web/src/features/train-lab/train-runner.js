// The training lab's run as the view sees it (train-lab-view.js): Play, Pause, one Step, Reset over
// a session (train-session.js) in the worker or on the page's thread (train-run.js), and what the
// run has measured so far. DOM-free.
//
// Play asks for slices of steps, each sized to take about SLICE_MS, until the run has `target`
// steps or is paused; the numbers do not depend on the slicing (the session reports every step and
// takes its snapshots at fixed steps), so a link replays the same run however fast the machine is.
// A reset starts a new generation: answers to the old one's calls are dropped.

import { startTrainHost } from './train-run.js';
import { SLICE_MS } from '../../labs/worker-host.js';

const MAX_SLICE_STEPS = 50;

/** Takes a session's reply into `data`; false when it carries no steps (an error, or disposed). */
function absorb(data, reply) {
  if (reply.type === 'error') {
    Object.assign(data, { error: reply.error, playing: false });
    return false;
  }
  if (reply.type === 'reset') data.runs = reply.runs.map((run) => ({ points: [], ...run }));
  else if (reply.type === 'rewound')
    data.runs.forEach((run, r) => {
      run.points = run.points.filter((p) => p[0] <= reply.steps);
      run.snapshots = run.snapshots.filter((s) => s.step <= reply.steps);
      run.parameters = reply.runs[r].parameters;
    });
  else if (reply.type === 'stepped')
    reply.runs.forEach((run, r) => {
      const mine = data.runs[r];
      mine.points.push(...run.points);
      mine.snapshots.push(...run.snapshots);
      mine.parameters = run.parameters;
    });
  else return false; // 'disposed'
  data.steps = reply.steps;
  return true;
}

/**
 * One training step of run `run`'s head `head` on the probe, from the model after `step` steps, for
 * the stepper (train-session.js 'walk'): (run, head, step) → its answer, or null when a reset came since (`generation()` moved on) or
 * the session refused.
 */
const walker = (server, generation) => async (run, head, step) => {
  const mine = generation();
  const reply = await server.call({ type: 'walk', run, head, step });
  return mine === generation() && reply.type === 'walk' ? reply : null;
};

/**
 * The race over seeds (train-race.js) on the session: each pair of configs stepped in slices of
 * about SLICE_MS until both runs have learned or `budget` steps are spent. Returns
 * { run(pairs, budget, onSeed) → Promise<results or null>, cancel() }: onSeed(results) after each
 * seed, results [[step or null, step or null] of each seed so far]; null when cancelled, or the
 * session refused (onError(error) says why).
 */
function seedRunner(server, now, onError) {
  let generation = 0;
  async function run(pairs, budget, onSeed) {
    const mine = ++generation;
    const results = [];
    let slice = 1;
    for (const configs of pairs) {
      let reply = await server.call({ type: 'seed-start', configs });
      while (mine === generation && reply.type !== 'error' && !reply.done) {
        const started = now();
        reply = await server.call({ type: 'seed-step', count: slice, budget });
        const took = Math.max(1, now() - started);
        slice = Math.max(1, Math.min(MAX_SLICE_STEPS, Math.round((slice * SLICE_MS) / took)));
      }
      if (mine !== generation || reply.type !== 'seed-stepped') {
        if (reply.type === 'error') onError(reply.error);
        return null;
      }
      results.push(reply.learnedAt);
      onSeed([...results]);
    }
    return results;
  }
  return {
    run,
    cancel() {
      generation += 1;
    },
  };
}

/**
 * Options: engine, workerSource (see train-run.js), onChange() after every answer, onEvent(event)
 * with event.type 'ready' | 'play' | 'pause' | 'done' | 'error', and for tests createWorker,
 * yieldToPage, now. Returns { data(), reset(configs, probe, forks), play(target), pause(), step(),
 * rewind(step), walk(run, head, step), seeds (seedRunner's run and cancel), destroy() }; data() is { mode, reason, build, steps, playing, runs: [{ points, snapshots,
 * parameters }], error }.
 */
export function createTrainRunner({ engine, workerSource, onChange, onEvent, now = () => performance.now(), ...host }) {
  const server = startTrainHost({ engine, workerSource, ...host });
  const data = { mode: null, reason: null, build: null, steps: 0, playing: false, runs: [], error: null };
  let generation = 0;
  let slice = 1; // steps per call, adapted to SLICE_MS
  let pausing = false; // Pause was pressed: the loop ends after the slice in flight
  const seeds = seedRunner(server, now, (error) => onEvent({ type: 'error', error }));

  server.ready.then(({ mode, reason, build }) => {
    Object.assign(data, { mode, reason, build });
    onEvent({ type: 'ready', mode });
    onChange();
  });

  // Sends one call; its answer is taken only if no reset has come since.
  async function send(message) {
    const mine = generation;
    const reply = await server.call(message);
    if (mine !== generation) return false;
    const ok = absorb(data, reply);
    if (reply.type === 'error') onEvent({ type: 'error', error: reply.error });
    onChange();
    return ok;
  }

  // `forks`: each run's fork or null (train-session.js 'reset'; none when left out).
  async function reset(configs, probe, forks) {
    generation += 1;
    Object.assign(data, { playing: false, steps: 0, runs: [], error: null });
    onChange();
    return send({ type: 'reset', configs, probe, forks });
  }

  // `target`: the step to stop at, or a function giving it (read before each slice, so that the
  // reader's choice of steps during a run takes effect).
  async function play(target) {
    const goal = typeof target === 'function' ? target : () => target;
    if (data.playing || !data.runs.length || data.steps >= goal()) return;
    data.playing = true;
    pausing = false;
    const mine = generation;
    onEvent({ type: 'play' });
    while (!pausing && !data.error && mine === generation && data.steps < goal()) {
      const count = Math.min(slice, goal() - data.steps);
      const started = now();
      if (!(await send({ type: 'step', count }))) break;
      const took = Math.max(1, now() - started);
      slice = Math.max(1, Math.min(MAX_SLICE_STEPS, Math.round((count * SLICE_MS) / took)));
    }
    if (mine !== generation) return;
    const finished = data.steps >= goal() && !data.error;
    data.playing = false;
    if (!data.error) onEvent({ type: finished ? 'done' : 'pause' }); // an error was announced as such
    onChange();
  }

  return {
    data: () => data,
    reset,
    play,
    pause() {
      pausing = true; // playing stays true until the slice in flight has come back
    },
    async step() {
      if (data.playing || !data.runs.length) return;
      await send({ type: 'step', count: 1 });
    },
    /** Every run back to the model after `step` steps (a snapshot's), its curves cut there: Play goes on from it. */
    async rewind(step) {
      if (data.playing || !data.runs.length) return;
      await send({ type: 'rewind', step });
    },
    walk: walker(server, () => generation),
    seeds,
    destroy() {
      generation += 1;
      seeds.cancel();
      data.playing = false;
      server.destroy();
    },
  };
}
