// The reader's own words (issue 29, item 2; web/src/words.js): read from the panel's field and
// checked against n, carried by the hash field `words` next to a preset's name, fitted when n
// changes, and written into the exports. On the article's worked example (Q = K = I₂, V = 10·I₂):
// "猫 狗" labels its two rows; "我 爱 你" does not fit n = 2.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPython } from './python.mjs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import {
  defaultState,
  parseState,
  serializeState,
  choosePreset,
  setCell,
  setOption,
  setWords,
  resize,
} from '../../web/src/state.js';
import { readWords, splitWords, stateTokens, wordsText, wordsLink, WORD_LIMIT } from '../../web/src/words.js';
import { exportJson, readJsonExport } from '../../web/src/labs/export/json.js';
import { exportCsv, readCsvExport, readCsvWords } from '../../web/src/labs/export/csv.js';
import { numpyScript } from '../../web/src/labs/export/numpy.js';

let engine, dir;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-words-'));
});

const worked = defaultState();
const linkOf = (state) => serializeState(state);
const wordsIn = (link) => new URLSearchParams(link.slice(1)).get('words');

test('the field reads words separated by spaces or commas, Chinese or not, and checks them against n', () => {
  for (const text of ['猫 狗', '猫,狗', '猫，狗', ' 猫 、 狗 ', '猫\t狗\n'])
    assert.deepEqual(splitWords(text), ['猫', '狗'], text);
  assert.deepEqual(readWords('猫 狗', 2), { ok: true, words: ['猫', '狗'] });
  assert.deepEqual(readWords('the, cat', 2), { ok: true, words: ['the', 'cat'] });
  // One word too many for the worked example's two rows: said, with both numbers.
  assert.deepEqual(readWords('我 爱 你', 2), { ok: false, error: { key: 'wordCount', count: 3, n: 2 } });
  assert.deepEqual(readWords('猫', 2), { ok: false, error: { key: 'wordCount', count: 1, n: 2 } });
  // Empty: the rows are numbered again.
  assert.deepEqual(readWords('  ', 2), { ok: true, words: 'none' });
  const long = 'x'.repeat(WORD_LIMIT + 1);
  assert.deepEqual(readWords(`${long} 狗`, 2), { ok: false, error: { key: 'wordLong', word: long, max: WORD_LIMIT } });
  // Characters count as the reader sees them: twelve Chinese characters are one word.
  assert.equal(readWords(`${'猫'.repeat(WORD_LIMIT)} 狗`, 2).ok, true);
});

