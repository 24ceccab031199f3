// What looked broken to a new reader (issue 29), each checked where it is drawn, in the shipped
// offline file, in Chromium and in Firefox (layout and colours differ between engines):
//  - the heads overview's word lines in each head's colour, their head numbers side by side;
//  - on the AV step's word lines each weight beside its line, crossed by no line;
//  - the classroom pace field as wide as its placeholder ("留空:不自动翻页", not "留空:不");
//  - the dark theme's §3 choosers (q_i, k_j) readable: no serious axe finding on that step;
//  - at d_k = 256 the training lab's W_Q / W_K heatmaps with tick labels that do not overlap;
//  - the training lab's legend only in the race, each swatch with its run's name (one run showed
//    an orange swatch without a word);
//  - every view (the stepper and the four labs) without an axe finding, in the light and the dark theme;
//  - the zh popover headings of "它 是 猫" naming a word as “猫” (not 第 “猫” 个词), a cell on every step
//    (every kind of heading, numbered and worded: tests/web/explain-headings.test.mjs);
//  - the PNG export with the words, the heads' blocks and the masked cells the page shows, drawn
//    by each engine's canvas (where each is drawn: tests/web/export.test.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile, stepInUrl, OFFLINE_FILE, CATCH_DOWNLOADS } from './drivers.mjs';
import { axeViolations } from './helpers.mjs';
import { PNG_SIZES } from '../../web/src/labs/export/png.js';
import { HEAD_COLORS } from '../../web/src/head-colors.js';
import { offColor } from '../../web/src/colors.js';

/** [r, g, b] of a CSS colour written #rrggbb or rgb(r g b). */
const rgb = (css) =>
  css.startsWith('#') ? [1, 3, 5].map((k) => parseInt(css.slice(k, k + 2), 16)) : css.match(/\d+/g).map(Number);

/** True when two DOMRect-like boxes overlap by more than half a pixel each way. */
const overlap = (a, b) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** Pairs of boxes (with their texts) that overlap. */
function overlapping(boxes) {
  const found = [];
  boxes.forEach((a, k) => boxes.slice(k + 1).forEach((b) => overlap(a, b) && found.push(`${a.text} × ${b.text}`)));
  return found;
}

