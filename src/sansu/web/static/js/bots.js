// Bots: the "challenge a bot" list (#/bots) and a bot's profile with its challenge
// form (#/bot/<name>); the account page's bot panels are in bot_account.js. A
// challenge is answered by the bot's program; the page polls the challenge until
// it is accepted (then opens the game) or declined (and says why).

import {keepSeats} from './api.js';
import {botBadge} from './bot_account.js';
import {h, installStyle} from './kit.js';
import {go, route} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const POLL_MS = 1000;

installStyle('bots', `
.bot-list { list-style: none; padding: 0; }
.bot-list li { padding: .4rem 0; }
.bot-list .online { font-weight: 600; }
`);

function botLink(bot) {
  return h('li', {class: 'bot-item'},
    h('a', {href: `#/bot/${encodeURIComponent(bot.name)}`, 'data-bot': bot.name}, bot.name), ' ',
    botBadge(), ' ',
    h('span', {class: bot.online ? 'online' : 'muted'}, bot.online ? 'online' : 'offline'));
}

route(/^\/bots$/, 'bots', async (main) => {
  main.append(h('h1', {}, 'Challenge a bot'),
    h('p', {class: 'muted'}, 'Programs playing online. Pick one to challenge it; ',
      'online bots answer at once. Run your own with ', h('code', {}, 'sansu bot'), '.'));
  const {bots} = await call('GET', '/api/bots');
  if (!bots.length) {
    main.append(h('p', {}, 'No bot has an account here yet.'));
    return;
  }
  main.append(h('ul', {class: 'bot-list', 'data-testid': 'bot-list'}, ...bots.map(botLink)));
});

function field(id, text, input) {
  return h('div', {class: 'field'}, h('label', {for: id}, text), input);
}

async function twoPlayerGames() {
  const {games} = await call('GET', '/api/catalog');
  return games.filter((g) => g.players === 2);
}

function challengeForm(name, games, me) {
  const status = h('div', {'aria-live': 'polite', 'data-testid': 'challenge-status'});
  const form = h('form', {class: 'panel', 'aria-labelledby': 'challenge-h'},
    h('h2', {id: 'challenge-h'}, `Challenge ${name}`),
    field('challenge-game', 'Game', h('select', {id: 'challenge-game', name: 'game'},
      ...games.map((g) => h('option', {value: g.id}, g.title)))),
    field('challenge-minutes', 'Minutes each (0: no clock)',
      h('input', {id: 'challenge-minutes', name: 'minutes', type: 'number', min: 0, max: 180,
        value: 5})),
    field('challenge-increment', 'Seconds added per move',
      h('input', {id: 'challenge-increment', name: 'increment', type: 'number', min: 0, max: 60,
        value: 2})),
    field('challenge-seat', 'You play', h('select', {id: 'challenge-seat', name: 'seat'},
      h('option', {value: 'random'}, 'either side (drawn)'),
      h('option', {value: '0'}, 'first'), h('option', {value: '1'}, 'second'))),
    h('div', {class: 'field'}, h('label', {},
      h('input', {type: 'checkbox', name: 'rated', id: 'challenge-rated'}), ' Rated')),
    status, h('button', {type: 'submit', class: 'btn primary'}, 'Challenge'));
  let polling = null;
  let open = null;  // the challenge waiting for an answer: it may be cancelled

  async function cancel() {
    if (!open) return;
    try {
      await call('POST', `/api/challenge/${open}/cancel`, undefined, me.csrf_token);
      clearInterval(polling);
      open = null;
      status.replaceChildren(h('p', {role: 'status'}, 'Challenge cancelled.'));
      announce('Challenge cancelled.');
    } catch (error) {
      status.append(errorNotice(error.message));
    }
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.replaceChildren();
    const v = Object.fromEntries(new FormData(form));
    const minutes = Number(v.minutes) || 0;
    const body = {game: v.game, rated: v.rated === 'on',
      challenger_seat: v.seat === 'random' ? null : Number(v.seat),
      time_control: minutes > 0
        ? {initial_seconds: minutes * 60, increment_seconds: Number(v.increment) || 0} : null};
    try {
      const made = await call('POST', `/api/challenge/${encodeURIComponent(name)}`, body,
        me.csrf_token);
      open = made.id;
      status.replaceChildren(h('p', {role: 'status'}, `Challenge sent: waiting for ${name}… `,
        h('button', {type: 'button', class: 'btn small', 'data-action': 'cancel-challenge',
          onclick: cancel}, 'Cancel')));
      announce(`Challenge sent to ${name}.`);
      polling = setInterval(() => follow(made.id), POLL_MS);
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });

  async function follow(id) {
    let c;
    try {
      c = await call('GET', `/api/challenges/${id}`);
    } catch (error) {
      clearInterval(polling);
      status.replaceChildren(errorNotice(error.message));
      return;
    }
    if (c.status === 'open' || open !== id) return;
    clearInterval(polling);
    open = null;
    if (c.status === 'accepted') {
      if (c.seat_token) keepSeats(c.game_id, [c.seat], c.seat_token);
      announce(`${name} accepted.`);
      go(`#/play/${c.game_id}`);
      return;
    }
    const why = c.reason ? `: ${c.reason}` : '';
    status.replaceChildren(errorNotice(`${name} ${c.status} the challenge${why}.`));
  }
  return {form, stop: () => clearInterval(polling)};
}

route(/^\/bot\/([\w-]+)$/, 'bots', async (main, m) => {
  const name = m[1];
  const {bots} = await call('GET', '/api/bots');
  const bot = bots.find((b) => b.name.toLowerCase() === name.toLowerCase());
  if (!bot) {
    main.append(h('h1', {}, 'No such bot'), h('p', {}, h('a', {href: '#/bots'}, 'All bots')));
    return undefined;
  }
  main.append(h('h1', {}, h('span', {'data-testid': 'bot-name'}, bot.name), ' ', botBadge()),
    h('p', {}, bot.online ? 'Online: it answers challenges now.' : 'Offline for now.'));
  const me = await call('GET', '/api/account');
  if (!me.user) {
    main.append(h('p', {}, h('a', {href: '#/account'}, 'Log in'), ' to challenge this bot.'));
    return undefined;
  }
  if (me.user.bot) {
    main.append(h('p', {class: 'muted'}, 'A bot account challenges through the bot API.'));
    return undefined;
  }
  if (!bot.online) {
    // Nothing would answer: a challenge waits for a bot whose program is running.
    main.append(h('p', {class: 'muted', 'data-testid': 'bot-offline'},
      `${bot.name} can be challenged when its program is running again.`));
    return undefined;
  }
  const {form, stop} = challengeForm(bot.name, await twoPlayerGames(), me);
  main.append(form);
  return stop;
});