test('a link carries the words — Chinese, URL-special characters — and reads them back the same', () => {
  for (const words of [
    ['猫', '狗'],
    ['a&b', '50%'],
    ['#1', 'x=y'],
    ['a+b', 'q?'],
    ['"cat"', 'a;b'],
    ['cat', 'none'], // a preset's name as a word stays a word
  ]) {
    const state = setWords(worked, words);
    const link = linkOf(state);
    assert.ok(!/[&#]/.test(link.slice(1).split('&words=')[1]?.split('&')[0] ?? ''), link);
    const { state: back, notice } = parseState(link);
    assert.equal(notice, null, link);
    assert.deepEqual(back.words, words, link);
    assert.deepEqual(back, state, link);
    assert.equal(linkOf(back), link);
  }
  // The worked example stays the worked example: its preset, its numbers, its words.
  const cat = linkOf(setWords(worked, ['猫', '狗']));
  assert.match(cat, /preset=article/);
  assert.equal(wordsIn(cat), '猫,狗');
});

test('one word is written with a comma after it, so that "cat" is a word and words=cat the preset', () => {
  const one = resize(setWords(worked, ['猫', '狗']), { n: 1 });
  assert.deepEqual(one.words, ['猫']);
  assert.equal(wordsIn(linkOf(one)), '猫,');
  const cat = { ...one, words: ['cat'] };
  assert.equal(wordsIn(linkOf(cat)), 'cat,');
  assert.deepEqual(parseState(linkOf(cat)).state.words, ['cat']);
  assert.equal(wordsLink.parse('cat'), 'cat');
  assert.deepEqual(wordsLink.parse('cat,'), ['cat']);
});

test('links written before own words open as before: words=cat, words=heads, words=none', () => {
  const edited = setCell(choosePreset(worked, 'cat'), 'x', 0, 0, 2);
  const link = linkOf(edited);
  assert.equal(wordsIn(link), 'cat');
  assert.deepEqual(stateTokens({ ...parseState(link).state, lang: 'zh-CN' }), ['它', '是', '猫']);
  const heads = setCell(choosePreset(worked, 'heads'), 'x', 0, 0, 2);
  assert.equal(wordsIn(linkOf(heads)), 'heads');
  assert.deepEqual(stateTokens({ ...parseState(linkOf(heads)).state, lang: 'en' }), ['it', 'is', 'cat']);
  const custom = setCell(worked, 'q', 0, 0, 2);
  assert.equal(wordsIn(linkOf(custom)), 'none');
  assert.equal(stateTokens(parseState(linkOf(custom)).state), null);
  // A preset's own words are not written: its link reads as it always has.
  assert.equal(wordsIn(linkOf(choosePreset(worked, 'cat'))), null);
  assert.equal(wordsIn(linkOf(worked)), null);
});

test('any preset or custom input carries words; another example brings its own, a new seed keeps them', () => {
  const random = choosePreset(worked, 'random');
  const mine = setWords(random, ['a', 'b']);
  assert.equal(parseState(linkOf(mine)).notice, null);
  assert.deepEqual(parseState(linkOf(mine)).state.words, ['a', 'b']);
  assert.deepEqual(choosePreset(setOption(mine, 'seed', 9), 'random').words, ['a', 'b']);
  assert.equal(choosePreset(mine, 'cat').words, 'cat');
  assert.equal(choosePreset(setWords(worked, ['猫', '狗']), 'overflow').words, 'none');
  // The reader's words over a preset's: and back to numbers (the field emptied) is written too.
  const cat = choosePreset(worked, 'cat');
  assert.deepEqual(parseState(linkOf(setWords(cat, ['我', '爱', '你']))).state.words, ['我', '爱', '你']);
  assert.equal(parseState(linkOf(setWords(cat, 'none'))).state.words, 'none');
  assert.equal(wordsText(setWords(cat, 'none')), '');
  assert.equal(wordsText({ ...cat, lang: 'en' }), 'it is cat');
});

test('an n change keeps the words that still fit, and a new row without a word shows its number', () => {
  const mine = setWords(worked, ['猫', '狗']);
  assert.deepEqual(resize(mine, { n: 3 }).words, ['猫', '狗', '3']);
  assert.deepEqual(resize(resize(mine, { n: 3 }), { n: 2 }).words, ['猫', '狗']);
  assert.deepEqual(resize(mine, { n: 1 }).words, ['猫']);
  assert.deepEqual(resize(mine, { dk: 3 }).words, ['猫', '狗']);
  assert.deepEqual(resize(choosePreset(mine, 'random'), { n: 3 }).words, 'none');
  assert.deepEqual(resize(setWords(choosePreset(worked, 'random'), ['a', 'b']), { n: 3 }).words, ['a', 'b', '3']);
  // Every link an n change writes reads back without a notice.
  for (const n of [1, 2, 3, 5]) {
    const link = linkOf(resize(mine, { n }));
    assert.equal(parseState(link).notice, null, link);
  }
});

test('a hand-written link whose words do not fit n, or cannot be read, opens with the rest kept and the field named', () => {
  const link = linkOf(setWords(worked, ['猫', '狗'])).replace('words=%E7%8C%AB,%E7%8B%97', 'words=我,爱,你');
  const { state, notice } = parseState(link);
  assert.deepEqual(notice, { key: 'linkWords', problem: 'count', count: 3, n: 2, text: '我,爱,你' });
  assert.deepEqual(state.words, ['我', '爱']);
  assert.deepEqual(state.mats, worked.mats);
  for (const bad of ['a,,b', ',', `${'x'.repeat(WORD_LIMIT + 1)},y`, 'a%20b,c', '']) {
    const read = parseState(`${linkOf(worked)}&words=${bad}`);
    assert.equal(read.notice?.key, 'linkWords', bad);
    assert.equal(read.notice.problem, 'badWords', bad);
    assert.equal(read.state.words, 'none');
    assert.equal(read.state.preset, 'article');
  }
});

test('the exports carry the words: JSON, CSV (a quote quoted), and a NumPy script Python runs', () => {
  const state = setWords(worked, ['猫', '"狗"']);
  const model = computeModel(engine, state);
  const json = readJsonExport(exportJson(model, state));
  assert.deepEqual(json.words, ['猫', '"狗"']);
  assert.equal('words' in readJsonExport(exportJson(model, worked)), false);
  const csv = exportCsv(model, state);
  assert.ok(csv.startsWith('words,1,2\n猫,"""狗"""\n\nq,2,2\n'), csv.slice(0, 40));
  assert.deepEqual(readCsvWords(csv), ['猫', '"狗"']);
  assert.deepEqual(Object.keys(readCsvExport(csv)).slice(0, 3), ['q', 'k', 'v']);
  assert.equal(readCsvWords(exportCsv(model, worked)), null);
  const script = numpyScript(model, state);
  assert.match(script, /^words = \["猫", "\\"狗\\""\]   # Q, K, V 的第 i 行是 words\[i\] 这个词$/m);
  // The script still runs and prints the worked example's A.
  assert.deepEqual(runPython(dir, script, 'own-words').A, [
    ['0.6698', '0.3302'],
    ['0.3302', '0.6698'],
  ]);
});
