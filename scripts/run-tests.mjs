// Runs every suite — the format check of the C++ and the JS, doctest natively, natively with ASan + UBSan (clang-14), doctest compiled to
// wasm (SIMD and scalar) under Node through CTest, the libFuzzer corpus and a bounded fuzzing run,
// then node:test over the JS API, the page's pure modules and the browser tests — and ends with
// one line that counts them all: "total: N passed, N failed".
// `npm test` builds first and then runs this.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'); // a path with spaces stays one
process.chdir(root);
let passed = 0,
  failed = 0;
const summary = [];

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
  summary.push(`format, ${name}: ${bad ? '0 passed, 1 failed' : '1 passed, 0 failed'}`);
}
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

ctest('doctest, native', 'build/native');
ctest('doctest, native with ASan + UBSan (clang-14)', 'build/sanitize');
ctest('doctest, wasm (SIMD128, scalar and relaxed SIMD, under Node)', 'build/wasm-cmake');

// libFuzzer (tests/fuzz/, built with ASan + UBSan in build/sanitize): for each target, first the
// committed corpus, each input once (one test each); then its seconds of fuzzing from it (one
// test), whose new inputs go to build/fuzz-corpus/<target> and any crashing input to
// build/fuzz-artifacts/. The minute of fuzzing is shared: the invariants of every entry point, and
// the differential target natively and on 4-lane SSE (the wasm layout).
const FUZZ_TARGETS = [
  ['fuzz_attention', 20],
  ['fuzz_differential', 20],
  ['fuzz_differential_sse', 20],
];
function fuzz(target, seconds) {
  const binary = `build/sanitize/${target}`;
  const corpus = 'tests/fuzz/corpus';
  console.log(`\n=== fuzzing: ${target} (libFuzzer, ASan + UBSan) ===`);
  const inputs = fs.readdirSync(corpus).map((f) => path.join(corpus, f));
  const replay = run(binary, inputs);
  const executed = (replay.out.match(/^Executed /gm) ?? []).length;
  const replayFailed = replay.code !== 0 ? 1 : 0;
  console.log(replayFailed ? replay.out : `corpus: ${executed} of ${inputs.length} inputs replayed, no finding`);
  const found = `build/fuzz-corpus/${target}`;
  fs.mkdirSync(found, { recursive: true });
  fs.mkdirSync('build/fuzz-artifacts', { recursive: true });
  const fuzzing = run(binary, [
    `-max_total_time=${seconds}`,
    '-timeout=20',
    '-rss_limit_mb=2048',
    '-max_len=4096',
    '-print_final_stats=1',
    '-artifact_prefix=build/fuzz-artifacts/',
    found,
    corpus,
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
for (const [target, seconds] of FUZZ_TARGETS) fuzz(target, seconds);

const dirs = ['tests/node', 'tests/web', 'tests/browser'].filter((d) => fs.existsSync(d));
console.log(`\n=== node:test (${dirs.join(', ')}) ===`);
fs.mkdirSync('build', { recursive: true });
const tap = 'build/node-test.tap';
const node = run(
  process.execPath,
  [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...dirs,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
const tapText = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
const count = (key) => Number(tapText.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
let np = count('pass'),
  nf = count('fail') + count('cancelled');
if (node.code !== 0 && nf === 0) nf = 1;
passed += np;
failed += nf;
summary.push(`node:test: ${np} passed, ${nf} failed`);

console.log('\n=== summary ===');
for (const line of summary) console.log(`  ${line}`);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
