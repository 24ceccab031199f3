// The classroom mode's auto-advance: one timer, looked at every TICK while it plays, that moves to
// the next step when the pace has passed (classroom.js pacing) and stops at the last step. Its
// countdown and bar are drawn by views/classroom-bar.js showPacing. Owned by controller/classroom.js,
// which stops it when the mode is left and when the part is destroyed.

import { inClassroom, pacing } from '../classroom.js';
import { stepCount } from '../steps.js';
import { showPacing } from '../views/classroom-bar.js';

const TICK = 250; // ms between two looks at the countdown

/**
 * run: the mode's { playing, since, timer, idle } (shared with the part); render(): redraw the bar;
 * say(key): a word in the bar's status; go(step): the step navigation's. Returns { play, pause, stop, toggle }.
 */
export function createPacer(page, run, { render, say, go }) {
  const { document, window } = page.dom;
  const reduced = page.dom.matchMedia('(prefers-reduced-motion: reduce)');
  const atLast = () => page.state.step >= stepCount(page.state);

  // `idle`: what the countdown's place says once stopped (paused, the last step); render() shows it.
  function stop(idle = '') {
    window.clearTimeout(run.timer);
    Object.assign(run, { timer: 0, playing: false, idle });
  }

  function tick() {
    run.timer = 0;
    if (!run.playing || !inClassroom(page.state)) return;
    const info = pacing(Date.now() - run.since, page.state.pace, { reduced: reduced.matches });
    if (info.due) go(page.state.step + 1); // the part's committed() restarts the countdown
    if (atLast()) {
      stop(page.t('classroom.ended'));
      return render();
    }
    showPacing(document, { t: page.t, info: info.due ? pacing(0, page.state.pace) : info });
    run.timer = window.setTimeout(tick, TICK);
  }

  function play() {
    if (!page.state.pace) return say('classroom.noPace');
    if (atLast()) return say('classroom.ended');
    Object.assign(run, { playing: true, since: Date.now(), blank: false, status: '', idle: '' });
    render();
    tick();
  }

  function pause() {
    stop(page.t('classroom.paused'));
    render();
  }

  return { play, pause, stop, toggle: () => (run.playing ? pause() : play()) };
}
