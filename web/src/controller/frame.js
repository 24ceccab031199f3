// The frame around the stage: the header and footer (views/chrome.js), the notice line, the
// language switch, and a redraw when the system's light or dark theme changes.

import { renderChrome } from '../views/chrome.js';
import { buildId, offersOfflineFile } from '../offline.js';
import { writePreference } from '../storage.js';
import { listeners } from './listeners.js';
import { temperatureMessage } from '../input-rules.js';
import { WORD_LIMIT } from '../words.js';

/** A link's text as a notice quotes it: at most 80 characters. */
const short = (text) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** The notice at the top: a key ('badHash', 'updated'), or a link's refused temperature, article or words, or its loss's matrix missing (state.js). */
const noticeText = (said, t) =>
  said.key === 'linkTemperature'
    ? t('notice.linkTemperature', { message: temperatureMessage(said.problem, t, said.text) })
    : said.key === 'linkArticle'
      ? t('notice.linkArticle', { text: short(said.text) })
      : said.key === 'linkLoss'
        ? lossNotice(said, t)
        : said.key === 'linkWords'
          ? t(`notice.linkWords.${said.problem}`, { ...said, text: short(said.text), max: WORD_LIMIT })
          : said.key === 'linkTrain' // the training lab's (features/train-lab/): the field named, and why when it was readable
            ? t(said.reason ? `notice.linkTrain.${said.reason}` : 'notice.linkTrain', {
                ...said,
                field: said.problem,
                text: short(said.text),
              })
            : said.key === 'linkLab' // a lab's field its other fields leave no place for (its feature's fit), in the lab's words
              ? t(`notice.linkLab.${said.reason}`, { ...said, field: said.problem, text: short(said.text) })
              : t(`notice.${said}`);

/** A link's loss without its matrix, or with one not in AV's shape (state.js parseState). */
const lossNotice = ({ problem, field, loss, rows, cols }, t) =>
  t(`notice.linkLoss.${problem}`, { field, loss, rows, cols, what: t(`notice.linkLoss.${field}`) });

export function createFrame(page) {
  const events = listeners();

  /** The header and footer; before the engine has loaded, without its version. */
  function chrome() {
    const { engine } = page;
    renderChrome(page.dom.document, {
      state: page.state,
      t: page.t,
      engineInfo: engine && `${engine.version()}${engine.simd() ? ', SIMD' : ''}`,
      build: buildId(),
      offlineFile: offersOfflineFile(),
      fullPageUrl: page.fullPageUrl(),
    });
  }

  events.on(page.$('lang-switch'), 'click', () => {
    const lang = page.state.lang === 'zh-CN' ? 'en' : 'zh-CN';
    writePreference('lang', lang);
    page.errors.clear();
    page.commit({ ...page.state, lang });
  });
  events.on(page.$('theme-switch'), 'change', (event) => page.commit({ ...page.state, theme: event.target.value }));
  events.on(page.dark, 'change', () => page.render({ panel: false }));

  return {
    chrome,
    render({ frame }) {
      if (!frame) return;
      chrome();
      page.$('notice').textContent = page.notice ? noticeText(page.notice, page.t) : '';
    },
    destroy: () => events.removeAll(),
    listeners: events,
  };
}
