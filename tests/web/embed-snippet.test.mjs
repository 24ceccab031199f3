// The embed snippet the "嵌入 / Embed" button gives, and the embed switches of the URL state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embedSnippet } from '../../web/src/embed/snippet.js';
import { parseState, serializeState, defaultState, withoutEmbed } from '../../web/src/state.js';

test('the snippet embeds the state with embed.js from next to the page, sandboxed to scripts only', () => {
  const snippet = embedSnippet({
    pageUrl: 'https://example.org/attention/index.html#step=2',
    hash: '#embed=1&step=4&preset=article',
    title: '注意力 "演练场" <4>',
  });
  assert.equal(
    snippet,
    [
      '<iframe data-attention-playground src="https://example.org/attention/index.html#embed=1&amp;step=4&amp;preset=article"',
      '  sandbox="allow-scripts" title="注意力 &quot;演练场&quot; &lt;4>"',
      '  loading="lazy" style="width: 100%; height: 560px; border: 0"></iframe>',
      '<script src="https://example.org/attention/embed.js" async></script>',
    ].join('\n'),
  );
});

test('a page opened from a file cannot be embedded: no snippet', () => {
  assert.equal(
    embedSnippet({ pageUrl: 'file:///media/usb/attention-playground.html', hash: '#embed=1', title: 't' }),
    null,
  );
});

test('embed=1, panel=1 and nav=1 round-trip; without embed the other two are not written', () => {
  const { state, notice } = parseState('#embed=1&step=4&preset=article&panel=1&nav=1');
  assert.equal(notice, null);
  assert.deepEqual([state.embed, state.panel, state.nav, state.step], [true, true, true, 4]);
  assert.deepEqual(parseState(serializeState(state)).state, state);
  const full = withoutEmbed(state);
  assert.doesNotMatch(serializeState(full), /embed=|panel=|nav=/);
  assert.match(serializeState(full), /step=4/);
  assert.doesNotMatch(serializeState(defaultState()), /embed=/);
  assert.equal(parseState('#embed=yes').notice, 'badHash', 'a switch is 1 or 0');
});
