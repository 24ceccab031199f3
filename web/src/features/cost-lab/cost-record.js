// What the cost lab's view keeps of a run (cost-run.js's events), and the numbers it shows from
// it. Pure and DOM-free: the view (cost-lab-view.js) holds one record per run.

/** A new run's record: running, no mode or results yet, `total` measurements to make. */
export function newRecord({ handle, plan, build, startedAt }) {
  return {
    handle,
    plan,
    status: 'running',
    mode: null,
    reason: null,
    build,
    warmedUp: false,
    results: [],
    done: 0,
    total: plan.sizes.length * plan.paths.length,
    error: null,
    startedAt,
    endedAt: null,
  };
}

/** What one event of cost-run.js changes in the record; `now` is when it arrived. */
export function takeEvent(record, event, now) {
  switch (event.type) {
    case 'start':
      Object.assign(record, { mode: event.mode, reason: event.reason ?? null, build: event.build });
      break;
    case 'plan':
      Object.assign(record, { build: event.build, total: event.total });
      break;
    case 'measure':
    case 'refused':
    case 'skipped':
      record.results.push(event);
      record.warmedUp = true;
      break;
    case 'progress':
      record.done = event.done;
      break;
    case 'done':
      Object.assign(record, { status: 'done', endedAt: now });
      break;
    case 'stopped':
      record.status = 'stopped';
      break;
    case 'error':
      Object.assign(record, { status: 'error', error: event.error });
      break;
    default:
      break;
  }
}

/** A record's results (none before a run). */
export const resultsOf = (record) => record?.results ?? [];
/** One path's measurements, by n. */
export const measuredOf = (record, path) =>
  resultsOf(record)
    .filter((r) => r.type === 'measure' && r.path === path)
    .sort((a, b) => a.n - b.n);
/** The sizes the core refused to run, for lack of memory. */
export const refusedOf = (record) => resultsOf(record).filter((r) => r.type === 'refused');
