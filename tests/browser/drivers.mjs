// Two browser engines behind one small interface, for the tests of what ships (dist/): Debian's
// chromium through playwright-core, and Debian's firefox-esr through puppeteer-core over
// WebDriver BiDi. Both drivers offer the same page methods these tests use (goto, evaluate,
// waitForSelector, click, keyboard.press, frames, reload); what differs — launching, blocking the
// network, listening to requests, waiting for a condition (`page.until(fn, arg)`) — is wrapped here.
//
// Every page records in `page.problems`: console errors, uncaught page errors, failed requests and
// Content-Security-Policy violations (reported by a listener installed before any page script).

import { describe, before, after } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromiumForFile } from './chromium.mjs';
import { firefoxForFile } from './firefox.mjs';

export { CHROMIUM_ARGS, chromiumForFile } from './chromium.mjs';

// Runs in every document (frames included) before its own scripts.
const REPORT_CSP = () => {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.documentURI}`);
  });
};

function watch(page, problems) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => {
    if (!page.expectFailures) problems.push(`requestfailed: ${req.url().slice(0, 120)}`);
  });
}

/** Chromium (playwright-core). Each page gets its own context. */
async function launchChromium() {
  const browser = await chromiumForFile();
  return {
    name: 'chromium',
    browser,
    /**
     * A new page. blockNetwork: every request is aborted at the browser-context level (the
     * page's own file:// document is not a network request and still loads). `requests` lists
     * every request the page attempted (the top document included).
     */
    async newPage({ blockNetwork = false, viewport = { width: 1280, height: 900 }, permissions, initScript } = {}) {
      const context = await browser.newContext({ viewport, permissions, reducedMotion: 'reduce' });
      if (initScript) await context.addInitScript(initScript);
      if (blockNetwork) {
        await context.route('**/*', (route) => {
          const req = route.request();
          // The file:// document itself is the page, not a network request: let it through.
          if (
            req.isNavigationRequest() &&
            req.url().startsWith('file:') &&
            req.frame() === req.frame().page().mainFrame()
          )
            route.continue();
          else route.abort();
        });
      }
      await context.addInitScript(REPORT_CSP);
      const page = await context.newPage();
      page.problems = [];
      page.requests = [];
      page.on('request', (req) => page.requests.push(req.url()));
      watch(page, page.problems);
      page.closeAll = () => context.close();
      page.until = frameUntil('chromium', page);
      page.setOffline = (offline) => context.setOffline(offline);
      page.nextPage = () => context.waitForEvent('page');
      return page;
    },
    close: () => browser.close(),
  };
}

/**
 * A frame's (or page's) waitForFunction as page.until has it, (fn, arg, timeout): the two drivers
 * order its arguments differently (Playwright: fn, arg, options; puppeteer: fn, options, arg).
 */
export const frameUntil = (name, frame) =>
  name === 'chromium'
    ? (fn, arg, timeout = 10000) => frame.waitForFunction(fn, arg, { timeout })
    : (fn, arg, timeout = 10000) => frame.waitForFunction(fn, { timeout }, arg);

/** Firefox ESR (puppeteer-core over WebDriver BiDi). */
async function launchFirefox() {
  const { browser, release } = await firefoxForFile();
  return {
    name: 'firefox',
    browser,
    async newPage({ blockNetwork = false, viewport = { width: 1280, height: 900 }, initScript } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(viewport);
      if (initScript) await page.evaluateOnNewDocument(initScript);
      await page.evaluateOnNewDocument(REPORT_CSP);
      page.problems = [];
      page.requests = [];
      if (blockNetwork) await page.setRequestInterception(true);
      page.on('request', (req) => {
        page.requests.push(req.url());
        if (!blockNetwork || req.isInterceptResolutionHandled()) return;
        // The file:// document itself is the page, not a network request: let it through.
        if (req.isNavigationRequest() && req.url().startsWith('file:') && req.frame() === page.mainFrame())
          req.continue();
        else req.abort();
      });
      watch(page, page.problems);
      page.closeAll = () => context.close();
      page.until = frameUntil('firefox', page);
      page.nextPage = () => new Promise((resolve) => browser.once('targetcreated', (target) => resolve(target.page())));
      return page;
    },
    close: release,
  };
}

/** Both engines (the bootstrap installs both; a missing one fails its tests rather than skipping them). */
export const DRIVERS = { chromium: launchChromium, firefox: launchFirefox };

/**
 * The tests of `body(name, driver)` in each engine: one describe() per browser, which is launched
 * before its first test and closed after its last. `driver` fills in then (newPage, close, …).
 * For the suites that exist to catch what differs between engines: the shipped files, the worker,
 * clocks, CSS layout, the offline file and the embeds.
 */
export function inEachEngine(body) {
  inEngines(Object.keys(DRIVERS), body);
}

/**
 * The same in Chromium alone, for the interaction suites: a click, a key, a drag or an edit runs the
 * page's own code, which is the same in every engine, and their Firefox halves never found a
 * Firefox-only defect while they doubled the suites' time. What differs between engines is caught
 * by the inEachEngine suites, which open the same views in both.
 */
export function inChromium(body) {
  inEngines(['chromium'], body);
}

function inEngines(names, body) {
  for (const name of names) {
    const launch = DRIVERS[name];
    describe(name, () => {
      const driver = {};
      before(async () => {
        Object.assign(driver, await launch());
      });
      after(async () => {
        await driver.close?.();
      });
      body(name, driver);
    });
  }
}

/** Sets a form field's value as typing or choosing would, firing its input and change events. */
export function setField(page, selector, value) {
  return page.evaluate(
    ([sel, v]) => {
      const el = document.querySelector(sel);
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [selector, value],
  );
}

/** Types `value` into X's cell (i, j) as a reader does, one input event: the page renders within it. */
export const typeIntoX = (page, i, j, value) =>
  page.evaluate(
    ([id, text]) => {
      const input = document.getElementById(id);
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [`in-x-${i}-${j}`, String(value)],
  );

/** The numbers of one matrix on screen, as the page writes them (typographic minus → '-'). */
export function matrixIn(pageOrFrame, name) {
  return pageOrFrame.evaluate(
    (n) =>
      [...document.querySelectorAll(`figure.matrix[data-name="${n}"] tbody tr:not(.foot)`)].map((tr) =>
        [...tr.querySelectorAll('td.c:not(.side)')].map((td) => td.textContent.replace(/\u2212/g, '-')),
      ),
    name,
  );
}

/**
 * The text of the step on screen. The stage keeps other steps' matrices and formulas laid out but
 * not drawn (web/src/views/panes.js, class "kept"): they are left out, as a reader never sees them.
 */
export function stageText(pageOrFrame) {
  return pageOrFrame.evaluate(() => {
    const copy = document.getElementById('stage-body').cloneNode(true);
    for (const kept of copy.querySelectorAll('.kept')) kept.remove();
    return copy.textContent;
  });
}

/**
 * Waits until the URL hash of `page` (a driver's or openBrowser's) says step `n`: the page writes
 * the URL once the frame that shows a step is painted. Fails with the step the URL says.
 */
export async function stepInUrl(page, n, message = 'the step in the URL') {
  try {
    const says = (k) => Number(/(?:^#|&)step=(\d+)/.exec(location.hash)?.[1]) === k;
    await (page.until ? page.until(says, n) : page.waitForFunction(says, n, { timeout: 10000 }));
  } catch {
    const hash = await page.evaluate(() => location.hash);
    throw new Error(`${message}: expected step=${n}, the URL is ${hash}`);
  }
}

/**
 * Waits for two frames and a task after them: by then the page has written into the URL what it
 * was showing when this was called — a step, a view or a choice; not typing into a cell, which
 * the URL follows 250 ms later (web/src/controller/url-sync.js).
 */
export function urlWritten(page) {
  return page.evaluate(async () => {
    const frame = () => new Promise(requestAnimationFrame);
    await frame();
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** The self-contained offline file, as a URL to open. */
export const OFFLINE_FILE = pathToFileURL('dist/attention-playground.html').href;

/**
 * A page of `driver` on the offline file at `hash`, with the network blocked, once the page has
 * computed its first result. `viewport` as newPage takes it.
 */
export async function openOfflineFile(driver, hash, { viewport } = {}) {
  const page = await driver.newPage({ blockNetwork: true, ...(viewport ? { viewport } : {}) });
  await page.goto(OFFLINE_FILE + hash);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return page;
}

/**
 * Run in a page (an init script): each <a download> the page clicks is kept in `window.downloads`
 * — { name: its download attribute, href, blob: the Blob behind it when the page made its blob:
 * URL, else null } — and not followed. (puppeteer-core's Firefox over WebDriver BiDi has no download
 * event: the download is caught where the page makes it.)
 */
export const CATCH_DOWNLOADS = () => {
  window.downloads = [];
  const blobs = new Map(); // the page's CSP rightly refuses to fetch a blob: URL, so each is kept as made
  const objectUrl = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    const url = objectUrl(blob);
    blobs.set(url, blob);
    return url;
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (!this.hasAttribute('download')) return click.call(this);
    window.downloads.push({ name: this.getAttribute('download'), href: this.href, blob: blobs.get(this.href) ?? null });
  };
};

/**
 * Run in a page (an init script, or evaluated): each export's download is caught — its text kept
 * in `window.exported`, nothing saved.
 */
export const CATCH_EXPORTS = () => {
  window.exported = [];
  const objectUrl = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    blob.text().then((text) => window.exported.push(text));
    return objectUrl(blob);
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (!this.hasAttribute('download')) click.call(this);
  };
};
