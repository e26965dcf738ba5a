// Tournaments: the list (upcoming, running, finished), the form that creates
// one (signed in; it shows the chosen format's fields only), and a tournament's
// page: live standings (redrawn at each change the tournament's news tells), each
// round's pairings linking to their games, join / pause / withdraw / start, and
// the podium once it is over. A signed-in player is taken to each new game of
// theirs at once (arena_follow.js). Every write carries the session's CSRF token
// (docs/server.md, "Accounts over HTTP").

import {follow, listen, playMine} from './arena_follow.js';
import {games} from './catalog.js';
import {h, installStyle} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const TICK_MS = 1000;
const FORMAT_NAMES = {arena: 'Arena', swiss: 'Swiss', round_robin: 'Round-robin'};
const STATUS_NAMES = {upcoming: 'Upcoming', running: 'Running', finished: 'Finished'};

let gameList = [];

function gameTitle(id) {
  return gameList.find((g) => g.id === id)?.title || id;
}

installStyle('tournament-style', `
.standings { border-collapse: collapse; width: 100%; }
.standings th, .standings td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--border); }
.standings td:nth-child(n+3) { text-align: right; }
.scroll-x { max-width: 100%; overflow-x: auto; }
`);

function timeControl(tc) {
  if (!tc) return 'no clock';
  const minutes = tc.initial_seconds / 60;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min + ${tc.increment_seconds} s`;
}

/** How many rounds: a list's summary counts them in `rounds`, a tournament's page lists
 *  them there and counts them in `round_count`. */
function roundCount(t) {
  return Array.isArray(t.rounds) ? t.round_count : t.rounds;
}

function describe(t) {
  const parts = [FORMAT_NAMES[t.format], gameTitle(t.game), timeControl(t.time_control),
    t.rated ? 'rated' : 'casual'];
  if (t.format === 'swiss') parts.push(`${roundCount(t)} rounds`);
  if (t.format === 'arena') parts.push(`${t.minutes} min`);
  if (t.table_size > 2) parts.push(`${t.table_size} players a table`);
  return parts.join(' · ');
}

// -- the list and the form --------------------------------------------------------

function field(id, text, control) {
  control.id = id;
  return h('div', {class: 'field'}, h('label', {for: id}, text), control);
}

function createForm(me, onCreated) {
  const status = h('div', {'aria-live': 'polite'});
  const gameSelect = h('select', {name: 'game'},
    ...gameList.map((g) => h('option', {value: g.id}, g.title)));
  const format = h('select', {name: 'format'},
    ...Object.entries(FORMAT_NAMES).map(([v, text]) => h('option', {value: v}, text)));
  const form = h('form', {class: 'panel', 'aria-labelledby': 'create-h', 'data-testid': 'create-tournament'},
    h('h2', {id: 'create-h'}, 'Create a tournament'),
    field('t-name', 'Name', h('input', {name: 'name', type: 'text', maxlength: 64})),
    field('t-format', 'Format', format),
    field('t-game', 'Game', gameSelect),
    field('t-players', 'Players a table (2–5)',
      h('input', {name: 'players', type: 'number', min: 2, max: 5, value: 2})),
    field('t-minutes', 'Length in minutes', h('input', {name: 'minutes', type: 'number', min: 1,
      max: 1440, value: 30})),
    field('t-rounds', 'Rounds', h('input', {name: 'rounds', type: 'number', min: 1, max: 20, value: 5})),
    field('t-initial', 'Clock: minutes each', h('input', {name: 'initial', type: 'number', min: 0.5,
      step: 0.5, value: 5, required: true})),
    field('t-increment', 'Clock: seconds added a move', h('input', {name: 'increment', type: 'number',
      min: 0, max: 3600, value: 3})),
    h('div', {class: 'field'}, h('label', {}, h('input', {name: 'rated', type: 'checkbox'}), ' Rated')),
    status,
    h('button', {type: 'submit', class: 'btn primary'}, 'Create'));
  // Only the chosen format's fields: an arena's length, a Swiss's rounds, and the players
  // a table of a Sudoku Challenge arena (Swiss and round-robin pair two a game).
  const shown = () => {
    const only = {
      't-minutes': format.value === 'arena',
      't-rounds': format.value === 'swiss',
      't-players': format.value === 'arena' && gameSelect.value === 'challenge',
    };
    for (const [id, on] of Object.entries(only)) {
      const control = form.querySelector(`#${id}`);
      control.closest('.field').hidden = !on;
      control.disabled = !on;
    }
  };
  format.addEventListener('change', shown);
  gameSelect.addEventListener('change', shown);
  shown();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.replaceChildren();
    const v = Object.fromEntries(new FormData(form));
    const body = {
      format: v.format, game: v.game, name: v.name || null, rated: v.rated === 'on',
      time_control: {initial_seconds: Number(v.initial) * 60, increment_seconds: Number(v.increment || 0)},
    };
    if (v.players) body.options = {players: Number(v.players)};
    if (v.format === 'arena') body.minutes = Number(v.minutes);
    if (v.format === 'swiss') body.rounds = Number(v.rounds);
    try {
      const t = await call('POST', '/api/tournaments', body, me.csrf_token);
      announce(`Tournament ${t.name} created.`);
      onCreated(t);
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });
  return form;
}

