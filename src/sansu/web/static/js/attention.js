// Telling players it is their move when they look elsewhere: the tab's title
// ("(1) Your move · …") and icon (a red dot) while any game shown in this tab
// waits for them, a sound when the turn comes (sounds are on by default; the
// header's switch turns them off), a warning when their own clock runs low, and,
// once they allow it, a browser notification while the tab is hidden. Pages
// keep setting `document.title` as they like: the count is put in front of
// whatever title the page sets.

import {h, s as svg} from './kit.js';
import {playSound} from './ui.js';

const ICON = 'favicon.svg';
const ICON_WAITING = 'favicon-move.svg';
const LOW_SECONDS = 10;
const NOTIFY_KEY = 'sansu.notify';

const waiting = new Map();  // game id → what to say about it ("Sumodoku against anna")
const warned = new Set();   // games whose low-time warning sounded
let prefix = '';
let watching = false;

function prefixed() {
  return waiting.size ? `(${waiting.size}) Your move · ` : '';
}

function showTitle() {
  const bare = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
  prefix = prefixed();
  if (document.title !== prefix + bare) document.title = prefix + bare;
  const icon = document.querySelector('link[rel=icon]');
  const href = waiting.size ? ICON_WAITING : ICON;
  if (icon && icon.getAttribute('href') !== href) icon.setAttribute('href', href);
}

function watchTitle() {
  if (watching) return;
  watching = true;
  const title = document.querySelector('title');
  // A page that sets its own title gets the count back in front of it.
  if (title) new MutationObserver(() => { if (!document.title.startsWith(prefixed())) showTitle(); })
    .observe(title, {childList: true, characterData: true, subtree: true});
}

/** Whether browser notifications are wanted and allowed. */
export function notifying() {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted'
    && localStorage.getItem(NOTIFY_KEY) === 'on';
}

/** Asks the browser for notifications (a click's handler must call this); answers whether on. */
export async function allowNotifications(on) {
  if (!on || typeof Notification === 'undefined') {
    localStorage.setItem(NOTIFY_KEY, 'off');
    return false;
  }
  const answer = Notification.permission === 'granted'
    ? 'granted' : await Notification.requestPermission();
  localStorage.setItem(NOTIFY_KEY, answer === 'granted' ? 'on' : 'off');
  return answer === 'granted';
}

function notify(gameId, what) {
  if (!notifying() || !document.hidden) return;
  try {
    const note = new Notification('Your move', {body: what, tag: `sansu-${gameId}`, icon: ICON});
    note.onclick = () => { window.focus(); location.hash = `#/play/${gameId}`; note.close(); };
  } catch {
    // Some browsers allow notifications from a service worker only: the title still tells.
  }
}

/**
 * Says whether game `gameId` waits for this tab's player (`yours`), and what it is
 * (`what`, for the notification). A turn that has just come sounds, and notifies a
 * hidden tab.
 */
export function turn(gameId, yours, what = 'A game waits for your move') {
  watchTitle();
  const was = waiting.has(gameId);
  if (yours) waiting.set(gameId, what);
  else waiting.delete(gameId);
  if (yours && !was) {
    playSound('turn');
    notify(gameId, what);
  }
  showTitle();
}

/** Forgets a game (its page was left). */
export function forget(gameId) {
  waiting.delete(gameId);
  warned.delete(gameId);
  showTitle();
}

/** Your own clock in game `gameId` shows `seconds` left: a warning sounds once when low. */
export function clockLeft(gameId, seconds) {
  if (seconds > LOW_SECONDS) {
    warned.delete(gameId);
    return false;
  }
  if (seconds > 0 && !warned.has(gameId)) {
    warned.add(gameId);
    playSound('low');
  }
  return true;
}

/** The header's switch for notifications (none where the browser has no notifications). */
export function notificationSwitch() {
  if (typeof Notification === 'undefined') return null;
  // The name stays (a toggle's name must not change); aria-pressed tells whether it is on.
  const button = h('button', {type: 'button', id: 'notify-toggle', class: 'icon-btn',
    'aria-label': 'Notify me of my move'},
  svg('svg', {viewBox: '0 0 24 24', 'aria-hidden': 'true'},
    svg('path', {d: 'M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zM10 19a2 2 0 0 0 4 0z'})),
  h('span', {class: 'label'}, 'Notify me'));
  const show = () => {
    button.setAttribute('aria-pressed', String(notifying()));
    button.title = notifying() ? 'Notify me of my move (on)' : 'Notify me of my move (off)';
  };
  button.addEventListener('click', async () => {
    const on = await allowNotifications(!notifying());
    show();
    if (!on && Notification.permission === 'denied') {
      button.title = 'Notifications are blocked in this browser\'s settings for this site';
    }
  });
  show();
  return button;
}
