// Taking results away, in Debian's Chromium: the files the export buttons download (the NumPy
// script run with Debian's /usr/bin/python3 prints the page's A and AV; the JSON holds the numbers
// the page shows; CSV one block per matrix; a real PNG), none of them in an embed, and the printed
// handout — the nine steps with the worked example's 0.6698 and 6.698, or blank cells from the
// exercise view — as an A4 PDF.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openBrowser, matrixText } from './helpers.mjs';

const PYTHON = '/usr/bin/python3'; // Debian's, with python3-numpy (scripts/bootstrap.sh)
let b, dir;
before(async () => {
  b = await openBrowser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-downloads-'));
});
after(async () => {
  await b?.close();
});

/** A page that may download, whose print dialog is replaced by a counter (headless has none). */
async function openForExport(hash) {
  const context = await b.browser.newContext({
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
  });
  await context.addInitScript(() => {
    window.print = () => {
      window.printed = (window.printed ?? 0) + 1;
    };
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(b.url + hash);
  await page.waitForSelector('body[data-ready="true"]');
  page.problems = problems;
  return page;
}

async function save(page, kind) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#export-${kind}`)]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** The matrices a NumPy export prints: "A" then its rows, "AV" then its rows. */
function printed(text) {
  const out = {};
  let name = null;
  for (const line of text.trim().split('\n')) {
    if (/^\s/.test(line)) out[name].push(line.trim().split(/\s+/));
    else out[(name = line.trim())] = [];
  }
  return out;
}

for (const [what, hash] of [
  ['the worked example', '#step=9'],
  ['"它 是 猫" from X with the causal mask', '#step=9&preset=cat&mask=causal'],
]) {
  test(`NumPy: the downloaded script of ${what}, run with python3, prints the page's A and AV`, async () => {
    const page = await openForExport(hash);
    const file = await save(page, 'numpy');
    assert.match(
      path.basename(file),
      /^attention-(article|cat-causal)-step9\.py$/,
      'named for the example and its options',
    );
    const out = printed(execFileSync(PYTHON, [file], { encoding: 'utf8' }));
    const minus = (rows) => rows.map((row) => row.map((x) => x.replace(/^-0$/, '0')));
    assert.deepEqual(minus(out.A), await matrixText(page, 'weights'));
    assert.deepEqual(minus(out.AV), await matrixText(page, 'output'));
    if (hash === '#step=9')
      assert.deepEqual(out.AV, [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ]);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('JSON holds every number the page shows, CSV one block per matrix, PNG is an image of the step', async () => {
  const page = await openForExport('#step=4&preset=cat');
  const json = JSON.parse(fs.readFileSync(await save(page, 'json'), 'utf8'));
  assert.equal(json.format, 'attention-playground/1');
  assert.deepEqual(json.options, { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' });
  // Step through all nine and compare each matrix on screen with the file, to the digits shown.
  const seen = new Set();
  for (let step = 1; step <= 9; step++) {
    if (step > 1) await page.keyboard.press('ArrowRight');
    else await page.click('.step-link[data-step="1"]');
    for (const name of await page.$$eval('#stage-body figure.matrix[data-name]', (figs) =>
      figs.map((f) => f.dataset.name),
    )) {
      const data = json.steps[name]?.data ?? json.inputs[name]?.data;
      if (!data) continue; // the article's own exp (beside the stable one) is not an intermediate of the core
      const shown = await matrixText(page, name);
      const digits = shown
        .flat()
        .find((x) => x.includes('.'))
        ?.replace(/^-?0?\./, '').length;
      const shape = [shown.length, shown[0].length];
      assert.deepEqual([data.length, data[0].length], shape, `${name}'s shape`);
      data.forEach((row, i) =>
        row.forEach((x, j) => {
          const onPage = Number(shown[i][j]);
          assert.ok(
            Math.abs(x - onPage) <= Math.max(Math.abs(onPage), 1) * 1e-3,
            `${name}[${i}][${j}]: file ${x}, page ${shown[i][j]} (${digits} digits)`,
          );
        }),
      );
      seen.add(name);
    }
  }
  for (const name of ['x', 'wq', 'q', 'scores', 'scaled', 'shifted', 'exps', 'weights', 'output'])
    assert.ok(seen.has(name), `${name} compared`);

  const csv = fs.readFileSync(await save(page, 'csv'), 'utf8');
  const headers = csv
    .trim()
    .split(/\n\s*\n/)
    .map((block) => block.split('\n')[0]);
  // "它 是 猫" has words: their block comes first (web/src/labs/export/csv.js), then the matrices.
  assert.deepEqual(headers.slice(0, 5), ['words,1,3', 'x,3,4', 'wq,4,4', 'wk,4,4', 'wv,4,4']);
  assert.ok(headers.includes('weights,3,3') && headers.includes('output,3,4'));

  const png = fs.readFileSync(await save(page, 'png'));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(width > 600 && height > 150, `${width}×${height}: the step's matrices at twice the size`);
  assert.match(await page.textContent('#export-status'), /attention-cat-step9\.png/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('no export in an embed, and only the worksheet in the exercise', async () => {
  const page = await openForExport('#embed=1&step=8');
  assert.equal(await page.isVisible('#export-bar'), false);
  await page.goto(b.url + '#view=exercise');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.isVisible('#export-numpy'), false);
  assert.equal(await page.textContent('#print-handout'), '打印练习纸');
  await page.context().close();
});

test("the handout: the nine steps with the worked example's numbers on A4; the worksheet leaves them blank", async () => {
  const page = await openForExport('#step=5');
  await page.click('#print-handout');
  // The handout's code loads at the first print (web/src/parts.js): the dialog is asked for then.
  await page.waitForFunction(() => window.printed === 1);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.isVisible('#stage'), false, 'only the handout is printed');
  const titles = await page.$$eval('#handout .handout-step h2', (hs) => hs.map((x) => x.textContent));
  assert.equal(titles.length, 9);
  assert.equal(titles[0], '1. 输入矩阵 X');
  const cells = (name) =>
    page.$$eval(`#handout table[data-name="${name}"] td`, (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await cells('weights'), ['0.6698', '0.3302', '0.3302', '0.6698']);
  assert.deepEqual(await cells('output'), ['6.698', '3.302', '3.302', '6.698']);
  assert.ok(
    (await page.$$eval('#handout .handout-formula .katex', (f) => f.length)) >= 9,
    'each step with its formula',
  );
  const pdf = await page.pdf({ format: 'A4' });
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 1 && pages <= 4, `${pages} A4 pages`);

  await page.emulateMedia({ media: 'screen' });
  await page.click('#views a[data-view="exercise"]');
  await page.click('#print-handout');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.textContent('#handout h1'), '动手算一算:练习纸');
  assert.deepEqual(await cells('q'), ['1', '0', '0', '1'], 'the inputs are given');
  assert.deepEqual(await cells('weights'), ['', '', '', ''], 'the weights are for the learner');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