function listSection(status, items) {
  const id = `t-${status}-h`;
  return h('section', {'aria-labelledby': id, 'data-testid': `tournaments-${status}`},
    h('h2', {class: 'section-title', id}, STATUS_NAMES[status]),
    items.length
      ? h('ul', {class: 'list'}, ...items.map((t) => h('li', {'data-tournament': t.id},
        h('a', {href: `#/tournament/${t.id}`}, h('strong', {}, t.name)),
        h('span', {class: 'grow muted'}, `${describe(t)} · ${t.players} players`))))
      : h('p', {class: 'muted'}, 'None.'));
}

route(/^\/tournaments$/, 'tournaments', async (main) => {
  main.append(h('h1', {}, 'Tournaments'));
  gameList = await games();
  const [me, lists] = await Promise.all([
    call('GET', '/api/account'),
    Promise.all(['running', 'upcoming', 'finished'].map((s) =>
      call('GET', `/api/tournaments?status=${s}`).then((r) => [s, r.tournaments]))),
  ]);
  if (me.user) {
    main.append(createForm(me, (t) => { location.hash = `#/tournament/${t.id}`; }));
  } else {
    main.append(h('p', {class: 'muted'}, h('a', {href: '#/account'}, 'Log in'),
      ' to create or enter a tournament.'));
  }
  for (const [status, items] of lists) main.append(listSection(status, items));
});

// -- one tournament -------------------------------------------------------------

