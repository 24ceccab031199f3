// The run's browsers, as a process of their own: scripts/run-tests.mjs starts it before node:test
// with the number of files that run at once. It starts one Chromium and that many Firefoxes
// (chromium.mjs and firefox.mjs say why), writes one line — the environment that names them for
// the test files, as JSON — and closes them when its standard input ends (run-tests.mjs closes it
// after node:test, and so does its end if it is stopped). A process apart, because Playwright's
// browser server answers the files from the process that started it, and run-tests.mjs spends
// minutes in synchronous builds.

import { startSharedChromium } from './chromium.mjs';
import { startSharedFirefoxes } from './firefox.mjs';

const count = Number(process.argv[2] ?? 2);
const browsers = [await startSharedChromium(), await startSharedFirefoxes(count)];
process.stdout.write(`${JSON.stringify(Object.assign({}, ...browsers.map((b) => b.env)))}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await Promise.all(browsers.map((b) => b.close()));
  process.exit(0);
});
