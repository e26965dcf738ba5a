// The lobby: open challenges ("seeks") anyone may accept, quick pairing ("play someone
// now", matched by rating on the server), and a signed-in player's games in play.
// A seek or a wait lives while its page keeps looking at it (every 2 s): leaving the
// page takes it away. When a game starts, every participant's browser goes to it.

import {account, api, keepSeats} from './api.js';
import {games} from './catalog.js';
import {boardModule} from './games.js';
import {h} from './kit.js';
import {go, route} from './router.js';
import {announce, errorNotice} from './ui.js';

const LOOK_EVERY = 2000;
const CLOCKS = [
  ['', 'No clock'],
  ['180+2', '3 min + 2 s'],
  ['600+5', '10 min + 5 s'],
  ['86400+0', '1 day each'],
];

function timeControl(value) {
  if (!value) return null;
  const [initial, increment] = value.split('+').map(Number);
  return {initial_seconds: initial, increment_seconds: increment};
}

function clockLabel(tc) {
  if (!tc) return 'no clock';
  const minutes = tc.initial_seconds / 60;
  const base = minutes >= 1440 ? `${minutes / 1440} day` : `${minutes} min`;
  return tc.increment_seconds ? `${base} + ${tc.increment_seconds} s` : base;
}

/** Goes to the game a seek or a wait started, keeping the seat's token. */
function enter(seat) {
  if (seat.token) keepSeats(seat.id, seat.seats, seat.token);
  announce('The game starts.');
  go(`#/play/${seat.id}`);
}

function select(id, label, options) {
  return h('div', {class: 'field'}, h('label', {for: id}, label),
    h('select', {id, name: id}, ...options.map(([v, text]) => h('option', {value: v}, text))));
}

