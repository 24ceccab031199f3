// training-report.mjs — bench/training.md from the training benchmark's runs: Node's
// (bench/training.mjs → build/bench/training/node.json) and Chromium's
// (bench/browser/training-run.mjs → build/bench/training/browser.json), with issue 17's targets
// beside the medians: ≥ 2,000 steps/s in a Worker at n = 8; ≥ 10× TensorFlow.js; reverse at n = 8
// learned within 3 s in Chromium; the page answering a click within 100 ms while it trains.
//
//   node bench/training-report.mjs [--dir DIR] [--out FILE]

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const DIR = option('--dir', path.join(HERE, '..', 'build', 'bench', 'training'));
const OUT = option('--out', path.join(HERE, 'training.md'));
const read = (file) => (fs.existsSync(path.join(DIR, file)) ? JSON.parse(fs.readFileSync(path.join(DIR, file))) : null);
const node = read('node.json');
const browser = read('browser.json');

const int = (x) => Math.round(x).toLocaleString('en');
const spread = (s) => `**${int(s.median)}** [${int(s.low)}, ${int(s.high)}]`;
const loads = (meta) => meta.loadavg.map((l) => l[0].toFixed(1)).join(' → ');
const met = (ok) => (ok ? 'met' : '**not met**');

/** Per size: ours (the given id) against the fastest TensorFlow.js backend that trained, run by run. */
function ratios(run, oursId) {
  const ours = run.impls.find((i) => i.id === oursId);
  return run.sizes.map((size) => {
    const peers = run.impls.filter((i) => i.id.startsWith('tfjs') && i.sizes[size.key]);
    const best = peers.sort((a, b) => b.sizes[size.key].median - a.sizes[size.key].median)[0];
    if (!ours?.sizes[size.key] || !best) return { size, ratio: null };
    const perRun = ours.sizes[size.key].runs.map((x, r) => x / best.sizes[size.key].runs[r]);
    return { size, peer: best.id, ratio: ours.sizes[size.key].median / best.sizes[size.key].median, perRun };
  });
}

function ratesTable(run, { cpu = false } = {}) {
  const lines = [
    '| implementation | ' + run.sizes.map((s) => s.label).join(' | ') + ' |',
    '|---|' + run.sizes.map(() => '---|').join(''),
  ];
  for (const impl of run.impls) {
    const cells = run.sizes.map((s) => {
      const x = (cpu ? impl.cpu : impl.sizes)?.[s.key];
      return x ? `${spread(x)}<br>runs ${x.runs.map(int).join(', ')}` : 'not timed (gate)';
    });
    lines.push(`| ${impl.label} | ${cells.join(' | ')} |`);
  }
  return lines;
}

function gateLines(run) {
  return Object.entries(run.gates).flatMap(([id, bySize]) =>
    Object.entries(bySize).map(([key, g]) => {
      const label = run.sizes.find((s) => s.key === key).label;
      return g.error
        ? `| ${id} | ${label} | — | — | — | failed: ${g.error} |`
        : `| ${id} | ${label} | ${g.ours.toFixed(6)} | ${g.theirs.toFixed(6)} | ${g.relative.toExponential(1)} | ${g.passed ? 'passed' : '**failed**'} |`;
    }),
  );
}

function ratioLines(run, oursId) {
  return ratios(run, oursId).map(({ size, peer, ratio, perRun }) =>
    ratio === null
      ? `| ${size.label} | — | no TensorFlow.js backend trained |`
      : `| ${size.label} | ${peer} | **${ratio.toFixed(1)}×** [${Math.min(...perRun).toFixed(1)}, ${Math.max(...perRun).toFixed(1)}] |`,
  );
}

