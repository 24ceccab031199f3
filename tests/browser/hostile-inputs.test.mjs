// Hostile input, as data: every field a reader can type into, the paste box and the URL hash, each
// with what it must do — refuse with a message that says why (in the page's language, at the
// field), accept, or accept with a notice. After every row the page still shows a result, nothing
// it was given ran as script, and nothing reached the console.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, stageText } from './helpers.mjs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh-CN.js';

const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
const long = 'x'.repeat(100000);
const shortened = `${'x'.repeat(24)}…`; // how a message quotes text that long
const injection = '<img src=x onerror="window.__injected = true">';
const size = fill(en['err.size'], { max: 64 });
const MAX = '3.4028235×10³⁸'; // float32's largest number, as the page writes it

// Where each field lives: the view it needs (a hash), its input, how a value is handed over, and
// the slot its message appears in.
const FIELDS = {
  cell: { hash: '', input: '#in-q-0-1', via: 'input', slot: '#err-q' },
  n: { hash: '', input: '#size-n', via: 'change', slot: '#err-size-n' },
  dk: { hash: '', input: '#size-dk', via: 'change', slot: '#err-size-dk' },
  dv: { hash: '', input: '#size-dv', via: 'change', slot: '#err-size-dv' },
  d: { hash: '&preset=cat', input: '#size-d', via: 'change', slot: '#err-size-d' },
  seed: { hash: '&preset=random&seed=1', input: '#size-seed', via: 'change', slot: '#err-size-seed' },
  temperature: { hash: '', input: '#temperature', via: 'change', slot: '#err-temperature' },
  paste: { hash: '', input: '#paste-k', via: 'apply', button: '#apply-k', slot: '#err-paste-k' },
  // the paste box of K when q₀₀ is already 3·10³⁸: a large k₀₀ makes the score q₀·k₀ overflow
  pasteK: {
    hash: '&preset=custom&mode=qkv&n=2&d=2&dk=2&dv=2&q=3e38,0;0,1&k=1,0;0,1&v=10,0;0,10',
    input: '#paste-k',
    via: 'apply',
    button: '#apply-k',
    slot: '#err-paste-k',
  },
};

// [field, what is typed (or, for 'hash', the whole hash), expected]: expected is
//   { error: message }     refused, the message at the field (and the last good result stays)
//   { accepted: true }     no message; { notice: text } accepted, with that notice on the stage
//   { badHash: true }      (hash) the default example instead, with the notice that says so
//   { link: text }         (hash) the link opens, with that notice about one of its values
// A hash names its language or gets the default, Chinese: the hash rows expect zh-CN texts.
const TABLE = [
  ['cell', '', { error: en['err.empty'] }],
  ['cell', 'abc', { error: fill(en['err.notNumber'], { text: 'abc' }) }],
  ['cell', 'NaN', { error: en['err.nan'] }],
  ['cell', '-Infinity', { error: en['err.infinite'] }],
  ['cell', '1e39', { error: fill(en['err.tooLarge'], { text: '1e39', max: MAX }) }],
  ['cell', '1,5', { error: fill(en['err.notNumber'], { text: '1,5' }) }],
  ['cell', '0x10', { error: fill(en['err.notNumber'], { text: '0x10' }) }],
  ['cell', injection, { error: fill(en['err.notNumber'], { text: '<img src=x onerror="wind…' }) }],
  ['cell', long, { error: fill(en['err.notNumber'], { text: shortened }) }],
  ['cell', '１２', { accepted: true }],
  ['cell', '\u22120.5', { accepted: true }],
  ['cell', '1e-400', { accepted: true }],
  ['cell', '3e38', { accepted: true }],
  ['n', '0', { error: size }],
  ['n', '65', { error: size }],
  ['n', '2.5', { error: size }],
  ['n', '', { error: size }],
  ['n', 'abc', { error: size }], // a type=number field hands over '' for letters
  ['n', '9007199254740993', { error: size }],
  ['n', '1e1', { accepted: true }],
  ['dk', '-1', { error: size }],
  ['dv', '64', { accepted: true }],
  ['d', '100', { error: size }],
  ['seed', '-1', { error: en['err.seed'] }],
  ['seed', '2147483648', { error: en['err.seed'] }],
  ['seed', '1.5', { error: en['err.seed'] }],
  ['seed', '', { error: en['err.seed'] }],
  ['seed', '42', { accepted: true }],
  ['temperature', '0', { error: en['err.temperature'] }],
  ['temperature', '-1', { error: en['err.temperature'] }],
  ['temperature', '', { error: en['err.temperature'] }],
  ['temperature', 'abc', { error: fill(en['err.notNumber'], { text: 'abc' }) }],
  ['temperature', 'Infinity', { error: en['err.infinite'] }],
  ['temperature', 'NaN', { error: en['err.nan'] }],
  ['temperature', '1e39', { error: fill(en['err.temperatureAbove'], { value: '1e39', max: MAX }) }],
  ['temperature', '1e-40', { notice: fill(en['notice.nonFinite'], { step: 4 }) }],
  ['temperature', '3e38', { accepted: true }],
  ['paste', '', { error: en['err.pasteEmpty'] }],
  ['paste', '1,5', { error: fill(en['err.ambiguousComma'], { text: '1,5', decimal: '1.5', pair: '1, 5' }) }],
  ['paste', '[[1,2],[3', { error: en['err.brackets'] }],
  ['paste', '[[1, 2], [3]]', { error: fill(en['err.ragged'], { row: 2, got: 1, want: 2 }) }],
  [
    'paste',
    '<script>window.__injected = true</script>',
    {
      error: fill(en['err.cellIn'], {
        row: 1,
        col: 1,
        message: fill(en['err.notNumber'], { text: '<script>window.__injecte…' }),
      }),
    },
  ],
  [
    'paste',
    long,
    { error: fill(en['err.cellIn'], { row: 1, col: 1, message: fill(en['err.notNumber'], { text: shortened }) }) },
  ],
  ['paste', `[${'1, '.repeat(100)}1]`, { error: size }],
  [
    'paste',
    '[[1e39, 0], [0, 1]]',
    {
      error: fill(en['err.cellIn'], { row: 1, col: 1, message: fill(en['err.tooLarge'], { text: '1e39', max: MAX }) }),
    },
  ],
  ['paste', 'np.array([[1., 0.], [0., 1.]])', { accepted: true }],
  ['pasteK', '[[3e38, 0], [0, 1]]', { notice: fill(en['notice.nonFinite'], { step: 3 }) }],
  ['hash', '#step=99', { badHash: true }],
  ['hash', '#n=65', { badHash: true }],
  ['hash', '#temperature=0', { link: fill(zh['notice.linkTemperature'], { message: zh['err.temperature'] }) }],
  ['hash', '#scale=toString', { badHash: true }],
  ['hash', '#axis=valueOf', { badHash: true }],
  ['hash', '#preset=__proto__', { badHash: true }],
  ['hash', '#lang=constructor', { badHash: true }],
  ['hash', '#preset=custom&q=1,2;3', { badHash: true }],
  ['hash', '#preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0,1&k=1,0;0,1&v=10,0;0,1e39', { badHash: true }],
  ['hash', '#step=%E0%A4%A', { badHash: true }],
  ['hash', `#step=${encodeURIComponent(injection)}`, { badHash: true }],
  ['hash', `#step=3&${'a=1&'.repeat(10000)}b=2`, { accepted: true }], // keys it does not know are ignored
  ['hash', '#step=3&', { badHash: true }],
  ['hash', '#temperature=1e-40&step=8', { notice: fill(zh['notice.nonFinite'], { step: 4 }) }],
];