function standingsTable(t) {
  const tie = t.format === 'swiss' ? 'Buchholz' : t.format === 'round_robin' ? 'Sonneborn–Berger' : 'Wins';
  return h('div', {class: 'scroll-x', tabindex: 0, role: 'region', 'aria-labelledby': 'standings-h'},
    h('table', {class: 'standings', 'data-testid': 'standings'},
      h('thead', {}, h('tr', {},
        ...['#', 'Player', 'Score', tie, 'Games'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, ...t.standings.map((s) => h('tr', {'data-player': s.name},
        h('td', {}, String(s.rank)),
        h('th', {scope: 'row'}, s.name, s.bot ? h('span', {class: 'tag'}, ' BOT') : null,
          s.fire ? h('span', {'aria-label': 'on a streak', title: 'on a streak'}, ' 🔥') : null,
          s.paused ? h('span', {class: 'muted'}, ' (paused)') : null,
          s.withdrawn ? h('span', {class: 'muted'}, ' (withdrawn)') : null),
        h('td', {'data-testid': 'score'}, String(s.score)),
        h('td', {}, String(s.tiebreak)),
        h('td', {}, String(s.games)))))));
}

function outcomeText(p) {
  if (p.kind === 'bye') return 'bye';
  if (p.kind === 'forfeit') return `${p.players[0].name} wins by forfeit`;
  if (!p.finished) return 'playing';
  const winners = p.players.filter((_, i) => p.outcomes[i] === 'win').map((x) => x.name);
  return winners.length ? `${winners.join(' and ')} won` : 'draw';
}

/** Opens the player's own game (a fresh seat token for this browser), or says why not. */
async function openMine(t, p, me, notice) {
  try {
    await playMine(t, p, me);
  } catch (error) {
    notice.replaceChildren(errorNotice(error.message));
  }
}

function gameLink(t, p, me, notice) {
  const names = p.players.map((x) => x.name).join(' against ');
  const mine = me.user && !p.finished && p.players.some((x) => x.user_id === me.user.id);
  if (mine) {
    return h('button', {type: 'button', class: 'btn small primary', onclick: () => openMine(t, p, me, notice)},
      'Play your game', h('span', {class: 'visually-hidden'}, ` ${names}`));
  }
  return h('a', {class: 'btn small', href: `#/play/${p.game_id}`},
    p.finished ? 'Replay' : 'Watch', h('span', {class: 'visually-hidden'}, ` ${names}`));
}

function roundsSection(t, me, notice) {
  const rounds = [...t.rounds].reverse();
  const label = t.format === 'arena' ? 'Games' : 'Rounds';
  return h('section', {'aria-labelledby': 'rounds-h'},
    h('h2', {class: 'section-title', id: 'rounds-h'}, label),
    rounds.length ? h('ul', {class: 'list', 'data-testid': 'pairings'}, ...rounds.flatMap((r) =>
      r.pairings.map((p) => h('li', {},
        t.format === 'arena' ? null : h('span', {}, `Round ${r.round}, board ${p.board}`),
        h('span', {class: 'grow'}, p.players.map((x) => x.name).join(' – '), h('span', {class: 'muted'},
          ` · ${outcomeText(p)}`)),
        p.game_id ? gameLink(t, p, me, notice) : null))))
      : h('p', {class: 'muted'}, 'No game yet.'));
}

function podium(t) {
  if (!t.podium.length) return null;
  const places = ['1st', '2nd', '3rd'];
  return h('section', {class: 'panel', 'aria-labelledby': 'podium-h', 'data-testid': 'podium'},
    h('h2', {id: 'podium-h'}, 'Podium'),
    h('ol', {}, ...t.podium.map((s, i) => h('li', {}, `${places[i]}: `, h('strong', {}, s.name),
      ` — ${s.score} points`))));
}

function actions(t, me, act) {
  if (!me.user) {
    return h('p', {class: 'muted'}, h('a', {href: '#/account'}, 'Log in'), ' to enter.');
  }
  const mine = t.standings.find((s) => s.user_id === me.user.id);
  const buttons = [];
  const button = (text, what, body) => h('button', {type: 'button', class: 'btn', onclick: () => act(what, body)}, text);
  if (t.status !== 'finished') {
    const open = t.status === 'upcoming' || t.format === 'arena';
    const away = !mine || mine.withdrawn || (t.format === 'arena' && mine.paused);
    if (away && open) buttons.push(button('Join', 'join'));
    if (mine && !mine.withdrawn && !mine.paused && t.format === 'arena' && t.status === 'running') {
      buttons.push(button('Pause', 'pause', {paused: true}));
    }
    if (mine && !mine.withdrawn) buttons.push(button('Withdraw', 'withdraw'));
    if (t.status === 'upcoming' && t.created_by === me.user.id) buttons.push(button('Start now', 'start'));
  }
  return buttons.length ? h('div', {class: 'row'}, ...buttons) : null;
}

function pausedNote(t, me) {
  const mine = me.user && t.standings.find((s) => s.user_id === me.user.id);
  if (!mine?.paused || mine.withdrawn || t.status === 'finished') return null;
  return h('p', {class: 'notice', 'data-testid': 'paused-note'},
    'You are paused: you are not paired until you join again. (A player who lets a new game '
    + 'go by without a move is paused.)');
}

function clockLine(t, now = t.now) {
  if (t.status === 'upcoming') return t.starts_at ? `Starts at ${new Date(t.starts_at * 1000).toLocaleTimeString()}` : 'Starts when its creator starts it.';
  if (t.status === 'finished') return 'Finished.';
  if (t.format === 'arena') {
    const left = Math.max(0, Math.round(t.ends_at - now));
    return left > 0 ? `${Math.floor(left / 60)} min ${left % 60} s left` : 'Time is up: the last games are being played.';
  }
  return `Round ${t.round} of ${roundCount(t)}`;
}

route(/^\/tournament\/([A-Za-z0-9_-]{1,24})$/, 'tournaments', async (main, match) => {
  const tid = match[1];
  gameList = await games();
  const heading = h('h1', {}, 'Tournament');
  const body = h('div', {});
  const notice = h('div', {'aria-live': 'polite'});
  main.append(heading, notice, body);
  let me = await call('GET', '/api/account');
  let left = false;       // the page was left: nothing may take the browser anywhere
  const here = () => !left;
  let shown = null;       // the tournament as last drawn
  let shownAt = 0;        // when (this browser's clock), for the time left
  const status = h('p', {'data-testid': 'tournament-status'});
  const drawStatus = () => {
    const now = shown.now + (Date.now() - shownAt) / 1000;
    status.replaceChildren(h('strong', {}, STATUS_NAMES[shown.status]), ' · ', clockLine(shown, now));
  };
  const draw = (t) => {
    shown = t;
    shownAt = Date.now();
    heading.textContent = t.name;
    // A redraw must not take the keyboard's place away: focus the same control again.
    const focused = body.contains(document.activeElement) ? document.activeElement : null;
    const same = focused && [focused.tagName, focused.getAttribute('href'), focused.textContent];
    drawStatus();
    body.replaceChildren(...[
      h('p', {class: 'muted'}, describe(t)),
      status,
      actions(t, me, act),
      pausedNote(t, me),
      podium(t),
      h('h2', {class: 'section-title', id: 'standings-h'}, 'Standings'),
      t.standings.length ? standingsTable(t) : h('p', {class: 'muted'}, 'Nobody has entered yet.'),
      roundsSection(t, me, notice),
    ].filter(Boolean));
    if (same) {
      const again = [...body.querySelectorAll(same[0])].find((el) =>
        el.getAttribute('href') === same[1] && el.textContent === same[2]);
      if (again) again.focus();
    }
  };
  const act = async (what, payload) => {
    notice.replaceChildren();
    try {
      const t = await call('POST', `/api/tournaments/${tid}/${what}`, payload, me.csrf_token);
      announce({join: 'You entered the tournament.', pause: 'Done.', withdraw: 'You withdrew.',
        start: 'The tournament started.'}[what]);
      draw(t);
      await follow(t, me, null, here);
    } catch (error) {
      notice.replaceChildren(errorNotice(error.message));
      me = await call('GET', '/api/account');
    }
  };
  try {
    draw(await call('GET', `/api/tournaments/${tid}`));
  } catch (error) {
    body.replaceChildren(errorNotice(error.message));
    return undefined;
  }
  // Every change redraws the page; a new game of the player's takes them there at once.
  const stop = listen(tid, async (t) => {
    if (left) return;
    draw(t);
    await follow(t, me, null, here);
  });
  const ticker = setInterval(() => { if (shown.status === 'running') drawStatus(); }, TICK_MS);
  return () => {
    left = true;
    stop();
    clearInterval(ticker);
  };
});
