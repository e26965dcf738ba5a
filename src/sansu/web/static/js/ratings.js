// Ratings on the web: a player's profile (#/@/NAME) with a rating chart per game,
// and the leaderboards (#/leaderboard/GAME). A player's rating beside their name
// in a game is seat_rating.js's; creating and joining a rated game are ordinary
// calls (api.js sends the session's CSRF token with every write).

import {ApiError, errorText} from './api.js';
import {catalog as loadCatalog, games, levelRatings} from './catalog.js';
import {challengeForm, twoPlayerGames} from './challenge.js';
import {relationBar} from './relations.js';
import {KNOWN_GAMES} from './games.js';
import {reportButton} from './report.js';
import {h, s} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';
import {errorNotice} from './ui.js';

const SPEED_NAMES = {untimed: 'No clock', timed: 'Clock', correspondence: 'Correspondence'};
const enc = encodeURIComponent;

async function getJson(path) {
  let res;
  try {
    res = await fetch(path, {headers: {Accept: 'application/json'}, credentials: 'same-origin'});
  } catch {
    throw new ApiError(0, 'The server cannot be reached.', null);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, errorText(data) || `${res.status}`, data);
  return data;
}

/** A link to a player's profile. */
export function profileLink(name, text = name) {
  return h('a', {href: `#/@/${enc(name)}`}, text);
}

// -- the chart ----------------------------------------------------------------------------

/** An SVG line chart of `points` ([[time, rating], …]) with its axes labelled. */
export function ratingChart(points, label) {
  const W = 320; const H = 120; const L = 40; const B = 18; const T = 8; const R = 8;
  const ratings = points.map((p) => p[1]);
  let lo = Math.min(...ratings); let hi = Math.max(...ratings);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const x = (k) => L + (points.length > 1 ? (k / (points.length - 1)) * (W - L - R) : (W - L - R) / 2);
  const y = (r) => T + (1 - (r - lo) / (hi - lo)) * (H - T - B);
  const path = points.map((p, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)},${y(p[1]).toFixed(1)}`).join('');
  const day = (t) => new Date(t * 1000).toLocaleDateString(undefined, {month: 'short', day: 'numeric'});
  return s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-label': label},
    s('line', {x1: L, y1: T, x2: L, y2: H - B, class: 'axis'}),
    s('line', {x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis'}),
    s('text', {x: L - 4, y: y(hi) + 4, 'text-anchor': 'end'}, document.createTextNode(String(Math.round(hi)))),
    s('text', {x: L - 4, y: y(lo) + 4, 'text-anchor': 'end'}, document.createTextNode(String(Math.round(lo)))),
    s('text', {x: L, y: H - 4}, document.createTextNode(day(points[0][0]))),
    s('text', {x: W - R, y: H - 4, 'text-anchor': 'end'},
      document.createTextNode(day(points[points.length - 1][0]))),
    s('path', {d: path, class: 'line'}),
    ...points.map((p, k) => s('circle', {cx: x(k), cy: y(p[1]), r: points.length > 30 ? 1.5 : 3,
      class: 'point'})));
}

// -- the profile page ---------------------------------------------------------------------

function outcomeText(game) {
  if (game.status === 'active') return 'in play';
  if (game.status === 'aborted') return 'aborted';
  return {win: 'won', loss: 'lost', draw: 'drawn'}[game.outcome] || 'over';
}

function recentItem(game) {
  const others = game.players.filter((p) => !p.you).map((p) => (p.kind === 'computer'
    ? `computer (${p.level})` : (p.account && p.name ? profileLink(p.name) : (p.name || 'guest'))));
  const vs = others.flatMap((o, k) => (k ? [', ', o] : [o]));
  const href = game.status === 'active' ? `#/watch/${enc(game.id)}` : `#/replay/${enc(game.id)}`;
  return h('li', {class: 'recent-game', 'data-game': game.id},
    h('a', {href}, game.title), ' vs ', ...(vs.length ? vs : ['nobody yet']), ' ',
    h('span', {class: 'meta'}, '— ', h('span', {class: `outcome ${game.outcome || ''}`}, outcomeText(game)),
      game.rated ? h('span', {class: 'muted'}, ' · rated') : null,
      game.change ? h('span', {class: `rating-change ${game.change.startsWith('-') ? 'down' : 'up'}`},
        ` ${game.change}`) : null,
      h('span', {class: 'muted'}, ` · ${new Date(game.at * 1000).toLocaleDateString()}`)));
}

function ratingCard(r, name) {
  const label = `${name}'s ${r.title} rating (${SPEED_NAMES[r.speed] || r.speed}) over ${r.games} games`;
  return h('section', {class: 'panel rating-card', 'data-testid': `rating-${r.game}-${r.speed}`},
    h('h2', {}, `${r.title} · ${SPEED_NAMES[r.speed] || r.speed}`),
    h('p', {class: 'big-rating'}, h('strong', {'data-testid': 'rating-value'}, r.shown),
      h('span', {class: 'muted'}, ` ± ${Math.round(r.deviation * 2)}`)),
    h('p', {class: 'wdl'}, `${r.wins} won · ${r.draws} drawn · ${r.losses} lost`),
    r.history.length ? ratingChart(r.history, label) : null,
    h('p', {}, h('a', {href: `#/leaderboard/${enc(r.game)}`}, `${r.title} leaderboard`)));
}

