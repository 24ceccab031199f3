// The soak's random actions (tests/browser/soak.test.mjs), shared with the benchmark that times
// them (bench/responsiveness.mjs): seeded edits, pastes and steps run inside the page in batches
// (a Playwright round trip per action would take most of the time), through the page's stable ids
// only: the selectors below are the one place that knows them, so a redesign of the views that
// keeps the ids keeps the soak.

export const SELECTORS = {
  cells: 'input[id^="in-"]', // #in-q-0-0: one cell of an input matrix
  pasteBoxes: 'textarea[id^="paste-"]', // #paste-q, applied by #apply-q
  apply: 'apply-', // id prefix of a paste box's button, + the matrix's name
  next: '#next',
  prev: '#prev',
  stepLinks: '.step-link',
};

// Runs `count` random actions in the page, continuing the seeded sequence; returns the slowest
// click and edit (ms), how many actions of each kind ran, and the clicks that stayed over
// `budget` ms (the benchmark's; Infinity where nothing is timed against one). It runs inside the
// page (page.evaluate), so it uses nothing from this module.
export function runActions({ selectors, count, seed, budget }) {
  let a = seed >>> 0; // mulberry32
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const number = () => pick([String(Math.round(rand() * 400 - 200) / 100), '0', '1', '-1', '2.5e1', '0.001']);
  const junk = () => pick(['', 'abc', 'NaN', '1e39', '−3', '１２', '<b>x</b>']);
  const matrixText = () => {
    const rows = 1 + Math.floor(rand() * 6),
      cols = 1 + Math.floor(rand() * 6);
    const body = Array.from({ length: rows }, () => `[${Array.from({ length: cols }, number).join(', ')}]`).join(', ');
    return pick([`[${body}]`, `[${body}]`, '1,5', '[[1,2],[3', '[[1, 2], [3]]', '1 2\n3 4']);
  };
  // Handled, rendered and laid out: the time until a forced layout returns.
  const timed = (act) => {
    const t0 = performance.now();
    act();
    void document.body.offsetHeight;
    return performance.now() - t0;
  };
  const step = () => Number(/step=(\d+)/.exec(location.hash)?.[1]);
  const goTo = (n) => {
    location.hash = location.hash.replace(/step=\d+/, `step=${n}`);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  };
  // A click over budget is timed again, up to twice, from the same state: the page's work for a
  // state is the same each time, so a fast repeat shows that another process had the CPU (two
  // cores are shared with other jobs), and only a click slow every time counts.
  const click = (target, undo) => {
    let best = timed(() => target.click());
    for (let retry = 0; retry < 2 && best > budget; retry++) {
      undo();
      best = Math.min(
        best,
        timed(() => target.click()),
      );
    }
    return best;
  };
  const slowest = { click: 0, edit: 0 };
  const counts = { edit: 0, paste: 0, step: 0 };
  const slow = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.45) {
      const cells = document.querySelectorAll(selectors.cells);
      if (cells.length === 0) continue;
      const cell = pick(cells);
      cell.value = rand() < 0.9 ? number() : junk();
      slowest.edit = Math.max(
        slowest.edit,
        timed(() => cell.dispatchEvent(new Event('input', { bubbles: true }))),
      );
      counts.edit++;
    } else if (r < 0.55) {
      const box = pick(document.querySelectorAll(selectors.pasteBoxes));
      const button = box && document.getElementById(selectors.apply + box.id.slice('paste-'.length));
      if (!button) continue;
      box.value = matrixText();
      const dt = click(button, () => {}); // applying the same text again does the same work
      if (dt > budget) slow.push(`paste ${JSON.stringify(box.value.slice(0, 30))}: ${dt.toFixed(1)} ms`);
      slowest.click = Math.max(slowest.click, dt);
      counts.paste++;
    } else {
      const target =
        rand() < 0.4
          ? document.querySelector(selectors.next)
          : rand() < 0.5
            ? document.querySelector(selectors.prev)
            : pick(document.querySelectorAll(selectors.stepLinks));
      if (!target || target.disabled) continue;
      const from = step();
      const dt = click(target, () => goTo(from));
      if (dt > budget) slow.push(`${target.id || target.className} from step ${from}: ${dt.toFixed(1)} ms`);
      slowest.click = Math.max(slowest.click, dt);
      counts.step++;
    }
  }
  return { slowest, counts, seed: a, slow };
}
