// The efficiency lab's shared-heads panel in the link: its h query heads (effh) and g key–value
// heads (effg) are written while that panel is open and read back as written; a hand-written link
// whose g does not divide h opens with g = 1, and its notice names the field effg in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, parseState, serializeState } from '../../web/src/state.js';
import { translator } from '../../web/src/i18n/index.js';

const headsState = (patch) => ({ ...defaultState(), view: 'efficiency-lab', effpanel: 'heads', ...patch });

test('h = 8 query heads sharing g = 2 key–value heads: written in the link and read back as written', () => {
  const hash = serializeState(headsState({ effh: 8, effg: 2 }));
  assert.match(hash, /(^|[#&])effh=8(&|$)/);
  assert.match(hash, /(^|[#&])effg=2(&|$)/);
  const { state, notice } = parseState(hash);
  assert.equal(notice, null);
  assert.deepEqual([state.effpanel, state.effh, state.effg], ['heads', 8, 2]);
  assert.equal(serializeState(state), hash, 'written back the same');
  // Only while that panel is open, and only in the lab.
  assert.doesNotMatch(serializeState(headsState({ effpanel: 'tiles', effh: 8, effg: 2 })), /effh|effg/);
  assert.doesNotMatch(serializeState({ ...headsState({ effh: 8, effg: 2 }), view: 'steps' }), /effh|effg/);
});

test('a link whose g = 4 does not divide h = 6 opens with g = 1, and its notice names the field effg', () => {
  const { state, notice } = parseState('#view=efficiency-lab&effpanel=heads&effh=6&effg=4');
  assert.deepEqual(notice, { key: 'linkLab', reason: 'indivisible', problem: 'effg', text: '4', h: 6 });
  assert.deepEqual([state.effh, state.effg], [6, 1], 'h kept, g at 1 (which divides every h)');
  assert.equal(parseState(serializeState(state)).notice, null, 'written back, it opens without a notice');
  for (const lang of ['zh-CN', 'en']) {
    const text = translator(lang)(`notice.linkLab.${notice.reason}`, { ...notice, field: notice.problem });
    assert.match(text, /effg/, `${lang}: ${text}`);
    assert.match(text, /4/, `${lang}: ${text}`);
  }
  // A g that divides h is no problem; neither is any h, g outside the heads panel.
  assert.equal(parseState('#view=efficiency-lab&effpanel=heads&effh=6&effg=3').notice, null);
  assert.equal(parseState('#view=efficiency-lab&effpanel=tiles&effh=6&effg=4').notice, null);
});
