// The classroom mode on screen: the classes on <html> that styles/classroom.css reads (the stage
// or the lab only, in large type; a blanked screen), the bar at the foot of the screen (the step,
// the pace, play / pause with its countdown — the stepper's, hidden in a lab by the stylesheet —,
// full screen, the classroom link, leave) and the header's button.
// Render only: controller/classroom.js owns what the buttons do.

import { setText } from './dom.js';
import { stepCount } from '../steps.js';
import { inClassroom, pagesSteps } from '../classroom.js';

/**
 * ctx: { state, t, run: { playing, blank, paceText, paceError, status }, fullscreen (the page is
 * full screen) }. Returns true when the mode is on.
 */
export function renderClassroomBar(doc, { state, t, run, fullscreen }) {
  const on = inClassroom(state);
  const root = doc.documentElement;
  root.classList.toggle('classroom', on);
  root.classList.toggle('classroom-blank', on && run.blank);
  const byId = (id) => doc.getElementById(id);
  const button = byId('classroom-button');
  setText(button, t('classroom.button'));
  const hint = t(state.view === 'steps' ? 'classroom.buttonHint' : 'classroom.labButtonHint');
  if (button.title !== hint) button.title = hint;
  const bar = byId('classroom-bar');
  if (bar.hidden === on) bar.hidden = !on;
  if (!on) {
    root.classList.remove('classroom-scrolls');
    root.style.removeProperty('--classroom-size');
    root.style.removeProperty('--classroom-bar');
    root.style.removeProperty('--classroom-chart-room');
    return false;
  }
  setText(byId('classroom-title'), t('classroom.bar'));
  setText(byId('classroom-prev'), t('nav.prev'));
  setText(byId('classroom-next'), t('nav.next'));
  setText(byId('classroom-position'), t('nav.position', { step: state.step, total: stepCount(state) }));
  setText(byId('classroom-pace-label'), t('classroom.pace'));
  const pace = byId('classroom-pace');
  // A short placeholder, the whole hint as the field's title; the field as wide as its placeholder,
  // so that it is read whole (a 4em field cut "留空:不自动翻页" at "留空:不").
  pace.placeholder = t('classroom.pacePlaceholder');
  pace.title = t('classroom.paceHint');
  pace.style.width = `calc(${textWidth(pace.placeholder)}ch + 1.4em)`;
  // The field shows what the reader typed while it is refused, and the state's pace otherwise.
  const shown = run.paceError ? run.paceText : state.pace ? String(state.pace) : '';
  if (pace.value !== shown && doc.activeElement !== pace) pace.value = shown;
  if (run.paceError) pace.setAttribute('aria-invalid', 'true');
  else pace.removeAttribute('aria-invalid');
  setText(byId('classroom-pace-error'), run.paceError ?? '');
  const play = byId('classroom-play');
  setText(play, t(run.playing ? 'classroom.pause' : 'classroom.play'));
  play.setAttribute('aria-pressed', String(run.playing));
  setText(byId('classroom-fullscreen'), t(fullscreen ? 'classroom.leaveFullscreen' : 'classroom.fullscreen'));
  setText(byId('classroom-copy'), t('classroom.copy'));
  setText(byId('classroom-leave'), t('classroom.leave'));
  setText(byId('classroom-status'), run.blank ? t('classroom.blank') : run.status);
  // The stepper's cue: a step too big for the screen; a lab's: more charts below (views/classroom-fit.js).
  setText(byId('classroom-cue'), t(pagesSteps(state) ? 'classroom.scrolls' : 'classroom.labMore'));
  return true;
}

/**
 * The auto-advance's countdown: `info` is classroom.js pacing()'s { remaining, fraction }, or null
 * when it is not running (then the bar says why, in `idle`: paused, the last step, or nothing).
 */
export function showPacing(doc, { t, info, idle = '' }) {
  const progress = doc.getElementById('classroom-progress');
  progress.hidden = !info;
  if (info && progress.value !== info.fraction) progress.value = info.fraction;
  setText(doc.getElementById('classroom-countdown'), info ? t('classroom.countdown', { s: info.remaining }) : idle);
}

/** A text's width in ch (the width of "0"): a wide (CJK, full-width) character is about two. */
const textWidth = (text) =>
  [...text].reduce(
    (sum, c) =>
      sum +
      (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1),
    0,
  );
