// What the reader did with each question of the exercise (exercise-view.js), and the score
// it makes. DOM-free.
//
// A record per question of a series: `${seriesKey}|${number}` → { text, hints (how many shown),
// shown (the answer), verdict (checkAnswer's), done, solved }. The store is kept for as long as
// the page is open, across the view closing: a reader who looks something up in the stepper and
// comes back finds the score and the answers as they left them.

// The fields that make a series; with `ex` added they name one question.
const SERIES_KEYS = ['exlen', 'exseed', 'exdigits', 'exkinds', 'exfrom'];

/** The series a state names; on the page's example, the example is part of it (edited, it is another). */
export const seriesKey = (state, page) =>
  SERIES_KEYS.map((key) => String(state[key])).join('|') + (state.exfrom === 'page' ? JSON.stringify(page) : '');

/** The store of records: record(key) gives the question's, a fresh one the first time. */
export function exerciseRecords(store = new Map()) {
  return {
    record(key) {
      if (!store.has(key))
        store.set(key, { text: '', hints: 0, shown: false, verdict: null, done: false, solved: false });
      return store.get(key);
    },
    /** Each question's status in a series of `total` (solved, shown, a verdict, or todo) and the score. */
    progress(series, total) {
      let correct = 0,
        done = 0;
      const statuses = [];
      for (let n = 1; n <= total; n++) {
        const rec = store.get(`${series}|${n}`);
        if (rec?.solved) correct++;
        if (rec?.done) done++;
        statuses.push(statusOf(rec));
      }
      return { statuses, correct, done };
    },
  };
}

function statusOf(rec) {
  if (rec?.solved) return 'solved';
  if (rec?.shown) return 'shown';
  if (rec?.verdict && rec.verdict.verdict !== 'unreadable') return rec.verdict.verdict;
  return 'todo';
}

/** A checked answer taken into its record: done unless unreadable, solved only if found before it was shown. */
export function takeVerdict(rec, text, verdict) {
  rec.text = text;
  rec.verdict = verdict;
  if (verdict.verdict !== 'unreadable') rec.done = true;
  if (verdict.verdict === 'correct' && !rec.shown) rec.solved = true;
}
