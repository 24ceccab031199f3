// A node:test reporter that writes one JSON line per test that ended: its file, the names of the
// suites around it and its own, and whether it passed. scripts/run-tests.mjs reads the lines to
// count runs (every test that ran) apart from checks (a test run once per engine or per wasm build
// is one check: the describe() levels and name prefixes that only say which engine or build ran it
// are dropped, in checkKey).
//
// node:test hands a reporter each file's events in order: a test's start, then its subtests',
// then its end; so a stack per file, indexed by nesting, names the suites around a test.

const stacks = new Map();

export default async function* testRecord(source) {
  for await (const event of source) {
    const { type, data } = event;
    if (type !== 'test:start' && type !== 'test:pass' && type !== 'test:fail') continue;
    const file = data.file ?? '';
    if (!stacks.has(file)) stacks.set(file, []);
    const stack = stacks.get(file);
    if (type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
      continue;
    }
    if (data.details?.type === 'suite') continue;
    const suites = stack.slice(0, data.nesting);
    const cancelled = data.details?.error?.failureType === 'cancelledByParent';
    const skipped = Boolean(data.skip || data.todo);
    yield `${JSON.stringify({ file, suites, name: data.name, passed: type === 'test:pass', skipped, cancelled })}\n`;
  }
}

const ENGINE_OR_BUILD = /^(chromium|firefox|relaxed build|simd build|scalar build)$/;
const PREFIX = /^(chromium|firefox|relaxed|simd|scalar)( build)?: /;

/** The check a recorded run belongs to: its file and names, less what only says the engine or build. */
export function checkKey({ file, suites, name }) {
  const names = [...suites.filter((s) => !ENGINE_OR_BUILD.test(s)), name].map((n) => n.replace(PREFIX, ''));
  return `${file}\u0000${names.join('\u0000')}`;
}
