// Relations between players, as pieces other pages show: an online dot, a profile's
// Follow toggle with its counts, and the count of players online and games in play. The
// #/following page (js/following.js) lists the players one follows with them.

import {h, installStyle} from './kit.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

/** How often the lists of who is online are asked again. */
export const POLL_MS = 4000;

installStyle('relations', `
.online-dot { display: inline-block; width: .65rem; height: .65rem; border-radius: 50%;
  margin-right: .35rem; vertical-align: middle; border: 2px solid var(--muted, #888);
  background: transparent; flex: none; }
.online-dot.on { background: #2f9e44; border-color: #2f9e44; }
.relation-bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center;
  margin: .25rem 0 1rem; }
.follow-list { list-style: none; padding: 0; margin: 0; }
.follow-list li { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .75rem;
  padding: .5rem 0; border-bottom: 1px solid var(--border); }
.follow-list .who { display: inline-flex; align-items: center; min-width: 8rem; font-weight: 600; }
.follow-list .actions { display: flex; gap: .4rem; margin-left: auto; }
.online-count { margin: .5rem 0 0; }
.follow-toggle[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg);
  border-color: var(--accent); }
@media (max-width: 480px) {
  .follow-list .actions { margin-left: 0; width: 100%; }
}
`);

export const enc = encodeURIComponent;

/** A dot that says whether a player is online (green) or not, with the words for readers. */
export function onlineDot(online) {
  return h('span', {class: `online-dot${online ? ' on' : ''}`, role: 'img',
    'aria-label': online ? 'online' : 'offline', title: online ? 'online' : 'offline',
    'data-online': online ? 'true' : 'false'});
}

/** A link to a player's profile. */
export function playerLink(name) {
  return h('a', {href: `#/@/${enc(name)}`}, name);
}

/** "playing now — watch", to the game a player plays (nothing when none). */
export function watchLink(playing) {
  return playing
    ? h('a', {href: `#/watch/${enc(playing.id)}`, class: 'watch', 'data-testid': 'watch'},
      'playing now — watch')
    : null;
}

/** A profile's relations: online dot, followers and following, and (signed in, not
 * oneself) a Follow button that says with aria-pressed whether you follow them. */
export async function relationBar(name, me) {
  const bar = h('div', {class: 'relation-bar', 'data-testid': 'relation'});
  const status = h('span', {'aria-live': 'polite'});
  let r;
  try {
    r = await call('GET', `/api/users/${enc(name)}/relation`);
  } catch (error) {
    bar.append(errorNotice(error.message));
    return bar;
  }
  const counts = h('span', {class: 'muted', 'data-testid': 'follow-counts'});
  const showCounts = () => counts.replaceChildren(
    `${r.followers} follower${r.followers === 1 ? '' : 's'} · following ${r.following}`);
  showCounts();
  bar.append(h('span', {}, onlineDot(r.online), r.online ? 'Online' : 'Offline'), counts);
  if (r.playing) bar.append(watchLink(r.playing));
  const self = me.user && me.user.name.toLowerCase() === r.name.toLowerCase();
  if (!me.user || me.user.bot || self) return bar;
  // The name stays (a toggle's name must not change); aria-pressed tells whether you
  // follow them, and the words beside it say so for the eye.
  const button = h('button', {type: 'button', class: 'btn follow-toggle', 'data-action': 'follow'},
    'Follow');
  const state = h('span', {class: 'muted', 'data-testid': 'follow-state'});
  const label = () => {
    button.setAttribute('aria-pressed', r.you_follow ? 'true' : 'false');
    state.textContent = r.you_follow ? `You follow ${r.name}.` : '';
  };
  label();
  button.addEventListener('click', async () => {
    status.replaceChildren();
    const follow = !r.you_follow;
    try {
      await call(follow ? 'POST' : 'DELETE', `/api/users/${enc(r.name)}/follow`, undefined,
        me.csrf_token);
      r.you_follow = follow;
      r.followers += follow ? 1 : -1;
      label();
      showCounts();
      announce(follow ? `You follow ${r.name}.` : `You no longer follow ${r.name}.`);
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });
  bar.append(button, state, status, h('a', {href: '#/following'}, 'Players you follow'));
  return bar;
}

/** "N players online · M games in play", linked to who is online; refreshed now and then.
 * Returns the line and a function that stops its refreshing. */
export function onlineLine() {
  const line = h('p', {class: 'online-count muted', 'data-testid': 'online-count'});
  let timer = null;
  async function refresh() {
    try {
      const o = await call('GET', '/api/online?limit=0');
      line.replaceChildren(
        h('a', {href: '#/following'},
          `${o.players} player${o.players === 1 ? '' : 's'} online`),
        ` · ${o.games} game${o.games === 1 ? '' : 's'} in play`);
    } catch {
      line.replaceChildren();  // the count is a courtesy: no count, no noise
    }
    if (line.isConnected || timer === null) timer = setTimeout(refresh, POLL_MS * 5);
  }
  refresh();
  return {line, stop: () => clearTimeout(timer)};
}