const lines = ['# Training benchmark (issue 17, item 7)', ''];
lines.push(
  'Written by `node bench/training-report.mjs` from the runs of `bench/training.mjs` (Node) and',
  "`bench/browser/training-run.mjs` (Debian's Chromium); `npm run bench` runs all three. One training step: a batch",
  'of 32 sequences of reverse, the forward pass, the backward pass and Adam (lr 0.01), one-hot positions, the',
  'model of `core/model.hpp`; TensorFlow.js trains the same model with the same step from our initial parameters',
  '(`bench/training-model.mjs`), once its loss on the same parameters and batch matched ours (the gate).',
  'Each figure: the **median** of the runs [lowest, highest], every run listed; each sample ≥ 1 s of steps after',
  '1 s of warm-up. The machine is shared (2 cores): the load average is given, and absolute rates move with it.',
  '',
);

if (node) {
  lines.push(
    `## Node (${node.meta.runtime}, ${node.meta.date.slice(0, 16)} UTC)`,
    '',
    `${node.meta.cores} cores (${node.meta.cpu}); load average ${loads(node.meta)} (before, after each run); TensorFlow.js ${node.meta.tfjs}.`,
    '',
    '### Steps per second (wall clock)',
    '',
    ...ratesTable(node),
    '',
    "### Steps per CPU second (this process's CPU time: what the load average takes out of the wall clock)",
    '',
    ...ratesTable(node, { cpu: true }),
    '',
    '### Ours (SIMD128) against the fastest TensorFlow.js backend (ratio of medians [per-run ratios])',
    '',
    '| size | TensorFlow.js backend | ratio |',
    '|---|---|---|',
    ...ratioLines(node, 'ours-simd'),
    '',
  );
}

if (browser) {
  const best = `ours-worker-${browser.meta.best}`;
  lines.push(
    `## Chromium (${browser.meta.runtime}, ${browser.meta.date.slice(0, 16)} UTC)`,
    '',
    `Load average ${loads(browser.meta)} (start, after the benchmark page, after the page's clicks); the page's own build is`,
    `\`${browser.meta.best}\`. Ours runs in the labs' Web Worker as the training lab runs it (its session, slices of`,
    "at most 50 steps, each answer carrying every step's loss and the probe's snapshots); TensorFlow.js on the page's thread.",
    '',
    '### Steps per second (wall clock)',
    '',
    ...ratesTable(browser),
    '',
    "### Steps per CPU second (the renderer process's CPU time, all its threads, over the DevTools protocol)",
    '',
    ...ratesTable(browser, { cpu: true }),
    '',
    `### Ours in the Worker (${browser.meta.best} build) against the fastest TensorFlow.js backend`,
    '',
    '| size | TensorFlow.js backend | ratio |',
    '|---|---|---|',
    ...ratioLines(browser, best),
    '',
    "### Time to learn reverse at n = 8 (Chromium, the labs' Worker)",
    '',
    'Criteria: ≥ 99% of 1,000 held-out sequences exactly right (exact); and with ≥ 0.9 of the weight on the mirror key for every',
    'query of every sequence (strict), or for ≥ 99% of the queries (a repeated token lets a query split its weight',
    "between two keys holding the same answer). The step is found on the page's thread, checking every 10 steps",
    '(untimed); the time is the Worker\'s wall time from a reset to that step, as the lab runs it; "same run": the',
    "Worker's loss at that step is bit for bit the checked trainer's.",
    '',
    '| setting | criterion | step | exact | least mirror weight | queries ≥ 0.9 | seconds (median [low, high]; runs) | same run |',
    '|---|---|---|---|---|---|---|---|',
    ...browser.learn.flatMap((l) => {
      const names = ['exact', 'strict', 'queries99'];
      return names.map((name) => {
        const c = l.criteria[name];
        if (!c)
          return `| ${l.label} | ${name} | not within ${l.checkedTo} steps (then: exact ${(100 * l.last.exact).toFixed(1)}%, least mirror ${l.last.leastMirror.toFixed(3)}, ${(100 * l.last.mirrorShare).toFixed(2)}% of queries) | | | | | |`;
        return `| ${l.label} | ${name} | ${c.steps} | ${(100 * c.exact).toFixed(1)}% | ${c.leastMirror.toFixed(3)} | ${(100 * c.mirrorShare).toFixed(2)}% | **${c.seconds.median.toFixed(2)}** [${c.seconds.low.toFixed(2)}, ${c.seconds.high.toFixed(2)}]; ${c.seconds.runs.map((x) => x.toFixed(2)).join(', ')} | ${c.sameRun ? 'yes' : '**no**'} |`;
      });
    }),
    '',
    '### The page answering while the training lab trains (build/web, `#view=train-lab`, Play)',
    '',
    `A click on the language switch, from the click's own time stamp to <html lang> changing; the lab's run in its`,
    `${browser.responsiveness.mode}. The control: the same clicks before Play, same page, same minutes.`,
    '',
    '| | clicks (ms) | slowest |',
    '|---|---|---|',
    `| before Play (control) | ${browser.responsiveness.idle.map((a) => a.ms.toFixed(0)).join(', ')} | ${Math.max(...browser.responsiveness.idle.map((a) => a.ms)).toFixed(0)} |`,
    `| while training (steps at each click: ${browser.responsiveness.answers.map((a) => a.steps).join(', ')}) | ${browser.responsiveness.answers.map((a) => a.ms.toFixed(0)).join(', ')} | ${Math.max(...browser.responsiveness.answers.map((a) => a.ms)).toFixed(0)} |`,
    '',
    '### Gates (loss on the same initial parameters and batch; bound 1e-4 relative)',
    '',
    '| peer | size | ours | TensorFlow.js | relative | |',
    '|---|---|---|---|---|---|',
    ...gateLines(browser),
    '',
  );
}