route(/^\/lobby$/, 'lobby', async (main) => {
  document.title = 'Lobby — sansu';
  const {user} = await account();
  const list = await games();
  const titles = Object.fromEntries(await Promise.all(list.map(async (g) =>
    [g.id, g.title || (await boardModule(g.id)).meta.title])));
  const gameOptions = list.map((g) => [g.id, titles[g.id]]);
  const timers = [];
  const every = (fn) => { timers.push(setInterval(fn, LOOK_EVERY)); };
  let mySeek = null;   // {id, ticket}
  let myWait = null;   // ticket

  main.append(h('h1', {}, 'Lobby'));

  // -- quick pairing ------------------------------------------------------------------
  const waitStatus = h('div', {'aria-live': 'polite', 'data-testid': 'pairing-status'});
  const ratedBox = (id) => (user ? h('label', {class: 'choice'},
    h('input', {type: 'checkbox', id, name: id}), 'Rated') : null);
  const pairForm = h('form', {class: 'panel', 'aria-labelledby': 'pair-h'},
    h('h2', {id: 'pair-h'}, 'Play someone now'),
    h('p', {class: 'muted'}, 'The server pairs you with a waiting player of a close rating;'
      + ' the range widens while you wait.'),
    select('pair-game', 'Game', gameOptions), select('pair-clock', 'Clock', CLOCKS),
    ratedBox('pair-rated'),
    h('button', {type: 'submit', class: 'btn primary', 'data-action': 'play-now'}, 'Play someone now'),
    waitStatus);
  const showWait = (wait) => {
    const range = wait.range === null ? 'any rating' : `rating ${wait.rating} ± ${wait.range}`;
    waitStatus.replaceChildren(h('p', {}, `Waiting ${Math.round(wait.waited)} s · ${range}`),
      h('button', {type: 'button', class: 'btn', 'data-action': 'stop-waiting', onclick: async () => {
        const ticket = myWait;
        myWait = null;
        waitStatus.replaceChildren(h('p', {}, 'Stopped waiting.'));
        await api.stopWaiting(ticket).catch(() => {});
      }}, 'Cancel'));
  };
  pairForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (myWait) return;
    const body = {game: pairForm.elements['pair-game'].value,
      time_control: timeControl(pairForm.elements['pair-clock'].value),
      casual: !(pairForm.elements['pair-rated']?.checked),
      name: localStorage.getItem('sansu.name') || null};
    try {
      const res = await api.wait(body);
      myWait = res.ticket;
      if (res.wait.seat) enter(res.wait.seat);
      else showWait(res.wait);
    } catch (error) {
      waitStatus.replaceChildren(errorNotice(error.message));
    }
  });
  every(async () => {
    if (!myWait) return;
    try {
      const {wait} = await api.lookWait(myWait);
      if (wait.seat) enter(wait.seat);
      else showWait(wait);
    } catch (error) {
      myWait = null;
      waitStatus.replaceChildren(errorNotice(error.message));
    }
  });

  // -- seeks -------------------------------------------------------------------------------
  const seekStatus = h('div', {'aria-live': 'polite', 'data-testid': 'seek-status'});
  const seekForm = h('form', {class: 'panel', 'aria-labelledby': 'seek-h'},
    h('h2', {id: 'seek-h'}, 'Post a challenge'),
    select('seek-game', 'Game', gameOptions), select('seek-clock', 'Clock', CLOCKS),
    h('div', {class: 'field'}, h('label', {for: 'seek-players'}, 'Players (Sudoku Challenge)'),
      h('select', {id: 'seek-players', name: 'seek-players'},
        ...[2, 3, 4, 5].map((n) => h('option', {value: n}, `${n} players`)))),
    ratedBox('seek-rated'),
    h('button', {type: 'submit', class: 'btn primary', 'data-action': 'post-seek'}, 'Post the challenge'),
    seekStatus);
  const playersField = seekForm.querySelector('#seek-players').parentElement;
  const syncPlayers = () => { playersField.hidden = seekForm.elements['seek-game'].value !== 'challenge'; };
  seekForm.elements['seek-game'].addEventListener('change', syncPlayers);
  syncPlayers();
  const showSeek = (seek) => {
    seekStatus.replaceChildren(
      h('p', {}, `Your challenge is open: ${seek.seated} of ${seek.players} players.`),
      h('button', {type: 'button', class: 'btn', 'data-action': 'cancel-seek', onclick: async () => {
        const mine = mySeek;
        mySeek = null;
        seekStatus.replaceChildren(h('p', {}, 'Challenge withdrawn.'));
        await api.cancelSeek(mine.id, mine.ticket).catch(() => {});
        loadSeeks();
      }}, mine() ? 'Withdraw' : 'Leave'));
  };
  const mine = () => mySeek?.poster;
  seekForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (mySeek) return;
    const game = seekForm.elements['seek-game'].value;
    const options = game === 'challenge' ? {players: Number(seekForm.elements['seek-players'].value)} : {};
    try {
      const res = await api.postSeek({game, options,
        time_control: timeControl(seekForm.elements['seek-clock'].value),
        casual: !(seekForm.elements['seek-rated']?.checked),
        name: localStorage.getItem('sansu.name') || null});
      mySeek = {id: res.seek.id, ticket: res.ticket, poster: true};
      showSeek(res.seek);
      loadSeeks();
    } catch (error) {
      seekStatus.replaceChildren(errorNotice(error.message));
    }
  });

  const seeksHolder = h('div', {'aria-live': 'polite', 'data-testid': 'seeks'});
  const accept = async (seek) => {
    try {
      const res = await api.acceptSeek(seek.id, localStorage.getItem('sansu.name') || null);
      if (res.seek.seat) {
        enter(res.seek.seat);
        return;
      }
      mySeek = {id: seek.id, ticket: res.ticket, poster: false};
      showSeek(res.seek);
    } catch (error) {
      seeksHolder.prepend(errorNotice(error.message));
    }
  };
  const loadSeeks = async () => {
    try {
      const {seeks} = await api.seeks();
      const items = seeks.map((s) => {
        const own = mySeek && mySeek.id === s.id;
        const who = s.poster.name || 'guest';
        return h('li', {'data-seek': s.id},
          h('strong', {}, titles[s.game] || s.game),
          h('span', {class: 'grow muted'}, `${who} · ${clockLabel(s.time_control)} · `
            + `${s.rated ? 'rated' : 'casual'} · ${s.seated}/${s.players} players`),
          own ? h('span', {class: 'muted'}, 'yours') : h('button', {type: 'button', class: 'btn small',
            'data-action': 'accept', 'aria-label': `Accept ${who}'s challenge of ${titles[s.game] || s.game}`,
            onclick: () => accept(s)}, 'Accept'));
      });
      seeksHolder.replaceChildren(items.length ? h('ul', {class: 'list'}, ...items)
        : h('p', {class: 'muted'}, 'No open challenges right now.'));
    } catch (error) {
      seeksHolder.replaceChildren(errorNotice(`The challenges are not available: ${error.message}`));
    }
  };
  every(async () => {
    if (mySeek) {
      try {
        const {seek} = await api.lookSeek(mySeek.id, mySeek.ticket);
        if (seek.seat) {
          mySeek = null;
          enter(seek.seat);
          return;
        }
        showSeek(seek);
      } catch (error) {
        mySeek = null;
        seekStatus.replaceChildren(errorNotice(error.message));
      }
    }
    loadSeeks();
  });

  main.append(h('div', {class: 'lobby'}, pairForm, seekForm),
    h('section', {'aria-labelledby': 'open-h'},
      h('h2', {class: 'section-title', id: 'open-h'}, 'Open challenges'), seeksHolder));
  await loadSeeks();

  // -- my games (signed in) ---------------------------------------------------------------
  if (user) {
    const holder = h('section', {'aria-labelledby': 'my-h', 'data-testid': 'my-games'},
      h('h2', {class: 'section-title', id: 'my-h'}, 'My games'));
    main.append(holder);
    try {
      const {games: mineList} = await api.myGames();
      holder.append(mineList.length ? h('ul', {class: 'list'}, ...mineList.map((g) =>
        h('li', {'data-game-id': g.id}, h('strong', {}, titles[g.game] || g.game),
          h('span', {class: 'grow muted'}, g.your_turn ? 'your move' : 'waiting'),
          h('a', {class: 'btn small', href: `#/play/${g.id}`}, 'Continue'))))
        : h('p', {class: 'muted'}, 'No game in play.'));
    } catch (error) {
      holder.append(errorNotice(error.message));
    }
  }

  // Closing the tab ends the seek and the wait at once (the server would also drop
  // them after 30 s without a look).
  const gone = () => {
    const send = (path, ticket) => fetch(path, {method: 'DELETE', keepalive: true,
      headers: {Authorization: `Bearer ${ticket}`}}).catch(() => {});
    if (myWait) send('/api/lobby/pairing', myWait);
    if (mySeek) send(`/api/lobby/seeks/${encodeURIComponent(mySeek.id)}`, mySeek.ticket);
  };
  window.addEventListener('pagehide', gone);

  return () => {
    window.removeEventListener('pagehide', gone);
    timers.forEach(clearInterval);
    // Leaving the page takes the wait and the seek away (the server also drops them
    // when nobody looks for a while).
    if (myWait) api.stopWaiting(myWait).catch(() => {});
    if (mySeek) api.cancelSeek(mySeek.id, mySeek.ticket).catch(() => {});
  };
});
