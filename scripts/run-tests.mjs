// Runs every suite — doctest natively, doctest compiled to wasm (SIMD and scalar) under Node
// through CTest, then node:test over the JS API, the page's pure modules and the browser tests —
// and ends with one line that counts them all: "total: N passed, N failed".
// `npm test` builds first and then runs this.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');  // a path with spaces stays one
process.chdir(root);
let passed = 0, failed = 0;
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
  const out = r.out.replace(/\x1b\[[0-9;]*m/g, '');  // doctest colours its output under Node
  let p = 0, f = 0;
  for (const m of out.matchAll(/\[doctest\] test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed/g)) {
    p += Number(m[2]); f += Number(m[3]);
  }
  const lines = out.split('\n');
  const shown = code === 0
    ? lines.filter((l) => /\[doctest\] (test cases|assertions|Status)|tests passed|Test #/.test(l)).map((l) => l.replace(/^\d+: /, ''))
    : lines;
  console.log(shown.join('\n'));
  if (code !== 0 && f === 0) f = 1;  // a crash before doctest's summary still counts as a failure
  passed += p; failed += f;
  summary.push(`${name}: ${p} passed, ${f} failed`);
}

ctest('doctest, native', 'build/native');
ctest('doctest, wasm (SIMD128 and scalar, under Node)', 'build/wasm-cmake');

const dirs = ['tests/node', 'tests/web', 'tests/browser'].filter((d) => fs.existsSync(d));
console.log(`\n=== node:test (${dirs.join(', ')}) ===`);
fs.mkdirSync('build', { recursive: true });
const tap = 'build/node-test.tap';
const node = run(process.execPath, ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...dirs], { stdio: ['ignore', 'inherit', 'inherit'] });
const tapText = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
const count = (key) => Number(tapText.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
let np = count('pass'), nf = count('fail') + count('cancelled');
if (node.code !== 0 && nf === 0) nf = 1;
passed += np; failed += nf;
summary.push(`node:test: ${np} passed, ${nf} failed`);

console.log('\n=== summary ===');
for (const line of summary) console.log(`  ${line}`);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
