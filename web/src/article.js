// The article the page teaches, and where its link points. Pure, but for reading the build's
// setting from the page (buildArticleUrl).
//
// The page follows one text: 《Transformer 由浅入深》系列第 3 篇 · 阶段二「核心机制」, in its order —
// §1 X, §2 the projections, §3 QKᵀ, §4 ÷√dₖ, §5 the softmax, §6 ·V, §7 the worked example, §8 the
// cost — and points on to the series' next article, 第 4 篇「多头注意力」(the page's heads). Its
// words are in the dictionaries (article.name, article.section.N, article.next).
//
// The link is the reader's choice of where the article lives: a blog author who hosts the article
// points the page at it, by a build setting (ATTENTION_PLAYGROUND_ARTICLE, written into
// <meta name="attention-playground-article"> by scripts/lib/page-parts.mjs) or per link (the hash
// field `article=`, which wins). Without either, the page names the article and links nowhere.

// The backward steps are the steps no state without a loss has (steps.js `when`), with one head or
// with heads: the article has no backward pass.
const WITHOUT_LOSS = [
  { loss: 'none', heads: 1, mode: 'x' },
  { loss: 'none', heads: 2, mode: 'x' },
];
const isBackward = (step) => Boolean(step.when) && WITHOUT_LOSS.every((state) => !step.when(state));

/** The article's sections (§1–§8), by number: the steps cite them (steps.js `section`). */
export const ARTICLE_SECTIONS = [1, 2, 3, 4, 5, 6, 7, 8];

/** The section of the worked example the page opens with. */
export const EXAMPLE_SECTION = 7;

/** The longest link the page accepts (a URL longer than this is not an article's address). */
const MAX_LENGTH = 2000;

/**
 * True when `text` may be the article's link: an absolute https: URL with a host and no user name
 * or password in it, written without spaces. Everything else — http:, javascript:, data:, a relative path — is refused:
 * the page never links where a reader's browser would run code or drop the secure connection.
 */
export function isArticleUrl(text) {
  if (typeof text !== 'string' || text.length > MAX_LENGTH || !text.startsWith('https://')) return false;
  // No spaces or control characters: the URL parser would quietly drop a line break, which would
  // end the line of the NumPy export's header comment that names the link.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The link the build was made with (the page's <meta>), or null; null outside a page. */
export function buildArticleUrl(doc = globalThis.document) {
  const content = doc?.querySelector?.('meta[name="attention-playground-article"]')?.content;
  return isArticleUrl(content) ? content : null;
}

/** Where the article lives for this state: the link's own `article`, else the build's, else null. */
export const articleUrl = (state, doc) => (state?.article ? state.article : buildArticleUrl(doc));

/**
 * Which text a step follows, as words to cite: { key, params } for translate(), or null.
 * The article's steps cite their section; the heads' steps (concat, ·W_O) the next article; the
 * backward steps the section whose step they run backwards (the article has no backward pass).
 */
export function stepSource(step) {
  if (step.article === 4) return { key: 'article.next', params: {} };
  if (!ARTICLE_SECTIONS.includes(step.section)) return null;
  const key = isBackward(step) ? 'article.sectionBack' : 'article.section';
  return { key, params: { section: step.section } };
}
