// The settings page (#/settings): the site's theme, the boards' look, zen mode (a game
// page shows the board, the status and the players alone), sounds and notifications.
// Everything is kept in this browser (localStorage) and applied before the first paint
// by js/theme.js; zen mode also toggles with the Z key on a game page.

import {allowNotifications, notifying} from './attention.js';
import {h} from './kit.js';
import {route} from './router.js';
import {soundOn} from './ui.js';
import {setZen} from './zen.js';

const BOARDS = [
  ['plain', 'Plain (white)'],
  ['wood', 'Wood'],
  ['slate', 'Slate (dark board)'],
  ['contrast', 'High contrast'],
];

function choice(id, text, input) {
  return h('div', {class: 'field'}, h('label', {for: id}, text), input);
}

function check(id, text, checked, onchange) {
  return h('div', {class: 'field'}, h('label', {class: 'choice'},
    h('input', {type: 'checkbox', id, checked, onchange: (e) => onchange(e.target.checked)}), text));
}

route(/^\/settings$/, 'settings', (main) => {
  document.title = 'Settings — sansu';
  const root = document.documentElement;
  const theme = h('select', {id: 'setting-theme', onchange: (e) => {
    const value = e.target.value;
    if (value === 'system') localStorage.removeItem('sansu.theme');
    else localStorage.setItem('sansu.theme', value);
    const dark = value === 'system' ? matchMedia('(prefers-color-scheme: dark)').matches
      : value === 'dark';
    root.dataset.theme = dark ? 'dark' : 'light';
  }}, ...[['system', 'As the system'], ['light', 'Light'], ['dark', 'Dark']].map(([v, t]) =>
    h('option', {value: v, selected: (localStorage.getItem('sansu.theme') || 'system') === v}, t)));
  const board = h('select', {id: 'setting-board', onchange: (e) => {
    root.dataset.board = e.target.value;
    localStorage.setItem('sansu.board', e.target.value);
  }}, ...BOARDS.map(([v, t]) => h('option', {value: v, selected: root.dataset.board === v}, t)));
  const note = h('p', {class: 'muted', 'aria-live': 'polite'});
  main.append(h('h1', {}, 'Settings'),
    h('form', {class: 'panel settings', onsubmit: (e) => e.preventDefault()},
      choice('setting-theme', 'Theme', theme),
      choice('setting-board', 'Boards', board),
      check('setting-zen', 'Zen mode: a game shows the board, the status and the players alone '
        + '(Z on a game page switches it)', root.dataset.zen === 'on', setZen),
      check('setting-sound', 'Sounds: moves, your turn, low time', soundOn(), (on) => {
        localStorage.setItem('sansu.sound', on ? 'on' : 'off');
        document.getElementById('sound-toggle')?.setAttribute('aria-pressed', String(on));
      }),
      check('setting-notify', 'Notify me of my move while this tab is hidden', notifying(),
        async (on) => {
          const now = await allowNotifications(on);
          document.getElementById('setting-notify').checked = now;
          document.getElementById('notify-toggle')?.setAttribute('aria-pressed', String(now));
          note.textContent = on && !now ? 'This browser does not allow notifications from this site.' : '';
        }),
      note));
});