async function profilePage(main, name) {
  let p;
  try {
    p = await getJson(`/api/users/${enc(name)}`);
  } catch (error) {
    main.append(h('h1', {}, name), errorNotice(error.status === 404 ? 'There is no such player.'
      : error.message));
    return;
  }
  document.title = `${p.name} — sansu`;
  const since = new Date(p.member_since * 1000).toLocaleDateString(undefined,
    {year: 'numeric', month: 'long', day: 'numeric'});
  main.append(
    h('h1', {class: 'profile-name'}, p.name, p.bot ? h('span', {class: 'bot-mark'}, 'BOT') : null),
    p.closed ? h('p', {class: 'notice', 'data-testid': 'closed-mark'}, 'This account is closed.') : null,
    p.engine ? h('p', {class: 'notice', 'data-testid': 'engine-mark'},
      'A moderator found this account used an engine: its games change no rating.') : null,
    h('p', {class: 'muted'}, `Member since ${since} · ${p.wins} won · ${p.draws} drawn · ${p.losses} lost`
      + ' in rated games'),
    p.ratings.length ? h('div', {class: 'rating-cards'}, ...p.ratings.map((r) => ratingCard(r, p.name)))
      : h('p', {}, 'No rated game yet.'),
    h('h2', {}, 'Recent games'),
    p.recent.length ? h('ul', {class: 'recent-games'}, ...p.recent.map(recentItem))
      : h('p', {class: 'muted'}, 'No game yet.'));
  // A signed-in person challenges another by name (a bot from its own page).
  const me = await call('GET', '/api/account');
  main.querySelector('.profile-name').after(await relationBar(p.name, me));
  const someoneElse = me.user && me.user.name.toLowerCase() !== p.name.toLowerCase();
  if (someoneElse && !me.user.bot) main.append(reportButton(p.name, me));
  if (p.bot) {
    main.append(h('p', {}, h('a', {href: `#/bot/${enc(p.name)}`}, `Challenge ${p.name}`)));
  } else if (me.user && !me.user.bot && me.user.name.toLowerCase() !== p.name.toLowerCase()) {
    const {form, stop} = challengeForm(p.name, await twoPlayerGames(), me);
    main.append(form);
    return stop;
  }
  return undefined;
}

// -- leaderboards --------------------------------------------------------------------------

function boardTable(rows, caption) {
  return h('table', {class: 'leaderboard'}, h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, 'Player'),
      h('th', {scope: 'col'}, 'Rating'), h('th', {scope: 'col'}, 'Games (90 days)'))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, h('td', {}, r.rank), h('td', {}, profileLink(r.name)),
      h('td', {}, r.rating), h('td', {}, r.recent_games)))));
}

async function leaderboardPage(main, game) {
  // The tabs in the home page's order (the catalog's, as games() gives it).
  const [catalog, list] = await Promise.all([loadCatalog(), games()]);
  const titles = Object.fromEntries(list.map((g) => [g.id, g.title]));
  const ids = list.length ? list.map((g) => g.id) : KNOWN_GAMES;
  const chosen = game || ids[0];
  document.title = `Leaderboards — sansu`;
  main.append(h('h1', {}, 'Leaderboards'),
    h('nav', {class: 'row game-tabs', 'aria-label': 'Games'}, ...ids.map((id) => h('a', {
      class: 'btn small', href: `#/leaderboard/${enc(id)}`,
      'aria-current': id === chosen ? 'page' : null}, titles[id] || id))));
  let data;
  try {
    data = await getJson(`/api/leaderboard/${enc(chosen)}`);
  } catch (error) {
    main.append(errorNotice(error.message));
    return;
  }
  main.append(h('p', {class: 'muted'}, `Players with at least ${data.min_games} rated games in the`
    + ` last ${data.days} days, whose rating is no longer provisional.`));
  const levels = levelRatings(catalog, chosen);
  for (const board of data.boards) {
    const speed = SPEED_NAMES[board.speed] || board.speed;
    const any = board.humans.length || board.bots.length;
    main.append(h('section', {class: 'panel'}, h('h2', {}, `${titles[chosen] || chosen} · ${speed}`),
      board.humans.length ? boardTable(board.humans, 'Players') : null,
      board.bots.length ? boardTable(board.bots, 'Bots') : null,
      any ? null : h('p', {class: 'muted'}, 'Nobody yet.')));
  }
  if (Object.keys(levels).length) {
    main.append(h('section', {class: 'panel'}, h('h2', {}, 'The computer levels'),
      h('p', {}, Object.entries(levels).map(([l, r]) => `${l} ${r}`).join(' · '))));
  }
}

route(/^\/@\/([A-Za-z0-9_-]{1,20})$/, 'leaderboard', (main, m) => profilePage(main, m[1]));
route(/^\/leaderboard(?:\/([a-z0-9_-]+))?$/, 'leaderboard', (main, m) => leaderboardPage(main, m[1]));
