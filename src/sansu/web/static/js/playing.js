// The playing strip, as lichess's: a signed-in player's games in progress at the
// top of every page, those waiting for their move first and marked, each a link
// to its game, and the challenges made to them, to accept or decline. It refreshes
// on every page change and every 15 s (a minute in a hidden tab) from light calls
// (the account, its games, its challenges), and tells the tab's title and the
// notifications (attention.js) of every game that waits, so that a correspondence
// game whose turn comes while you read another page is not missed. The game shown
// on the page is that page's to tell.

import {api, keepSeats} from './api.js';
import {turn} from './attention.js';
import {boardModule} from './games.js';
import {h, installStyle} from './kit.js';
import {go} from './router.js';
import {call} from './session.js';
import {announce} from './ui.js';

const EVERY_MS = 15_000;
const HIDDEN_EVERY_MS = 60_000;

const CSS = `
.playing-strip { display: flex; gap: .4rem; align-items: center; overflow-x: auto;
  padding: .35rem max(1rem, env(safe-area-inset-left)); border-bottom: 1px solid var(--border);
  background: var(--surface); font-size: .9rem; scrollbar-width: thin; }
.playing-strip[hidden] { display: none; }
.playing-strip .label { color: var(--muted); white-space: nowrap; }
.playing-strip a { white-space: nowrap; text-decoration: none; border: 1px solid var(--border);
  border-radius: 1rem; padding: .15rem .7rem; color: var(--fg); }
.playing-strip a.your-turn { border-color: var(--focus); font-weight: 700;
  background: color-mix(in srgb, var(--focus) 14%, transparent); }
.playing-strip a[aria-current="page"] { outline: 2px solid var(--focus); }
.playing-strip .challenge { white-space: nowrap; font-weight: 600; }
`;

let strip = null;
let timer = null;
let shown = new Set();

function currentGame() {
  const m = /^#\/(?:play|watch)\/([\w-]+)/.exec(location.hash);
  return m ? m[1] : null;
}

async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, document.hidden ? HIDDEN_EVERY_MS : EVERY_MS);
  // Asked afresh each time (not the page's cached account): someone may sign in or out
  // in another tab, and the strip must not fix the answer for the pages either.
  let who;
  try {
    who = await call('GET', '/api/account');
  } catch {
    return;
  }
  const {user, csrf_token: csrf} = who;
  let games = [];
  let asked = [];
  if (user) {
    try {
      games = (await api.myGames()).games;
      asked = (await call('GET', '/api/challenges')).challenges
        .filter((c) => c.status === 'open' && c.dest.id === user.id);
    } catch {
      return;  // the server is away for a moment: keep what is shown
    }
  }
  const here = currentGame();
  const seen = new Set(games.map((g) => g.id));
  for (const id of shown) if (!seen.has(id) && id !== here) turn(id, false);
  shown = seen;
  games.sort((a, b) => Number(b.your_turn) - Number(a.your_turn) || b.updated_at - a.updated_at);
  const links = await Promise.all(games.map(async (g) => {
    const title = (await boardModule(g.game)).meta.title;
    if (g.id !== here) turn(g.id, g.your_turn, `${title}: your move`);
    return h('a', {href: `#/play/${g.id}`, class: g.your_turn ? 'your-turn' : '',
      'data-game-id': g.id, 'aria-current': g.id === here ? 'page' : null},
    title, g.your_turn ? ' · your move' : ' · waiting');
  }));
  const challenges = await Promise.all(asked.map(async (c) => {
    const title = (await boardModule(c.game)).meta.title;
    const answer = async (how) => {
      try {
        const done = await call('POST', `/api/challenge/${c.id}/${how}`, undefined, csrf);
        if (how === 'accept') {
          if (done.seat_token) keepSeats(done.game_id, [done.seat], done.seat_token);
          go(`#/play/${done.game_id}`);
        } else {
          announce(`Challenge from ${c.challenger.name} declined.`);
          refresh();
        }
      } catch (error) {
        announce(error.message);
        refresh();
      }
    };
    return h('span', {class: 'challenge', 'data-challenge-id': c.id},
      `${c.challenger.name} challenges you: ${title}${c.rated ? ', rated' : ''} `,
      h('button', {type: 'button', class: 'btn small primary', 'data-action': 'accept-challenge',
        onclick: () => answer('accept')}, 'Accept'), ' ',
      h('button', {type: 'button', class: 'btn small', 'data-action': 'decline-challenge',
        onclick: () => answer('decline')}, 'Decline'));
  }));
  strip.replaceChildren(h('span', {class: 'label'}, 'Playing:'), ...challenges, ...links);
  strip.hidden = !links.length && !challenges.length;
}

/** Puts the strip under the header and keeps it up to date. */
export function startPlayingStrip() {
  installStyle('playing', CSS);
  strip = h('nav', {class: 'playing-strip', 'aria-label': 'Your games in progress', hidden: true,
    'data-testid': 'playing-strip'});
  document.querySelector('header')?.after(strip);
  window.addEventListener('hashchange', () => refresh());
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  refresh();
}
