// Challenging an account by name (a person from their profile, a bot from its page):
// the form (game, clock, side, rated), then the page polls the challenge until it is
// accepted (then opens the game) or declined (and says why); a challenge waiting for
// its answer may be cancelled. Incoming challenges are answered from the playing strip.

import {keepSeats} from './api.js';
import {h} from './kit.js';
import {go} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const POLL_MS = 1000;

function field(id, text, input) {
  return h('div', {class: 'field'}, h('label', {for: id}, text), input);
}

/** The games two can play (a challenge is between two accounts). */
export async function twoPlayerGames() {
  const {games} = await call('GET', '/api/catalog');
  return games.filter((g) => g.players === 2);
}

/** The form that challenges `name`; `stop()` ends its polling (the page was left). */
export function challengeForm(name, games, me) {
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

