// Embedding, as a blog author does it: a host page on one loopback origin embeds the hosted build
// (dist/site behind `python3 -m http.server`, another origin, no CORS headers) twice, in
// sandbox="allow-scripts" (an opaque origin) and in sandbox="allow-scripts allow-same-origin",
// with embed.js. In Chromium and in Firefox: each frame shows its step's numbers; its height is
// its content's, without an inner scrollbar, and follows a step change inside the frame; messages
// from other windows are ignored; the "Open in the playground" link opens the full page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, DRIVERS, matrixIn } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';

let site, blog;
before(async () => {
  site = await pythonServer('dist/site');
  const frame = (id, hash, sandbox) => `<iframe id="${id}" data-attention-playground src="${site.url}index.html#${hash}"
  sandbox="${sandbox}" title="Attention Playground" style="width: 100%; height: 200px; border: 0"></iframe>`;
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A post about attention</title></head>
<body style="max-width: 760px; margin: 1rem auto">
<h1>Scaled dot-product attention</h1>
<p>Here is the article's example at the weights step.</p>
${frame('opaque', 'embed=1&step=8&preset=article', 'allow-scripts')}
<p>And the scores, with the step navigation.</p>
${frame('same-origin', 'embed=1&step=3&preset=article&nav=1&lang=en', 'allow-scripts allow-same-origin')}
<p>Unsandboxed, with the input panel.</p>
<iframe id="plain" data-attention-playground src="${site.url}index.html#embed=1&step=9&preset=article&panel=1"
  title="Attention Playground" style="width: 100%; height: 200px; border: 0"></iframe>
<iframe id="stranger" srcdoc="<p>an ad</p>" style="width: 100%; height: 50px; border: 0"></iframe>
<script src="${site.url}embed.js"></script>
<script>
  window.received = [];
  addEventListener('message', (e) => { if (e.data && e.data.type) received.push(e.data); });
  document.getElementById('opaque').addEventListener('attention-playground:state', (e) => { window.lastState = e.detail.hash; });
</script>
</body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await blog?.stop();
});

