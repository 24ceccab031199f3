// Runs every suite and ends with one line that counts them all: "total: N passed, N failed", then
// "checks: C, runs: N" (a test run in several wasm builds or browser engines is one check).
// `npm test` builds the page (`build.sh page`) and then runs this; `--quick` (npm run test:quick)
// runs the format check, the native doctest suite, the JS API and the page's pure modules — no
// browsers, no sanitizers, no fuzzing — for the edit–test loop.
//
// Its two halves overlap on a 2-core machine: node:test (the JS API, the page's modules and the
// browser tests, FILE_CONCURRENCY files at a time) starts first as a child process writing to a
// log, and while the browsers mostly wait on pages, this process builds and runs the C++ suites —
// the format check, doctest natively, under ASan + UBSan and compiled to wasm (CTest), and the
// libFuzzer corpus replays and a bounded fuzzing run. node:test's report is printed when both are
// done.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkKey } from './lib/test-record.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'); // a path with spaces stays one
process.chdir(root);
let passed = 0,
  failed = 0;
const summary = [];
const quick = process.argv.includes('--quick');
// Checks: a name per check, each suite's own (a doctest case is one check in every build).
const checks = new Set();
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
// Each stage's time, printed with the summary (and each stage's own line as it ends).
const stageTimes = [];
function timed(name, body) {
  const since = Date.now();
  const result = body();
  stageTimes.push(`${name}: ${seconds(since)}`);
  return result;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  return { code: r.status ?? 1, out: (r.stdout ?? '') + (r.stderr ?? '') };
}

