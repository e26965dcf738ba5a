// The join page of a game: the free seats to take, a name, or a link to watch instead.
// A private game (its invitation carries a join secret) shows nothing before joining.

import {account, api, heldSeats, keepSeats} from './api.js';
import {boardModule} from './games.js';
import {h} from './kit.js';
import {go} from './router.js';
import {errorNotice} from './ui.js';

export async function joinPage(main, id, secret) {
  let g;
  try {
    g = await api.game(id, null);
  } catch (error) {
    if (error.code === 'not_watchable' && secret) {
      // Nobody outside sees this game before joining: take the first free seat.
      g = {seats: [{seat: null, kind: 'human', taken: false}], status: 'active', game: null};
    } else {
      main.append(errorNotice(error.status === 404 ? 'There is no such game.' : error.message));
      return;
    }
  }
  if (!g.game) {
    main.append(h('h1', {}, 'Join a private game'));
    const status = h('div', {'aria-live': 'polite'});
    main.append(h('button', {type: 'button', class: 'btn primary', 'data-seat': 'any', onclick: async () => {
      try {
        const res = await api.join(id, null, localStorage.getItem('sansu.name') || '', null, secret);
        if (res.token) keepSeats(id, [res.seat], res.token);
        go(`#/play/${id}`);
      } catch (error) {
        status.replaceChildren(errorNotice(error.message));
      }
    }}, 'Join the game'), status);
    return;
  }
  const mod = await boardModule(g.game);
  const title = g.title || mod.meta.title;
  document.title = `Join ${title} — sansu`;
  const held = heldSeats(id);
  const free = g.seats.filter((s) => s.kind === 'human' && !s.taken);
  main.append(h('h1', {}, `Join a game of ${title}`), h('p', {class: 'muted'}, mod.meta.pitch));
  const box = h('div', {class: 'panel', style: 'max-width:36rem'});
  main.append(box);
  const seatsText = g.seats.map((s) => `${mod.meta.playerName(s.seat, g.view)}: ${s.kind === 'computer'
    ? 'computer' : (s.taken ? (s.name || 'taken') : 'free')}`).join(' · ');
  box.append(h('p', {}, seatsText));
  if (g.rated) {
    const me = (await account()).user;
    box.append(h('p', {class: 'notice', 'data-testid': 'rated-note'}, me
      ? `A rated game: you play it as ${me.name}, and it counts for your rating.`
      : ['A rated game: you play it under your account. ',
        h('a', {href: `#/account?next=${encodeURIComponent(`#/join/${id}`)}`}, 'Log in first'), '.']));
  }
  if (g.status !== 'active' || !free.length) {
    box.append(h('p', {}, g.status !== 'active' ? 'This game is over.' : 'Every seat is taken.'),
      h('a', {class: 'btn primary', href: `#/watch/${id}`}, 'Watch the game'));
    return;
  }
  const nameInput = h('input', {type: 'text', id: 'join-name', class: 'wide', maxlength: 40,
    value: localStorage.getItem('sansu.name') || '', placeholder: 'optional'});
  const status = h('div', {'aria-live': 'polite'});
  const token = Object.values(held)[0] || null;
  box.append(h('div', {class: 'field'}, h('label', {for: 'join-name'}, 'Your name'), nameInput),
    h('div', {class: 'row'}, ...free.map((s) => h('button', {type: 'button', class: 'btn primary',
      'data-seat': s.seat, onclick: async () => {
        const name = nameInput.value.trim();
        localStorage.setItem('sansu.name', name);
        try {
          const res = await api.join(id, s.seat, name, token, secret);
          keepSeats(id, [res.seat], res.token);
          go(`#/play/${id}`);
        } catch (error) {
          status.replaceChildren(errorNotice(error.message));
        }
      }}, `Play as ${mod.meta.playerName(s.seat, g.view)}`))),
    h('p', {}, h('a', {href: `#/watch/${id}`}, 'Or just watch')), status);
}
