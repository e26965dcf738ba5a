// Following one's player into each new tournament game, as lichess's pages do: the
// tournament page and the page of a finished tournament game listen to the tournament's
// news (GET /api/tournaments/{id}/news, answered at each change) and, when the signed-in
// player is paired, take this browser to the new game at once, with a seat token of its
// own. Each game is followed into once per tab, so a player who goes back to the
// tournament page while playing is not sent away again.

import {keepSeats} from './api.js';
import {h} from './kit.js';
import {call} from './session.js';

const GAMES_KEY = 'sansu.tournament-games';  // {game id: tournament id}, this browser's
const SENT_KEY = 'sansu.followed-games';      // game ids this tab was taken to
const KEEP = 50;
const RETRY_MS = 2000;

function read(storage, key, empty) {
  try { return JSON.parse(storage.getItem(key)) || empty; } catch { return empty; }
}

/** Remembers that game `gid` is one of tournament `tid`'s (for its page to follow on). */
export function rememberGame(gid, tid) {
  const all = read(localStorage, GAMES_KEY, {});
  delete all[gid];
  all[gid] = tid;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEEP))) delete all[old];
  localStorage.setItem(GAMES_KEY, JSON.stringify(all));
}

/** The tournament game `gid` belongs to, as far as this browser knows (or null). */
export function tournamentOf(gid) {
  return read(localStorage, GAMES_KEY, {})[gid] || null;
}

function followed(gid) {
  return read(sessionStorage, SENT_KEY, []).includes(gid);
}

function markFollowed(gid) {
  const sent = read(sessionStorage, SENT_KEY, []).filter((x) => x !== gid);
  sessionStorage.setItem(SENT_KEY, JSON.stringify([...sent, gid].slice(-KEEP)));
}

/** The player's game under way in tournament `t` (its pairing), or null. */
export function openGameOf(t, userId) {
  for (const r of [...t.rounds].reverse()) {
    const p = r.pairings.find((x) => x.kind === 'game' && !x.finished && x.game_id
      && x.players.some((pl) => pl.user_id === userId));
    if (p) return p;
  }
  return null;
}

const opening = new Set();  // games whose seat token is being asked for

/** Opens the player's game `p` of tournament `t`: a fresh seat token for this browser,
 *  then the game page, unless `shown()` says the page that asked was left meanwhile. */
export async function playMine(t, p, me, shown = () => true) {
  const r = await call('POST', `/api/tournaments/${t.id}/games/${p.game_id}/token`, undefined, me.csrf_token);
  keepSeats(p.game_id, [r.seat], r.token);
  rememberGame(p.game_id, t.id);
  if (!shown()) return;
  markFollowed(p.game_id);
  location.hash = `#/play/${p.game_id}`;
}

/** Takes the page to the player's new game in `t`, if there is one it was not taken to
 *  (`except`: a game not to go to, the one shown; `shown()`: whether the page is still
 *  the one shown). True when it goes. */
export async function follow(t, me, except = null, shown = () => true) {
  if (!me.user || t.status !== 'running') return false;
  const p = openGameOf(t, me.user.id);
  if (!p || p.game_id === except || followed(p.game_id) || opening.has(p.game_id)) return false;
  opening.add(p.game_id);
  try {
    await playMine(t, p, me, shown);
    return shown();
  } catch {
    return false;  // the game ended meanwhile: the next news tells
  } finally {
    opening.delete(p.game_id);
  }
}

/** Calls `onNews(t, shown)` with the tournament at once and at each of its changes, until
 *  `stop()` is called or it is over (`shown()`: not stopped yet). Answers `stop`. */
export function listen(tid, onNews) {
  const abort = new AbortController();
  let version = null;
  const loop = async () => {
    while (!abort.signal.aborted) {
      const query = version === null ? '' : `?since=${encodeURIComponent(version)}`;
      let t;
      try {
        const res = await fetch(`/api/tournaments/${tid}/news${query}`,
          {headers: {Accept: 'application/json'}, signal: abort.signal});
        if (!res.ok) throw new Error(String(res.status));
        t = await res.json();
      } catch {
        if (abort.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      if (abort.signal.aborted) return;
      version = t.version;
      await onNews(t, () => !abort.signal.aborted);
      if (t.status === 'finished') return;
    }
  };
  loop();
  return () => abort.abort();
}

/** On the page of game `gid` (a tournament game this browser knows of): a note, put on
 *  the page by `place(note)`, saying what comes next once the game is over, and the move
 *  to the player's next game once paired. Answers a function that stops listening. */
export function followFromGame(gid, me, place) {
  const tid = tournamentOf(gid);
  if (!tid || !me.user) return () => {};
  const note = h('div', {class: 'notice', 'aria-live': 'polite', 'data-testid': 'tournament-next', hidden: true});
  place(note);
  return listen(tid, async (t, shown) => {
    const mine = t.standings.find((s) => s.user_id === me.user.id);
    const here = t.rounds.flatMap((r) => r.pairings).find((p) => p.game_id === gid);
    if (!mine || !here?.finished) return;
    if (await follow(t, me, gid, shown) || !shown()) return;
    const link = h('a', {href: `#/tournament/${t.id}`}, t.name);
    let text;
    if (t.status === 'finished') text = ['The tournament is over: see ', link, '.'];
    else if (mine.withdrawn) text = ['You left ', link, '.'];
    else if (mine.paused) text = ['You are paused in ', link, ': join again there to be paired.'];
    else if (t.format === 'arena') text = [link, ': your next game starts as soon as an opponent is free.'];
    else text = [link, ': your next game starts with the next round.'];
    note.replaceChildren(h('p', {style: 'margin:0'}, ...text));
    note.hidden = false;
  });
}
