// The labs in what ships, in Chromium and in Firefox: each of the four views from the single
// offline file (file://, every network request blocked — and none attempted), the cost lab timing
// in its Blob-URL worker under the file's Content-Security-Policy, and a lab embedded in a blog
// post's <iframe sandbox="allow-scripts"> from the hosted build behind python3 -m http.server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { frameUntil, inEachEngine } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;

let site, blog;
before(async () => {
  site = await pythonServer('dist/site');
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>为什么除以 √dₖ</title></head>
<body style="max-width: 760px; margin: 1rem auto">
<p>试试看:把 dₖ 调大。</p>
<iframe id="lab" data-attention-playground src="${site.url}index.html#embed=1&view=scale-lab&labdk=256"
  sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 200px; border: 0"></iframe>
<iframe id="cost" data-attention-playground src="${site.url}index.html#embed=1&view=cost-lab&costmax=128"
  sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 200px; border: 0"></iframe>
<script src="${site.url}embed.js"></script>
</body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await blog?.stop();
});

inEachEngine((name, driver) => {
  test(`${name}: every view works from the offline file with no request at all`, async () => {
    const page = await driver.newPage({ blockNetwork: true });
    await page.goto(`${FILE}#view=scale-lab&labdk=256`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    const variance = await page.evaluate(() =>
      Number(document.querySelector('.sl-hist.s-sqrt_dk .sl-measured').dataset.value),
    );
    assert.ok(Math.abs(variance - 1) < 0.1, `÷√dₖ variance ${variance}`);

    // The cost lab: its worker starts from a Blob URL (the file's CSP allows only that) and times.
    await page.click('#views a[data-view="cost-lab"]');
    await page.until(() => document.body.dataset.view === 'cost-lab');
    await page.evaluate(() => {
      document.getElementById('cost-max').value = '128';
      document.getElementById('cost-max').dispatchEvent(new Event('change'));
    });
    await page.click('#cost-run');
    await page.until(() => document.querySelector('.lab-cost-lab').dataset.status === 'done', undefined, 60000);
    assert.equal(await page.evaluate(() => document.getElementById('cost-where').dataset.mode), 'worker');
    assert.equal(
      await page.evaluate(
        () => document.querySelectorAll('#cost-times td:not(.pending):not(.skipped):not(.over)').length,
      ),
      6,
      'n = 64 and 128 on three paths',
    );

    // The exercise: the worked example's S₁₁ = 1.
    await page.click('#views a[data-view="exercise"]');
    await page.until(() => document.body.dataset.view === 'exercise');
    await page.click('#ex-answer');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.getElementById('ex-verdict').classList.contains('correct')), true);

    // And back to the steps, at the weights.
    await page.click('#views a[data-view="steps"]');
    await page.click('.step-link[data-step="8"]');
    assert.equal(
      await page.evaluate(() => document.querySelector('figure.matrix[data-name="weights"] td.c').textContent),
      '0.6698',
    );

    const others = page.requests.filter((url) => url.replace(/#.*$/, '') !== FILE && !url.startsWith('blob:'));
    assert.deepEqual(others, [], 'no request attempted');
    assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
    await page.closeAll();
  });

  test(`${name}: a lab embedded in <iframe sandbox="allow-scripts"> shows itself alone and sizes its frame`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 800 } });
    await page.goto(`${blog.url}post.html`);
    await page.until(
      () => ['lab', 'cost'].every((id) => document.getElementById(id).dataset.ready === 'true'),
      undefined,
      20000,
    );
    const frame = await (await page.$('#lab')).contentFrame();
    assert.equal(await frame.evaluate(() => self.origin), 'null');
    const shown = await frame.evaluate(() => ({
      view: document.body.dataset.view,
      header: getComputedStyle(document.querySelector('.top')).display,
      views: getComputedStyle(document.getElementById('views')).display,
      variance: Number(document.querySelector('.sl-hist.s-none .sl-measured').dataset.value),
      height: document.documentElement.getBoundingClientRect().height,
    }));
    assert.equal(shown.view, 'scale-lab');
    assert.deepEqual([shown.header, shown.views], ['none', 'none'], 'the lab alone');
    assert.ok(Math.abs(shown.variance - 256) < 25.6);
    const outer = await page.evaluate(() => document.getElementById('lab').getBoundingClientRect().height);
    assert.ok(Math.abs(outer - shown.height) <= 2, `the frame (${outer}px) is as tall as the lab (${shown.height}px)`);

    // The cost lab in the sandbox times too, in a worker or, where none may start, on the frame's thread.
    const cost = await (await page.$('#cost')).contentFrame();
    await cost.click('#cost-run');
    // A deadline, not a speed: a run of the lab's sizes on a busy machine's frame thread can take minutes.
    await frameUntil(name, cost)(
      () => document.querySelector('.lab-cost-lab').dataset.status === 'done',
      undefined,
      240000,
    );
    assert.ok(
      ['worker', 'main-thread'].includes(await cost.evaluate(() => document.getElementById('cost-where').dataset.mode)),
    );
    assert.equal(
      await cost.evaluate(
        () => document.querySelectorAll('#cost-times td:not(.pending):not(.skipped):not(.over)').length,
      ),
      6,
    );
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