// CTest: one ctest test per doctest program; count doctest's own test cases from its summary.
function ctest(name, dir) {
  console.log(`\n=== ${name} (ctest in ${dir}) ===`);
  const r = run('ctest', ['--test-dir', dir, '--output-on-failure', '-V']);
  const code = r.code;
  const out = r.out.replace(/\x1b\[[0-9;]*m/g, ''); // doctest colours its output under Node
  let p = 0,
    f = 0;
  for (const m of out.matchAll(/\[doctest\] test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed/g)) {
    p += Number(m[2]);
    f += Number(m[3]);
  }
  const lines = out.split('\n');
  const shown =
    code === 0
      ? lines
          .filter((l) => /\[doctest\] (test cases|assertions|Status)|tests passed|Test #/.test(l))
          .map((l) => l.replace(/^\d+: /, ''))
      : lines;
  console.log(shown.join('\n'));
  if (code !== 0 && f === 0) f = 1; // a crash before doctest's summary still counts as a failure
  passed += p;
  failed += f;
  summary.push(`${name}: ${p} passed, ${f} failed`);
}

// The doctest cases of one program (natively, or a wasm build under Node), each a check: the same
// case in another build is the same check run again.
function doctestCases(program, args = []) {
  const listed = run(program, [...args, '--list-test-cases']).out.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = listed.split('\n');
  const rule = lines.findIndex((l) => l.startsWith('====='));
  const end = lines.findIndex((l, i) => i > rule && l.startsWith('====='));
  for (const name of lines.slice(rule + 1, end)) if (name.trim()) checks.add(`doctest\u0000${name}`);
}

// The format check: the C++ as .clang-format says and the JS as .prettierrc.json says, so that a
// diff shows only what changed. One test each; `npx prettier --write .` and
// `clang-format -i <file>` fix what they report.
function formatCheck(name, cmd, args) {
  console.log(`\n=== format: ${name} ===`);
  const r = run(cmd, args);
  const bad = r.code !== 0;
  if (bad) console.log(r.out);
  else console.log('formatted');
  passed += bad ? 0 : 1;
  failed += bad ? 1 : 0;
  checks.add(`format\u0000${name}`);
  summary.push(`format, ${name}: ${bad ? '0 passed, 1 failed' : '1 passed, 0 failed'}`);
}
// node:test, started first and run beside the C++ suites. The spec report goes to a log printed at
// the end (a pipe would fill while this process waits on the C++ suites); test-record.mjs writes a
// line per test, from which the runs and checks are counted. Two files at a time, one per core:
// three drove the load to 14–17 on 2 cores, where waits that hold at a normal load timed out.
const FILE_CONCURRENCY = 2;
const nodeTestDirs = (quick ? ['tests/node', 'tests/web'] : ['tests/node', 'tests/web', 'tests/browser']).filter((d) =>
  fs.existsSync(d),
);
fs.mkdirSync('build', { recursive: true });
const nodeTestLog = 'build/node-test.log';
const nodeTestRecord = 'build/node-test-record.jsonl';
// The run's browsers — one Chromium for every browser test file, a Firefox for each file that runs
// at once — in a process of their own (tests/browser/browser-host.mjs says why). If they cannot
// start, the files launch their own and fail with the reason.
const browserHost = quick ? null : await startBrowserHost();
async function startBrowserHost() {
  const host = spawn(process.execPath, ['tests/browser/browser-host.mjs', String(FILE_CONCURRENCY)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of host.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  try {
    return { env: JSON.parse(out), close: () => new Promise((resolve) => host.once('exit', resolve).stdin.end()) };
  } catch {
    console.log(`the run's browsers did not start (${out.trim() || 'no answer'}): each file launches its own`);
    host.kill();
    return null;
  }
}
const nodeTestStarted = Date.now();
const nodeTest = new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${FILE_CONCURRENCY}`,
      '--test-reporter=spec',
      `--test-reporter-destination=${nodeTestLog}`,
      '--test-reporter=./scripts/lib/test-record.mjs',
      `--test-reporter-destination=${nodeTestRecord}`,
      ...nodeTestDirs,
    ],
    { stdio: 'ignore', env: { ...process.env, ...browserHost?.env } },
  );
  child.on('error', () => resolve(1));
  child.on('exit', (code) => resolve(code ?? 1));
});

// The committed files only (git ls-files): what the build and the benchmarks generate is not ours to format.
const tracked = (...patterns) =>
  run('git', ['ls-files', ...patterns])
    .out.split('\n')
    .filter(Boolean);
formatCheck('C++ (clang-format)', 'clang-format', [
  '--dry-run',
  '--Werror',
  '--style=file',
  ...tracked('*.cpp', '*.hpp', '*.h'),
]);
formatCheck('JS (prettier)', process.execPath, [
  'node_modules/prettier/bin/prettier.cjs',
  '--check',
  '--log-level=warn',
  ...tracked('*.js', '*.mjs', '*.cjs'),
]);

// libFuzzer (tests/fuzz/, built with ASan + UBSan in build/sanitize): for each target, first the
// committed inputs — the corpus make-corpus.mjs writes and the findings kept in tests/fuzz/found/
// (its README) — each once (one test each); then its seconds of fuzzing from them (one test),
// whose new inputs go to build/fuzz-corpus/<target> and any crashing input to
// build/fuzz-artifacts/. The minute of fuzzing is shared: the invariants of every entry point, and
// the differential target natively and on 4-lane SSE (the wasm layout).
const FUZZ_INPUTS = ['tests/fuzz/corpus', 'tests/fuzz/found'];
const FUZZ_TARGETS = [
  ['fuzz_attention', 20],
  ['fuzz_differential', 20],
  ['fuzz_differential_sse', 20],
];
function fuzz(target, seconds) {
  const binary = `build/sanitize/${target}`;
  console.log(`\n=== fuzzing: ${target} (libFuzzer, ASan + UBSan) ===`);
  const inputs = FUZZ_INPUTS.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f !== 'README.md')
      .map((f) => path.join(dir, f)),
  );
  const replay = run(binary, inputs);
  const executed = (replay.out.match(/^Executed /gm) ?? []).length;
  const replayFailed = replay.code !== 0 ? 1 : 0;
  console.log(
    replayFailed
      ? replay.out
      : `${FUZZ_INPUTS.join(' and ')}: ${executed} of ${inputs.length} inputs replayed, no finding`,
  );
  const grown = `build/fuzz-corpus/${target}`;
  fs.mkdirSync(grown, { recursive: true });
  fs.mkdirSync('build/fuzz-artifacts', { recursive: true });
  const fuzzing = run(binary, [
    `-max_total_time=${seconds}`,
    '-timeout=20',
    '-rss_limit_mb=2048',
    '-max_len=4096',
    '-print_final_stats=1',
    '-artifact_prefix=build/fuzz-artifacts/',
    grown,
    ...FUZZ_INPUTS,
  ]);
  const stat = (name) => Number(fuzzing.out.match(new RegExp(`stat::${name}:\\s*(\\d+)`))?.[1] ?? 0);
  const fuzzFailed = fuzzing.code !== 0 ? 1 : 0;
  if (fuzzFailed)
    console.log(
      fuzzing.out
        .split('\n')
        .filter((l) => !/^#\d+/.test(l))
        .join('\n'),
    );
  console.log(
    `fuzzing: ${stat('number_of_executed_units')} executions in ${seconds} s, ` +
      `${stat('new_units_added')} new inputs, ${fuzzFailed ? 'a FINDING (input in build/fuzz-artifacts/)' : 'no finding'}`,
  );
  const p = executed - (replayFailed && executed > 0 ? 1 : 0) + (1 - fuzzFailed),
    f = replayFailed + fuzzFailed;
  passed += p;
  failed += f;
  summary.push(`fuzzing ${target}: ${p} passed, ${f} failed (${stat('number_of_executed_units')} executions)`);
}
// The C++ suites, each built here, beside node:test (`npm test` builds only the page first: node:test
// needs nothing else). The compilers run at the lowest priority (nice 19), so that the pages the
// browser tests wait on get the processor first and the builds take what is left. A build that
// fails fails its suite, with its log; `--quick` builds nothing (`npm run test:quick` has built
// the native suite).
function built(stage) {
  if (quick) return true;
  console.log(`\n=== build: ${stage} ===`);
  const r = timed(`build ${stage}`, () => run('nice', ['-n', '19', 'bash', 'scripts/build.sh', stage]));
  if (r.code === 0) return true;
  console.log(r.out);
  failed += 1;
  summary.push(`build ${stage}: failed`);
  return false;
}

if (built('native')) {
  timed('doctest, native', () => ctest('doctest, native', 'build/native'));
  doctestCases('build/native/core_tests_native');
}
// Each replayed input and each fuzzing run checks something of its own: one check each.
let fuzzChecks = 0;
if (!quick && built('sanitize')) {
  timed('doctest, ASan + UBSan', () => ctest('doctest, native with ASan + UBSan (clang-14)', 'build/sanitize'));
  doctestCases('build/sanitize/core_tests_sanitize');
  timed('fuzzing', () => {
    const before = passed + failed;
    for (const [target, seconds] of FUZZ_TARGETS) fuzz(target, seconds);
    fuzzChecks = passed + failed - before;
  });
}
if (!quick && built('wasm-tests')) {
  timed('doctest, wasm', () =>
    ctest('doctest, wasm (SIMD128, scalar and relaxed SIMD, under Node)', 'build/wasm-cmake'),
  );
  for (const build of ['simd', 'scalar']) doctestCases(process.execPath, [`build/wasm-cmake/core_tests_${build}.cjs`]);
  doctestCases(process.execPath, ['--experimental-wasm-relaxed-simd', 'build/wasm-cmake/core_tests_relaxed.cjs']);
}

console.log(`\n=== node:test (${nodeTestDirs.join(', ')}; ${FILE_CONCURRENCY} files at a time) ===`);
const nodeCode = await nodeTest;
await browserHost?.close();
stageTimes.push(`node:test: ${seconds(nodeTestStarted)} (beside the stages above)`);
console.log(fs.existsSync(nodeTestLog) ? fs.readFileSync(nodeTestLog, 'utf8') : '(no report)');
const records = fs.existsSync(nodeTestRecord)
  ? fs
      .readFileSync(nodeTestRecord, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
const np = records.filter((r) => r.passed && !r.skipped).length;
let nf = records.filter((r) => !r.passed).length;
if (nodeCode !== 0 && nf === 0) nf = 1; // a file that failed before any test ended still fails the run
for (const r of records) checks.add(`node:test\u0000${checkKey({ ...r, file: path.relative(root, r.file) })}`);
passed += np;
failed += nf;
summary.push(`node:test: ${np} passed, ${nf} failed`);

console.log('\n=== summary ===');
for (const line of summary) console.log(`  ${line}`);
console.log(`time: ${seconds(started)} (${stageTimes.join('; ')})`);
console.log(`checks: ${checks.size + fuzzChecks}, runs: ${passed + failed}`);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
