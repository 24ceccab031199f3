// Shared set-up of the browser tests of the development page: Debian's chromium through
// playwright-core, the page served from build/web on an ephemeral port, console errors and CSP
// violations collected, screenshots saved. (What ships, dist/, is tested through drivers.mjs.)

import fs from 'node:fs';
import path from 'node:path';
import { before, after } from 'node:test';
import { startServer } from '../../scripts/serve.mjs';
import { chromiumForFile } from './drivers.mjs';

export { stageText, stepInUrl, urlWritten } from './drivers.mjs';

export const SCREENSHOTS = 'test-results/screenshots';

/**
 * Starts the server and the browser once per test file; returns helpers and a close(). `root`:
 * the development page's folder (the benchmarks serve a copy, which no build replaces mid-run).
 */
export async function openBrowser({ root = 'build/web' } = {}) {
  if (!fs.existsSync(path.join(root, 'index.html')))
    throw new Error(`${root}/index.html is missing — run \`bash scripts/build.sh\` first`);
  const server = await startServer({ root });
  const browser = await chromiumForFile();
  return {
    url: server.url,
    browser,
    /**
     * A fresh page (own context) at `hash`, waiting until the page has computed its first result.
     * `initScript`: a function run in the page before its own scripts (to take a feature away).
     */
    async open(
      hash = '',
      {
        colorScheme = 'light',
        viewport = { width: 1360, height: 900 },
        permissions,
        reducedMotion = 'reduce',
        initScript,
      } = {},
    ) {
      const context = await browser.newContext({ colorScheme, viewport, permissions, reducedMotion });
      if (initScript) await context.addInitScript(initScript);
      // Content-Security-Policy violations become console errors, which every test checks for.
      await context.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'}`),
        ),
      );
      const page = await context.newPage();
      const problems = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('requestfailed', (req) => problems.push(`requestfailed: ${req.url()}`));
      await page.goto(server.url + hash);
      // A deadline, not a speed: at a load average of 30–45 on two cores the page has taken over 15 s to start.
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
      // A lab's code loads after the first numbers (web/src/parts.js): in a lab, the page has
      // started once the lab's body is there (or the reason it failed to load).
      await page.waitForFunction(
        () => {
          const body = document.getElementById('lab-body');
          return !body || body.hidden || body.childNodes.length > 0;
        },
        undefined,
        { timeout: 60000 },
      );
      page.problems = problems;
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

const AXE = fs.readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/**
 * axe-core's violations on the page, as "rule (impact): where" lines; `impacts` keeps only those
 * (e.g. ['serious', 'critical']), all of them by default. axe is evaluated through the driver, not
 * added as a <script>: the page's Content-Security-Policy (rightly) refuses inline scripts it does not know.
 */
export async function axeViolations(page, { impacts } = {}) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => !impacts || impacts.includes(v.impact))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * The browser and server of one test file: started before its first test, closed after its last.
 * The returned object fills in then (url, browser, open, close of openBrowser).
 */
export function browserForFile() {
  const shared = {};
  before(async () => {
    Object.assign(shared, await openBrowser());
  });
  after(async () => {
    await shared.close?.();
  });
  return shared;
}

export async function screenshot(page, name, { fullPage = true } = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** The numbers of one matrix on screen, as the page writes them (typographic minus → '-'). */
export async function matrixText(page, name) {
  return page.$$eval(`figure.matrix[data-name="${name}"] tbody tr:not(.foot)`, (rows) =>
    rows.map((tr) => [...tr.querySelectorAll('td.c:not(.side)')].map((td) => td.textContent.replace(/\u2212/g, '-'))),
  );
}

/** What the page last said to screen readers (a lab writes it at the next frame: waited for). */
export async function announced(page) {
  await page.waitForFunction(() => document.getElementById('step-announce').textContent !== '');
  return page.textContent('#step-announce');
}