let b, page;
before(async () => {
  b = await openBrowser();
  page = await b.open('#lang=en');
});
after(async () => {
  await page?.context().close();
  await b?.close();
});

// A fresh view through the hash (the page's own hashchange handler: errors cleared, state rebuilt).
async function reset(hash) {
  await page.evaluate((h) => {
    location.hash = h;
  }, `#lang=en&step=9${hash}`);
  await page.waitForFunction(() => document.querySelector('#next')?.disabled === true);
}

const shownText = () => stageText(page);

test('every field, the paste box and the hash, given hostile input, do what the table says', async () => {
  const failures = [];
  for (const [field, input, expected] of TABLE) {
    const what = `${field} ← ${JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}…` : input)}`;
    try {
      if (field === 'hash') {
        // The page's hashchange handler was added before this listener, so it has run when this
        // one does; a hash equal to the one shown fires no event and changes nothing.
        await page.evaluate(
          (h) =>
            new Promise((resolve) => {
              const before = location.hash;
              addEventListener('hashchange', () => resolve(), { once: true });
              location.hash = h;
              if (location.hash === before) resolve();
            }),
          input,
        );
        await page.waitForFunction(() => document.body.dataset.ready === 'true');
        const notice = await page.textContent('#notice');
        assert.equal(notice, expected.badHash ? zh['notice.badHash'] : (expected.link ?? ''), 'the link notice');
        if (expected.notice) assert.ok((await shownText()).includes(expected.notice), `notice ${expected.notice}`);
      } else {
        const f = FIELDS[field];
        await reset(f.hash);
        await page.evaluate(
          ({ f, input }) => {
            const el = document.querySelector(f.input);
            el.value = input;
            if (f.via === 'apply') document.querySelector(f.button).click();
            else el.dispatchEvent(new Event(f.via, { bubbles: true }));
          },
          { f, input },
        );
        const message = await page.textContent(f.slot);
        assert.equal(message, expected.error ?? '', 'the message at the field');
        if (expected.notice) assert.ok((await shownText()).includes(expected.notice), `notice ${expected.notice}`);
      }
      assert.ok((await page.locator('#stage-body figure[data-name]').count()) > 0, 'a result is on the stage');
      assert.equal(await page.evaluate(() => window.__injected), undefined, 'nothing ran as script');
    } catch (error) {
      failures.push(`${what}: ${error.message.split('\n')[0]} (got ${JSON.stringify(error.actual)?.slice(0, 80)})`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(page.problems, []);
});