if (node)
  lines.push(
    '### Gates in Node',
    '',
    '| peer | size | ours | TensorFlow.js | relative | |',
    '|---|---|---|---|---|---|',
    ...gateLines(node),
    '',
  );

if (browser) {
  const worker = browser.impls.find((i) => i.id === `ours-worker-${browser.meta.best}`);
  const first = worker?.sizes[browser.sizes[0].key];
  const r = ratios(browser, `ours-worker-${browser.meta.best}`);
  const fastestBy = (name) => {
    const times = browser.learn.map((l) => l.criteria[name]?.seconds.median).filter((x) => x !== undefined);
    return times.length ? Math.min(...times) : null;
  };
  const nodeRatios = node ? ratios(node, 'ours-simd') : null;
  const fastest = fastestBy('strict');
  const exactOnly = fastestBy('exact');
  const slowestClick = Math.max(...browser.responsiveness.answers.map((a) => a.ms));
  const slowestIdle = Math.max(...browser.responsiveness.idle.map((a) => a.ms));
  lines.push(
    '## Targets (issue 17, item 7), measured as above',
    '',
    `- ≥ 2,000 steps/s in a Worker at n = 8: ${first ? int(first.median) : '—'} (median, Chromium) — ${met(first && first.median >= 2000)}.`,
    `- ≥ 10× TensorFlow.js: ${r.map((x) => `${x.size.label} ${x.ratio ? x.ratio.toFixed(1) + '×' : '—'}`).join('; ')} (Chromium)${nodeRatios ? `; ${nodeRatios.map((x) => `${x.size.label} ${x.ratio ? x.ratio.toFixed(1) + '×' : '—'}`).join('; ')} (Node)` : ''} — ${met([...r, ...(nodeRatios ?? [])].every((x) => x.ratio >= 10))}.`,
    `- reverse at n = 8 learned within 3 s in Chromium (exact and every query's mirror weight): ${fastest === null ? 'not within the steps checked' : `${fastest.toFixed(2)} s at best`} — ${met(fastest !== null && fastest <= 3)}; exact match alone: ${exactOnly === null ? 'not reached' : `${exactOnly.toFixed(2)} s at best`} (table above).`,
    `- the page answers within 100 ms while it trains: slowest click ${slowestClick.toFixed(0)} ms, against ${slowestIdle.toFixed(0)} ms before Play (the control) — ${met(slowestClick <= 100)}.`,
    '',
  );
}
fs.writeFileSync(OUT, lines.join('\n'));
console.log(lines.join('\n'));