inEachEngine((name, driver) => {
  test(`${name}: the heads overview's lines are in their heads' colours, and their numbers stand apart`, async () => {
    const page = await openOfflineFile(driver, '#step=10&preset=heads');
    try {
      const drawn = await page.evaluate(() => {
        const box = ({ left, right, top, bottom }) => ({ left, right, top, bottom });
        const lines = [...document.querySelectorAll('#stage-body .heads-lines .head-line')].filter(
          (g) => g.getBoundingClientRect().width > 0,
        );
        return lines.map((g) => ({
          head: g.querySelector('.head-no').textContent,
          stroke: getComputedStyle(g.querySelector('line')).stroke,
          fill: getComputedStyle(g.querySelector('.head-no')).fill,
          number: { ...box(g.querySelector('.head-no').getBoundingClientRect()), text: g.getAttribute('aria-label') },
        }));
      });
      assert.ok(drawn.length >= 4, `${drawn.length} lines`);
      const strokeOf = new Map();
      for (const line of drawn) {
        if (!strokeOf.has(line.head)) strokeOf.set(line.head, line.stroke);
        assert.equal(line.stroke, strokeOf.get(line.head), `every line of head ${line.head} in one colour`);
        assert.equal(line.fill, line.stroke, 'its number in the same colour');
      }
      assert.deepEqual([...strokeOf.keys()].sort(), ['1', '2']);
      assert.notEqual(strokeOf.get('1'), strokeOf.get('2'), 'two heads, two colours');
      // Numbers of different heads never on top of one another (one head's repeated number may coincide).
      const numbers = drawn.map((line) => ({ ...line.number, text: `${line.head}: ${line.number.text}` }));
      const clashes = overlapping(numbers).filter(
        (pair) => pair.split(' × ').map((s) => s[0])[0] !== pair.split(' × ')[1][0],
      );
      assert.deepEqual(clashes, []);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });

  test(`${name}: on the AV step's word lines each weight is written beside its line, crossed by none`, async () => {
    const page = await openOfflineFile(driver, '#step=9&preset=cat');
    try {
      const { labels, crossed } = await page.evaluate(() => {
        const figure = [...document.querySelectorAll('#stage-body .word-lines')].find(
          (f) => f.getBoundingClientRect().width > 0,
        );
        const svg = figure.querySelector('svg');
        const texts = [...svg.querySelectorAll('.wl-weight')].map((t) => ({ text: t.textContent, box: t.getBBox() }));
        // Points along every line, each widened by half its stroke: a weight's box must hold none.
        const lines = [...svg.querySelectorAll('line')].map((l) => ({
          x1: l.x1.baseVal.value,
          y1: l.y1.baseVal.value,
          x2: l.x2.baseVal.value,
          y2: l.y2.baseVal.value,
          half: Number(l.getAttribute('stroke-width')) / 2,
          name: l.querySelector('title')?.textContent,
        }));
        const hits = [];
        for (const { text, box } of texts)
          for (const l of lines)
            for (let s = 0; s <= 1; s += 1 / 200) {
              const x = l.x1 + s * (l.x2 - l.x1),
                y = l.y1 + s * (l.y2 - l.y1);
              if (
                x + l.half > box.x &&
                x - l.half < box.x + box.width &&
                y + l.half > box.y &&
                y - l.half < box.y + box.height
              ) {
                hits.push(`${text} crossed by ${l.name}`);
                break;
              }
            }
        return { labels: texts.map((t) => t.text), crossed: hits };
      });
      assert.equal(labels.length, 3, 'the first word’s three weights');
      assert.deepEqual(crossed, []);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });

  test(`${name}: the classroom pace field shows its whole placeholder, in both languages`, async () => {
    for (const lang of ['zh-CN', 'en']) {
      const page = await openOfflineFile(driver, `#step=3&classroom=1&lang=${lang}`, {
        viewport: { width: 1280, height: 720 },
      });
      try {
        const fit = await page.evaluate(() => {
          const field = document.getElementById('classroom-pace');
          const style = getComputedStyle(field);
          const canvas = document.createElement('canvas').getContext('2d');
          canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return { text: field.placeholder, needs: canvas.measureText(field.placeholder).width, room };
        });
        assert.ok(fit.text.length > 3, fit.text);
        assert.ok(fit.needs <= fit.room, `${lang}: "${fit.text}" needs ${fit.needs} px, the field has ${fit.room}`);
      } finally {
        await page.closeAll();
      }
    }
  });

  test(`${name}: the dark theme's §3 choosers pass contrast (no serious axe finding on step 3)`, async () => {
    for (const theme of ['dark', 'light']) {
      const page = await openOfflineFile(driver, `#step=3&theme=${theme}`);
      try {
        await page.waitForSelector('#arrows-q');
        const colors = await page.evaluate(() => {
          const { color, backgroundColor } = getComputedStyle(document.getElementById('arrows-q'));
          return { color, backgroundColor };
        });
        assert.notEqual(colors.backgroundColor, 'rgb(107, 107, 107)', 'not the browser’s grey');
        assert.deepEqual(await axeViolations(page, { impacts: ['serious', 'critical'] }), [], theme);
      } finally {
        await page.closeAll();
      }
    }
  });

  test(`${name}: at d_k = 256 the W_Q and W_K heatmaps' tick labels do not overlap`, async () => {
    const page = await openOfflineFile(driver, '#view=train-lab&lang=en&traindk=256&trainsteps=100');
    try {
      await page.click('#train-step');
      await page.until(() => document.querySelectorAll('#train-params canvas.heatmap').length >= 2, undefined, 60000);
      const axes = await page.evaluate(() =>
        [...document.querySelectorAll('#train-params .heatmap-box')].flatMap((box) =>
          ['.hm-rows', '.hm-cols'].map((axis) => ({
            axis,
            canvas: box.querySelector('canvas').getBoundingClientRect().height,
            ticks: [...box.querySelectorAll(`${axis} span`)].map((span) => {
              const { left, right, top, bottom } = span.getBoundingClientRect();
              return { left, right, top, bottom, text: span.textContent };
            }),
          })),
        ),
      );
      assert.ok(axes.length >= 4, 'two heatmaps, two axes each');
      for (const { axis, ticks } of axes) {
        assert.ok(ticks.length >= 2, `${axis}: the first and the last at least`);
        assert.deepEqual(overlapping(ticks), [], axis);
      }
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });

  test(`${name}: the training lab's legend: none beside one run (no swatch without a word), both runs named in the race`, async () => {
    // Every legend swatch drawn, with the words beside it.
    const legend = (page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('#train-legend li')]
          .filter(
            (li) => li.getClientRects().length > 0 && li.querySelector('.train-swatch').getClientRects().length > 0,
          )
          .map((li) => li.textContent.trim()),
      );
    const drawn = (page) => page.until(() => Boolean(document.getElementById('train-chart-loss')), undefined, 60000);
    const one = await openOfflineFile(driver, '#view=train-lab&lang=en');
    try {
      await drawn(one);
      assert.deepEqual(await legend(one), [], 'one run: its colour needs no legend');
      assert.deepEqual(one.problems, []);
    } finally {
      await one.closeAll();
    }
    const race = await openOfflineFile(driver, '#view=train-lab&lang=en&trainscale=race');
    try {
      await drawn(race);
      await race.until(() => !document.getElementById('train-legend').hidden);
      assert.deepEqual(await legend(race), ['÷√dₖ', 'unscaled']);
      assert.deepEqual(race.problems, []);
    } finally {
      await race.closeAll();
    }
  });

  // Issue 29, item 5: "contrast (axe on every view in dark and light)". The stepper's every step is
  // swept in Chromium (a11y.test.mjs); here each view, in each theme, in this engine too.
  for (const theme of ['light', 'dark'])
    test(`${name}: axe finds nothing on every view in the ${theme} theme`, async () => {
      for (const [view, ready] of [
        ['steps', '#stage-body figure.matrix'],
        ['scale-lab', '.sl-hists svg'],
        ['cost-lab', '#cost-chart-time'],
        ['exercise', '.ex-figures figure.matrix'],
        ['train-lab', '#train-chart-loss'],
      ]) {
        const page = await openOfflineFile(driver, `#view=${view}&theme=${theme}&step=3`);
        try {
          await page.until((selector) => Boolean(document.querySelector(selector)), ready, 60000);
          assert.equal(
            await page.evaluate(() => document.documentElement.dataset.theme),
            theme,
            'the theme of the link',
          );
          assert.deepEqual(await axeViolations(page), [], `${view}, ${theme}`);
          assert.deepEqual(page.problems, []);
        } finally {
          await page.closeAll();
        }
      }
    });

  test(`${name}: the zh popover headings with the words of "它 是 猫" name a word as “猫”, on every step`, async () => {
    const page = await openOfflineFile(driver, '#preset=cat&step=1');
    try {
      const headings = [];
      for (let step = 1; step <= 9; step++) {
        if (step > 1) await page.evaluate((n) => (location.hash = `#preset=cat&step=${n}`), step);
        await stepInUrl(page, step);
        // The step's last cell that expands (the third word's row, where it has rows of words).
        const picked = await page.evaluate(() => {
          const cells = [...document.querySelectorAll('#stage-body td.pick')].filter((td) => !td.closest('.kept'));
          cells.at(-1)?.click();
          return cells.length;
        });
        if (!picked) continue;
        await page.until(() => !document.getElementById('cell-explain').hidden);
        headings.push(await page.evaluate(() => document.getElementById('explain-title').textContent));
        await page.keyboard.press('Escape'); // the next step's cell opens its own
        await page.until(() => document.getElementById('cell-explain').hidden);
      }
      assert.equal(headings.length, 8, 'every step but the first (X, which is typed) has cells that expand');
      // "第 "猫" 个词的输出" was the defect: a word's name inside 第 … 个词.
      for (const heading of headings) assert.doesNotMatch(heading, /第 “|” 个词|词 “|词 第|第 第/, heading);
      assert.equal(headings.at(-1), '“猫”的输出,第 4 维:按权重混合各词的 Value');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });

  test(`${name}: the PNG of a step draws its words, its heads' blocks and its masked cells`, async () => {
    // Counts the pixels of exactly `color` in a rectangle of the PNG last saved (in CSS pixels of
    // the drawing, which is saved at twice the size: png.js scale 2).
    const count = (page, color, [x0, y0, x1, y1]) =>
      page.evaluate(
        async ({ color, box }) => {
          const bitmap = await createImageBitmap(window.downloads.at(-1).blob);
          const canvas = Object.assign(document.createElement('canvas'), {
            width: bitmap.width,
            height: bitmap.height,
          });
          const ctx = canvas.getContext('2d');
          ctx.drawImage(bitmap, 0, 0);
          const [x, y, w, h] = [box[0] * 2, box[1] * 2, (box[2] - box[0]) * 2, (box[3] - box[1]) * 2];
          const { data } = ctx.getImageData(x, y, w, h);
          let found = 0;
          for (let k = 0; k < data.length; k += 4)
            if (data[k] === color[0] && data[k + 1] === color[1] && data[k + 2] === color[2]) found++;
          return found;
        },
        { color, box: [x0, y0, x1, y1] },
      );
    const exportPng = async (page) => {
      const before = await page.evaluate(() => window.downloads.length);
      await page.evaluate(() => document.getElementById('export-png').click());
      await page.until((n) => window.downloads.length > n, before, 30000);
      assert.match(await page.evaluate(() => window.downloads.at(-1).name), /\.png$/);
    };
    const { padding, title, words, band, cell } = PNG_SIZES;
    const muted = rgb('#555b66'); // the words' colour, the page's --muted (png.js MUTED.light)
    const head = (i) => rgb(HEAD_COLORS.light[i]);

    // "它 是 猫" with two heads, on the projections: X's rows carry their words, W_Q its heads' band.
    const projections = await driver.newPage({ blockNetwork: true, initScript: CATCH_DOWNLOADS });
    try {
      await projections.goto(`${OFFLINE_FILE}#preset=heads&mask=causal&step=2&theme=light`);
      await projections.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
      await exportPng(projections);
      // X is first: its words in the column left of its cells.
      const wordsOfX = [padding, padding + title, padding + words, padding + title + 3 * cell.height];
      assert.ok((await count(projections, muted, wordsOfX)) > 20, "X's rows carry 它 是 猫");
      // The heads' band: the line of each head's colour above the blocked matrices' columns.
      const bandRow = [0, padding + title, 4000, padding + title + band];
      for (const i of [0, 1]) assert.ok((await count(projections, head(i), bandRow)) > 20, `head ${i + 1}'s band`);
      assert.deepEqual(projections.problems, []);
    } finally {
      await projections.closeAll();
    }

    // The exponentials under a causal mask: the cells above the diagonal hatched.
    const masked = await driver.newPage({ blockNetwork: true, initScript: CATCH_DOWNLOADS });
    try {
      await masked.goto(`${OFFLINE_FILE}#preset=heads&mask=causal&step=7&theme=light`);
      await masked.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
      await exportPng(masked);
      // E is first, with its words beside and above: its cells start after both.
      const [cellsX, cellsY] = [padding + words, padding + title + band];
      const cellAt = (i, j) => [
        cellsX + j * cell.width,
        cellsY + i * cell.height,
        cellsX + (j + 1) * cell.width,
        cellsY + (i + 1) * cell.height,
      ];
      const hatch = rgb(offColor('light'));
      assert.ok((await count(masked, hatch, cellAt(0, 1))) > 20, 'E₁₂ (masked) is hatched');
      assert.equal(await count(masked, hatch, cellAt(1, 0)), 0, 'E₂₁ (kept) is not');
      assert.deepEqual(masked.problems, []);
    } finally {
      await masked.closeAll();
    }
  });
});