/** The frame's own height, its content's height and whether it scrolls inside. */
function sizes(page, id) {
  return page.evaluate(async (frameId) => {
    const frame = document.getElementById(frameId);
    return { outer: frame.getBoundingClientRect().height, ready: frame.dataset.ready === 'true' };
  }, id);
}
async function contentOf(page, id) {
  const frame = await (await page.$(`#${id}`)).contentFrame();
  const inner = await frame.evaluate(() => ({
    content: document.documentElement.getBoundingClientRect().height,
    scrolls: document.documentElement.scrollHeight > window.innerHeight + 1,
  }));
  return { frame, ...inner };
}
async function fitsContent(page, id) {
  await page.until((frameId) => document.getElementById(frameId).dataset.ready === 'true', id, 20000);
  // On screen, as a reader scrolls to it: Chromium does not lay out a cross-origin frame below the
  // screen (nor run its ResizeObserver), so such a frame sizes itself when it comes into view.
  await page.evaluate((frameId) => document.getElementById(frameId).scrollIntoView(), id);
  // Polled: the sizes are in two documents (the frame may be on another origin). A generous
  // deadline, as for the page's own start: a busy machine may take a while to lay both out.
  for (const until = Date.now() + 20000; ;) {
    const { outer } = await sizes(page, id);
    const { frame, content, scrolls } = await contentOf(page, id);
    if (Math.abs(outer - content) <= 3 && !scrolls) return { frame, outer };
    if (Date.now() > until) assert.fail(`#${id}: frame ${outer}px, content ${content}px, scrolls: ${scrolls}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('chromium: the full page\'s "嵌入" button gives a snippet that embeds the current state', async () => {
  const driver = await DRIVERS.chromium();
  try {
    const page = await driver.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(`${site.url}index.html#step=6&preset=cat`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    assert.ok(await page.isVisible('#offline-link'), 'the hosted page offers the offline file');
    const offlineUrl = await page.evaluate(() => document.getElementById('offline-link').href);
    assert.equal(offlineUrl, `${site.url}attention-playground.html`);
    assert.equal((await fetch(offlineUrl)).status, 200, 'the offline file is next to the page');
    await page.click('#embed-button');
    assert.ok(await page.isVisible('#embed-dialog'));
    const snippet = await page.inputValue('#embed-snippet');
    assert.match(snippet, /<iframe data-attention-playground src="[^"]*index\.html#[^"]*embed=1[^"]*"/);
    assert.match(snippet, /step=6/);
    assert.match(snippet, /preset=cat/);
    assert.match(snippet, /sandbox="allow-scripts"/);
    assert.match(snippet, /title="[^"]+"/);
    assert.match(snippet, new RegExp(`<script src="${site.url}embed\\.js" async></script>`));
    await page.click('#embed-copy');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
    await page.keyboard.press('Escape');
    assert.ok(!(await page.isVisible('#embed-dialog')), 'Escape closes the dialog');
    // The snippet, pasted into a post as it is, works.
    blog.write(
      'pasted.html',
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>pasted</title>${snippet}`,
    );
    await page.goto(`${blog.url}pasted.html`);
    await page.until(() => document.querySelector('iframe').dataset.ready === 'true', undefined, 20000);
    const frame = await (await page.$('iframe')).contentFrame();
    assert.equal((await matrixIn(frame, 'exps')).length, 3, '"它 是 猫": three rows at the exp step');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  } finally {
    await driver.close();
  }
});

inEachEngine((name, driver) => {
  test(`${name}: two sandboxed frames show their steps and size themselves to their content`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(`${blog.url}post.html`);
    const { frame: opaque } = await fitsContent(page, 'opaque');
    const { frame: sameOrigin, outer: before } = await fitsContent(page, 'same-origin');
    assert.equal(await opaque.evaluate(() => self.origin), 'null', 'allow-scripts alone: an opaque origin');
    assert.equal(await sameOrigin.evaluate(() => self.origin), site.url.replace(/\/$/, ''));
    // The weights of the article's example in one, the scores in the other.
    assert.deepEqual(await matrixIn(opaque, 'weights'), [
      ['0.6698', '0.3302'],
      ['0.3302', '0.6698'],
    ]);
    assert.deepEqual(await matrixIn(sameOrigin, 'scores'), [
      ['1', '0'],
      ['0', '1'],
    ]);
    // Only the stage (and, with nav=1, the steps); the link to the full page is there.
    const shown = (f) =>
      f.evaluate(() =>
        ['.top', '#nav', '#panel', '.foot', '#embed-open'].map(
          (sel) => getComputedStyle(document.querySelector(sel)).display !== 'none',
        ),
      );
    assert.deepEqual(await shown(opaque), [false, false, false, false, true]);
    assert.deepEqual(await shown(sameOrigin), [false, true, false, false, true]);
    // Unsandboxed, panel=1: the input panel too, and an edit in it recomputes inside the frame.
    const { frame: plain } = await fitsContent(page, 'plain');
    assert.deepEqual(await shown(plain), [false, false, true, false, true]);
    await plain.click('#mask');
    await page.until(() =>
      window.received.some((m) => m.type === 'attention-playground:state' && /mask=causal/.test(m.hash)),
    );
    assert.deepEqual(
      (await matrixIn(plain, 'output'))[0],
      ['10.00', '0'],
      'causal: the first word sees only itself (one format across the matrix, beside 3.302)',
    );
    await fitsContent(page, 'plain');
    const link = await opaque.evaluate(() => {
      const a = document.getElementById('embed-open-link');
      return { href: a.href, target: a.target, text: a.textContent };
    });
    assert.equal(link.target, '_blank');
    assert.equal(link.text, '在演练场中打开');
    assert.doesNotMatch(link.href, /embed=/);
    assert.match(link.href, /step=8/);

    // A step change inside the frame: the frame follows its new content, and the host hears of it.
    await sameOrigin.click('#next');
    await page.until(() =>
      window.received.some((m) => m.type === 'attention-playground:state' && /step=4/.test(m.hash)),
    );
    const { outer: after } = await fitsContent(page, 'same-origin');
    assert.notEqual(Math.round(after), Math.round(before), 'step 4 is not as tall as step 3');
    assert.deepEqual(await matrixIn(sameOrigin, 'scaled'), [
      ['0.7071', '0'],
      ['0', '0.7071'],
    ]);
    for (const type of ['ready', 'resize', 'state']) {
      assert.ok(
        await page.evaluate((t) => window.received.some((m) => m.type === `attention-playground:${t}`), type),
        `a ${type} message`,
      );
    }
    assert.deepEqual(page.problems, [], 'no console errors, page errors or CSP violations, in the host or the frames');
    await page.closeAll();
  });

  test(`${name}: messages from other windows are ignored`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(`${blog.url}post.html`);
    const { outer } = await fitsContent(page, 'opaque');
    await page.evaluate(() => {
      const fake = { type: 'attention-playground:resize', height: 7 };
      window.postMessage(fake, '*'); // the host page itself
      const stranger = document.getElementById('stranger').contentWindow;
      // an unrelated frame on the page: it is not one of ours
      const script = stranger.document.createElement('script');
      script.textContent = `parent.postMessage(${JSON.stringify(fake)}, '*')`;
      stranger.document.body.append(script);
    });
    // Messages are delivered in the order they were posted, each to embed.js's listener before
    // this later one: when this one sees its own message, both fakes have been handled.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          addEventListener('message', function seen(e) {
            if (e.data !== 'test:after-the-fakes') return;
            removeEventListener('message', seen);
            requestAnimationFrame(() => resolve());
          });
          window.postMessage('test:after-the-fakes', '*');
        }),
    );
    assert.equal((await sizes(page, 'opaque')).outer, outer, 'the frame kept its height');
    assert.equal(await page.evaluate(() => document.getElementById('stranger').getBoundingClientRect().height), 50);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: "Open in the playground" opens the same state as a full page`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(`${blog.url}post.html`);
    const { frame } = await fitsContent(page, 'opaque');
    const opened = page.nextPage();
    await frame.click('#embed-open-link');
    const full = await opened;
    const fullProblems = [];
    full.on('console', (msg) => {
      if (msg.type() === 'error') fullProblems.push(msg.text());
    });
    await full.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    const url = full.url();
    assert.ok(url.startsWith(`${site.url}index.html#`), url);
    assert.doesNotMatch(url, /embed=/);
    assert.match(url, /step=8/);
    assert.ok(
      await full.evaluate(() => getComputedStyle(document.querySelector('.top')).display !== 'none'),
      'the full page, header and all',
    );
    assert.deepEqual([...page.problems, ...fullProblems], []);
    await page.closeAll();
  });
});
