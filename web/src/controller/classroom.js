// The classroom mode (classroom=1 in the URL): for a projector, the stage only in large type, or in
// a lab its charts and key numbers (views/classroom-bar.js, views/classroom-fit.js,
// styles/classroom.css), full screen on request, the keys of a keyboard and of a presentation
// clicker (their entries in controller/actions.js; in a lab the page keys scroll), and in the
// stepper an auto-advance at the link's pace (pace=8) with its countdown. This part owns its
// listeners, its one timer (controller/classroom-pacer.js) and a watch on the lab's size: leaving
// the mode or destroy() stops the timer, destroy() removes the listeners and the watch.

import { inClassroom, pagesSteps, actsIn, stepAfter, parsePace } from '../classroom.js';
import { stepCount } from '../steps.js';
import { renderClassroomBar, showPacing } from '../views/classroom-bar.js';
import { fitClassroom, fitLab } from '../views/classroom-fit.js';
import { createFullscreen } from './classroom-fullscreen.js';
import { createPacer } from './classroom-pacer.js';
import { listeners } from './listeners.js';

/** nav: the step navigation (its go(step)); url: the URL part (its flush(), before a link is copied). */
export function createClassroom(page, { nav, url }) {
  const { document, window } = page.dom;
  const events = listeners();
  // What the mode shows beyond the URL: playing or not, since when the step is up, a blank screen,
  // a refused pace as typed, the last thing said.
  const run = { playing: false, since: 0, timer: 0, blank: false, paceText: '', paceError: null, status: '', idle: '' };
  const fullscreen = createFullscreen(page, events, {
    refused: () => say('classroom.fullscreenRefused'),
    changed: () => render(),
  });
  const on = () => inClassroom(page.state);
  const count = () => stepCount(page.state);
  const { pause, stop, toggle } = createPacer(page, run, { render, say, go: nav.go });

  function say(key, params) {
    run.status = key ? page.t(key, params) : '';
    render();
  }

  /** Entered in the view on screen: the stepper's steps, or a lab's charts. */
  function enter() {
    const keys = page.state.view === 'steps' ? 'classroom.keys' : 'classroom.labKeys';
    Object.assign(run, { blank: false, status: page.t(keys) });
    if (page.commit({ ...page.state, classroom: true }, { panel: false })) page.$('stage').focus();
  }

  function leave() {
    stop();
    fullscreen.leave();
    Object.assign(run, { blank: false, paceError: null });
    if (!page.commit({ ...page.state, classroom: false })) return;
    page.$('classroom-button').focus();
    page.$('step-announce').textContent = page.t('classroom.left');
  }

  /**
   * What a key or a bar's button asks for (controller/actions.js). In a lab only full screen,
   * blank and leave are the mode's (actsIn); any other brings a blanked lab back.
   */
  function act(action) {
    if (!actsIn(page.state.view, action)) {
      if (run.blank) act('blank');
      return;
    }
    // Escape in full screen leaves full screen first, as the browser's own Escape does.
    if (action === 'leave') return fullscreen.active() ? fullscreen.leave() : leave();
    if (action === 'play') return toggle();
    if (action === 'fullscreen') return fullscreen.toggle();
    if (action === 'blank') {
      run.blank = !run.blank;
      return render();
    }
    if (run.blank) {
      run.blank = false;
      render();
    }
    nav.go(stepAfter(action, page.state.step, count()));
  }

  const unwatch = listen(events, { page, on, run, pause, render });
  events.on(page.$('classroom-pace'), 'change', (event) => takePace(page, run, event.target.value, { stop, render }));

  function render() {
    const shown = renderClassroomBar(document, { state: page.state, t: page.t, run, fullscreen: fullscreen.active() });
    if (!shown) return;
    if (!run.playing) showPacing(document, { t: page.t, info: null, idle: run.idle });
    if (pagesSteps(page.state)) fitClassroom(document, window);
    else fitLab(document, window);
  }

  return {
    render,
    act,
    enter,
    /** Whether a key asking for `action` is the mode's now: in the stepper, in a lab as actsIn says, and on a blanked screen. */
    takes: (action) => actsIn(page.state.view, action) || run.blank,
    /** A key was pressed (`play`: it was the mode's P): while playing, any other key pauses. */
    heard({ play }) {
      if (on() && run.playing && !play) pause();
    },
    copyLink: () => copyLink(page, url, say),
    committed(next, previous) {
      if (!inClassroom(next)) stop();
      else if (next.step !== previous.step) run.since = Date.now();
      if (inClassroom(next) && !next.pace && run.playing) stop();
      if (!inClassroom(next) && inClassroom(previous)) run.status = '';
    },
    destroy() {
      stop();
      events.removeAll();
      unwatch();
    },
    listeners: events,
    /** Whether the auto-advance runs (for tests). */
    playing: () => run.playing,
  };
}

/**
 * A pointer anywhere (it pauses the auto-advance), a resize of the window or of the lab (the
 * keys and the bar's buttons are entries of controller/actions.js). Returns the function that
 * ends the lab's watch.
 */
function listen(events, { page, on, run, pause, render }) {
  const { document, window } = page.dom;
  events.on(document, 'pointerdown', (event) => {
    if (on() && run.playing && !event.target.closest?.('#classroom-play')) pause();
  });
  // A new screen size, or the formulas' fonts arriving: the type is sized again.
  const refit = () => {
    if (on()) render();
  };
  events.on(window, 'resize', refit);
  if (document.fonts) events.on(document.fonts, 'loadingdone', refit);
  // A lab draws on its own time (a run's progress, a chart once its numbers come): the cue that
  // says there is more below, and the width, are measured again when the lab's size changes.
  // Returns the watch's end, for destroy().
  if (!window.ResizeObserver) return () => {};
  // At the next frame: a new type size inside the observer's own call would resize what it watches.
  const watch = new window.ResizeObserver(() => {
    if (on() && page.state.view !== 'steps') window.requestAnimationFrame(refit);
  });
  watch.observe(page.$('lab-body'));
  return () => watch.disconnect();
}

/**
 * The pace typed into the bar: a whole number of seconds becomes the state's (and the link's), an
 * empty field turns auto-advance off, anything else is refused at the field and the pace stays.
 */
function takePace(page, run, text, { stop, render }) {
  const { pace, error } = parsePace(text);
  run.paceText = text;
  run.paceError = error ? page.t(error.key, error) : null;
  if (error) return render();
  if (!pace) stop();
  page.commit({ ...page.state, pace }, { panel: false });
}

/** "Copy classroom link": the URL as it is now (classroom=1, and the pace when there is one). */
async function copyLink(page, url, say) {
  url.flush();
  const pace = page.state.pace ? page.t('classroom.copiedPace', { s: page.state.pace }) : '';
  try {
    await page.dom.window.navigator.clipboard.writeText(page.dom.location.href);
    say('classroom.copied', { pace });
  } catch {
    say('link.copyFailed');
  }
}
