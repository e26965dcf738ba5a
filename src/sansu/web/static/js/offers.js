// Courtesy between the two people at a board: draw offers, takeback requests, and the
// claim once the opponent left. The server keeps each offer (GET /api/games/{id} says
// `offers`: kind → the offering seat) and tells both players by events; this module
// draws the controls for the game page and keeps `g.offers` as events arrive.

import {api} from './api.js';
import {h, installStyle} from './kit.js';
import {announce} from './ui.js';

const CSS = `
.controls .offer-box { order: -1; display: flex; flex-wrap: wrap; align-items: center;
  gap: .4rem; width: 100%; padding: .45rem .6rem; border: 1px solid var(--focus);
  border-radius: .4rem; }
.offer-box .offer-text { flex: 1 0 100%; }
`;

const NAMES = {draw: 'a draw', takeback: 'to take back their last move'};

/** Whether the page's player faces one other person: offers are only between two people. */
export function betweenPeople(page) {
  const g = page.g;
  return !page.replay && page.solo && g.status === 'active' && g.seats.length === 2
    && g.seats.every((s) => s.kind === 'human' && s.taken);
}

/** The offers that still stand after the position event `e` (the server's rule, mirrored:
 *  a draw offer survives its offerer's own moves, a takeback request survives nothing). */
export function offersAfter(g, type, e) {
  const draw = g.offers?.draw;
  const kept = {};
  if (type === 'move' && draw !== undefined && e.seat === draw) kept.draw = draw;
  return kept;
}

/** Keeps `g.offers` for an offer event; true when `e` was one. */
export function offerEvent(page, e) {
  const g = page.g;
  if (!['offer', 'offer_declined', 'offer_withdrawn'].includes(e.type)) return false;
  const offers = {...(g.offers || {})};
  if (e.type === 'offer') offers[e.offer] = e.seat;
  else delete offers[e.offer];
  g.offers = offers;
  const who = page.seatName(e.seat);
  if (e.type === 'offer' && !page.mine(e.seat)) announce(`${who} offers ${NAMES[e.offer]}.`);
  if (e.type === 'offer_declined' && !page.mine(e.seat)) {
    page.explain(`${who} declined your ${e.offer === 'draw' ? 'draw offer' : 'takeback request'}.`,
      'hint');
  }
  page.renderControls();
  return true;
}

async function act(page, call) {
  try {
    const res = await call();
    if (res?.offers) page.g.offers = res.offers;
    page.renderControls();
  } catch (error) {
    page.explain(error.message);
    if (error.code === 'stale_state') page.refresh();
  }
}

function box(kind, text, ...buttons) {
  return h('div', {class: 'offer-box', role: 'group', 'aria-label': text || 'Claim the game',
    'data-testid': `offer-${kind}`}, text ? h('span', {class: 'offer-text'}, text) : null, ...buttons);
}

function button(label, action, onclick, cls = 'btn') {
  return h('button', {type: 'button', class: cls, 'data-action': action, onclick}, label);
}

/** The offer and claim controls of the page's player (none for spectators). */
export function offerControls(page) {
  installStyle('offers', CSS);
  const g = page.g;
  const out = [];
  if (!betweenPeople(page)) return out;
  const offers = g.offers || {};
  const id = page.id;
  const token = page.token;
  const answer = (kind, yes) => () => act(page, () => api.answerOffer(id, token, kind, yes));
  const ask = (kind) => () => act(page, () => api.offer(id, token, kind, g.state));
  for (const kind of ['draw', 'takeback']) {
    const by = offers[kind];
    if (by === undefined) continue;
    if (page.mine(by)) {
      out.push(box(kind, kind === 'draw' ? 'You offered a draw: waiting for the answer.'
        : 'You asked to take back your move: waiting for the answer.',
      button('Cancel', `withdraw-${kind}`, answer(kind, false))));
    } else {
      out.push(box(kind, `${page.seatName(by)} offers ${NAMES[kind]}`,
        button('Accept', `accept-${kind}`, answer(kind, true), 'btn primary'),
        button('Decline', `decline-${kind}`, answer(kind, false))));
    }
  }
  if (g.can_draw && offers.draw === undefined) {
    out.push(button('Offer a draw', 'offer-draw', ask('draw')));
  }
  if (g.casual && offers.takeback === undefined && g.moves.some((m) => page.mine(m.seat))) {
    out.push(button('Ask to take back', 'offer-takeback', ask('takeback')));
  }
  out.push(...claimControls(page));
  return out;
}

/** "Claim victory" and "Call it a draw" once the server allows a claim; before that, a
 *  countdown (the server says when in `claim_at`). */
function claimControls(page) {
  const g = page.g;
  if (!g.claim_at) return [];
  const left = () => Math.ceil(g.claim_at - Date.now() / 1000);
  if (left() > 0) {
    const text = h('span', {'data-testid': 'claim-countdown'});
    let timer = null;
    const tick = () => {
      if (timer !== null && !text.isConnected) {  // the controls were drawn again
        clearInterval(timer);
        return;
      }
      const n = left();
      if (n <= 0) {
        clearInterval(timer);
        page.renderControls();
        return;
      }
      text.textContent = `${page.seatName(g.view.to_move)} left the game: you may claim it in ${n} s.`;
    };
    tick();
    clearInterval(page.claimTimer);
    timer = page.claimTimer = setInterval(tick, 1000);
    return [box('claim', '', text)];
  }
  const claim = (draw) => async () => {
    try {
      await api.claim(page.id, page.token, g.state, draw);
    } catch (error) {
      page.explain(error.message);
      page.refresh();
    }
  };
  const buttons = [button('Claim victory', 'claim', claim(false), 'btn primary')];
  if (g.can_draw) buttons.push(button('Call it a draw', 'claim-draw', claim(true)));
  return [box('claim', `${page.seatName(g.view.to_move)} left the game.`, ...buttons)];
}
