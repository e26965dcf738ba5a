// Zen mode: a game page shows the board, the status and the players alone (the CSS of
// :root[data-zen="on"]); kept for the next visit, applied before the first paint by
// js/theme.js, switched by the settings page and by the Z key on a game page.

import {announce} from './ui.js';

/** Turns zen mode on or off. */
export function setZen(on) {
  document.documentElement.dataset.zen = on ? 'on' : 'off';
  localStorage.setItem('sansu.zen', on ? 'on' : 'off');
  announce(on ? 'Zen mode: the board alone. Press Z to leave it.' : 'Zen mode off.');
}
