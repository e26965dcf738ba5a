// The ways a newcomer is led to the lessons (#/learn, js/learn.js): the home page's
// "New to these games? Start here" and, on the first visit to a game's page, an offer
// of that game's lesson, made once per game and remembered in localStorage.

import {h, installStyle} from './kit.js';

const OFFERED_KEY = 'sansu.lessonOffered';
const enc = encodeURIComponent;

installStyle('newcomer', `
.newcomer { margin: .8rem 0 0; }
.lesson-offer { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin: 0 0 1rem; }
`);

/** The home page's entry for newcomers. */
export function newcomerEntry() {
  return h('p', {class: 'newcomer'}, h('a', {class: 'btn primary', href: '#/learn',
    'data-action': 'start-here'}, 'New to these games? Start here'));
}

/** On the first visit to a game's page, an offer of its lesson (once per game). */
export function lessonOffer(game, title) {
  let offered;
  try { offered = JSON.parse(localStorage.getItem(OFFERED_KEY) || '[]'); } catch { offered = []; }
  if (!Array.isArray(offered)) offered = [];
  if (offered.includes(game)) return null;
  localStorage.setItem(OFFERED_KEY, JSON.stringify([...offered, game]));
  const box = h('aside', {class: 'notice lesson-offer', 'aria-label': `Learn ${title}`,
    'data-testid': 'lesson-offer'},
  h('span', {}, `New to ${title}? A short lesson teaches it move by move.`),
  h('a', {class: 'btn primary small', href: `#/learn/${enc(game)}`}, `Learn ${title}`),
  h('button', {type: 'button', class: 'btn small', onclick: () => box.remove()}, 'No thanks'));
  return box;
}
