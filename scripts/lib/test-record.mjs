// A node:test reporter that writes one JSON line per test that ended: its file, the names of the
// suites around it and its own, and whether it passed. scripts/run-tests.mjs reads the lines to
// count runs (every test that ran) apart from checks (a test run once per engine or per wasm build
// is one check: the describe() levels and name prefixes that only say which engine or build ran it
// are dropped, in checkKey).
//
// A test ends before the suite around it, so the suites' names are filled in as they end: each
// file's tests wait in `pending` until the suite at nesting 0 around them has ended (the order of
// the start events is not to be relied on when files run side by side).

const pending = new Map(); // file → [{ record, nesting }]

export default async function* testRecord(source) {
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const file = data.file ?? '';
    if (!pending.has(file)) pending.set(file, []);
    const waiting = pending.get(file);
    // Every test below this one that ended since is inside it: it gets this one's name at this level.
    for (const entry of waiting)
      if (entry.nesting > data.nesting && entry.record.suites[data.nesting] === undefined)
        entry.record.suites[data.nesting] = data.name;
    if (data.details?.type !== 'suite') {
      const record = {
        file,
        suites: new Array(data.nesting),
        name: data.name,
        passed: type === 'test:pass',
        skipped: Boolean(data.skip || data.todo),
        cancelled: data.details?.error?.failureType === 'cancelledByParent',
      };
      waiting.push({ record, nesting: data.nesting });
    }
    if (data.nesting === 0) {
      for (const { record } of waiting) yield `${JSON.stringify(record)}\n`;
      waiting.length = 0;
    }
  }
  for (const waiting of pending.values()) for (const { record } of waiting) yield `${JSON.stringify(record)}\n`;
}

const ENGINE_OR_BUILD = /^(chromium|firefox|relaxed build|simd build|scalar build)$/;
const PREFIX = /^(chromium|firefox|relaxed|simd|scalar)( build)?: /;

/** The check a recorded run belongs to: its file and names, less what only says the engine or build. */
export function checkKey({ file, suites, name }) {
  const names = [...suites.map((s) => s ?? '').filter((s) => !ENGINE_OR_BUILD.test(s)), name].map((n) =>
    n.replace(PREFIX, ''),
  );
  return `${file}\u0000${names.join('\u0000')}`;
}
