// The side panel of a game page: the seats with presence and clocks, the move list, and
// the controls (resign or abort, takeback against the computer, rematch, watching, invitation
// link). Its methods are the game page's own (play.js mixes them into GamePage), kept
// here so that each file holds one part of the page.

import {api, inviteSecret} from './api.js';
import {clockLeft} from './attention.js';
import {clockText, h, scrollWithin} from './kit.js';
import {offerControls} from './offers.js';
import {MARKS, reviewPanel} from './review.js';
import {seatRating} from './seat_rating.js';
import {copyText} from './ui.js';

export const panel = {
  renderSeats() {
    const v = this.g.view;
    const here = this.g.presence?.seats || [];
    const active = this.g.status === 'active';
    const row = (s) => h('div', {
      class: `seat${active && v?.to_move === s.seat ? ' to-move' : ''}`, 'data-seat': s.seat},
    h('span', {class: 'swatch', style: `background:${this.mod.meta.playerColour(s.seat)}`,
      'aria-hidden': 'true'}),
    h('span', {class: 'who'}, this.playerLabel(s.seat),
      s.kind === 'human' && !s.taken ? h('span', {class: 'muted'}, ' (seat free)') : null,
      seatRating(s)),
    h('span', {class: 'clock', 'data-clock': s.seat}),
    here.length ? h('span', {class: `presence${here[s.seat] ? ' on' : ''}`, role: 'img',
      'aria-label': here[s.seat] ? 'here' : 'away', title: here[s.seat] ? 'here' : 'away'}) : null);
    this.seatsEl.replaceChildren(...this.g.seats.map(row));
    // By the board (shown on a phone): this page's seat below, the others above.
    const held = Object.keys(this.held).map(Number);
    const you = held.length ? Math.min(...held) : 0;
    this.stripTop.replaceChildren(...this.g.seats.filter((s) => s.seat !== you).map(row));
    this.stripBottom.replaceChildren(...this.g.seats.filter((s) => s.seat === you).map(row));
    // The side panel's rows stay the ones tests and tools name (no id twice on a page).
    for (const strip of [this.stripTop, this.stripBottom]) {
      strip.querySelectorAll('[data-testid]').forEach((el) => el.removeAttribute('data-testid'));
    }
    const watchers = this.g.presence?.spectators || 0;
    this.watchersEl.textContent = watchers ? `${watchers} watching` : '';
    this.renderClocks();
  },

  renderClocks() {
    const c = this.g?.clock;
    if (!this.seatsEl || !c) return;
    const elapsed = (Date.now() - this.clockAt) / 1000;
    const active = this.g.status === 'active';
    [this.seatsEl, this.stripTop, this.stripBottom].flatMap((root) => [
      ...root.querySelectorAll('[data-clock]')]).forEach((el) => {
      const seat = Number(el.dataset.clock);
      if (!c.remaining) {
        el.textContent = '';
        return;
      }
      const left = c.remaining[seat] - (active && c.running === seat ? elapsed : 0);
      el.textContent = clockText(left);
      el.classList.toggle('low', left < 20);
      if (active && c.running === seat && this.solo && this.mine(seat)) clockLeft(this.id, left);
    });
  },

  renderMoves() {
    const moves = this.g.moves;
    const current = this.viewing === null ? moves.length : this.viewing;
    const judged = this.review?.moves_reviewed || [];
    // Two players: a row per pair of moves, a column per player (the numbers count rows).
    const twoCol = this.g.seats.length === 2;
    this.movesEl.classList.toggle('two-col', twoCol);
    let row = 0;
    this.movesEl.replaceChildren(...moves.map((m, k) => {
      const host = m.seat === null || m.seat === undefined;
      const who = host ? (/^report /.test(m.move) ? 'spectator' : 'host') : this.seatName(m.seat);
      if (!twoCol || m.seat !== 1 || k === 0 || moves[k - 1].seat !== 0) row += 1;
      const j = judged[k]?.move === m.move ? judged[k].judgement : null;
      const label = `Move ${k + 1}, ${who}: ${m.move}${j ? `, ${j} (${MARKS[j]})` : ''}`;
      return h('li', {'data-seat': host ? null : String(m.seat), class: host ? 'by-host' : null},
        h('span', {class: 'num'}, `${twoCol ? row : k + 1}.`),
        h('span', {class: 'mover'}, h('span', {class: 'swatch-sm', 'aria-hidden': 'true',
          style: host ? '' : `background:${this.mod.meta.playerColour(m.seat)}`}), who),
        h('button', {type: 'button', 'aria-current': String(current === k + 1),
          'aria-label': label, onclick: () => this.show(k + 1)}, m.move,
        j ? h('span', {class: `judgement ${j}`, 'aria-hidden': 'true'}, MARKS[j]) : null));
    }));
    const cur = this.movesEl.querySelector('[aria-current="true"]');
    if (this.viewing !== null && cur) scrollWithin(this.movesEl, cur);
    else this.movesEl.scrollTop = this.movesEl.scrollHeight;
  },

  /** The review's word on the position shown: the better move where a move went wrong. */
  reviewNote() {
    const judged = this.review?.moves_reviewed;
    this.boardHost.querySelectorAll('[data-better]').forEach((el) => el.removeAttribute('data-better'));
    if (!judged || this.viewing === null) return null;
    const played = judged[this.viewing - 1];  // the move that led here
    const next = judged[this.viewing];        // the move played from here
    const wrong = (m) => m?.judgement && m.best && m.best !== m.move;
    if (wrong(next) && (this.betterAt === this.viewing || !wrong(played))) {
      const cell = this.boardHost.querySelector(`[data-cell="${next.best.split('=')[0]}"]`);
      cell?.setAttribute('data-better', '');
      return h('span', {'data-testid': 'better-move'}, `Here ${this.seatName(next.player)} played `
        + `${next.move} (${next.judgement}, ${MARKS[next.judgement]}); better was ${next.best}, `
        + 'outlined on the board. ');
    }
    if (wrong(played)) {
      return h('span', {'data-testid': 'better-move'}, `${played.move} was a ${played.judgement} `
        + `(${MARKS[played.judgement]}). `, h('button', {type: 'button', class: 'btn small',
        'data-action': 'show-better', onclick: () => {
          this.betterAt = this.viewing - 1;
          this.show(this.viewing - 1);
        }}, `See the better move (${played.best})`), ' ');
    }
    return null;
  },

  canTakeBack() {
    const g = this.g;
    if (!g.casual || !g.seats.some((s) => s.kind === 'computer')) return false;
    if (g.status !== 'active') return false;  // a finished game is not taken back
    const mineAt = g.moves.map((m, k) => (this.mine(m.seat) ? k : -1)).filter((k) => k >= 0);
    if (!mineAt.length) return false;
    const last = mineAt[mineAt.length - 1];
    return !g.moves.slice(last + 1).some((m) => m.seat !== null && !this.mine(m.seat)
      && g.seats[m.seat]?.kind === 'human');
  },

  canAbort() {
    const g = this.g;
    const moved = new Set(g.moves.map((m) => m.seat));
    return !!g.abortable && g.status === 'active' && !g.seats.every((s) => moved.has(s.seat));
  },

  renderControls() {
    const held = this.replay ? [] : Object.keys(this.held).map(Number);
    const active = this.g.status === 'active';
    const buttons = [];
    if (held.length && active && this.canAbort()) {
      // Before every player moved, a rated game is aborted (unrated), not resigned.
      buttons.push(h('button', {type: 'button', class: 'btn danger', 'data-action': 'abort',
        onclick: () => this.abort()}, 'Abort'));
    } else if (held.length && active) {
      buttons.push(h('button', {type: 'button', class: 'btn danger', 'data-action': 'resign',
        onclick: () => this.resign()}, 'Resign'));
    }
    if (held.length && active) buttons.push(...offerControls(this));
    if (held.length && active && this.g.seats.some((s) => s.kind === 'computer') && this.g.casual) {
      const ok = this.canTakeBack();
      buttons.push(h('button', {type: 'button', class: 'btn', 'data-action': 'takeback',
        'aria-disabled': String(!ok), onclick: () => ok && this.takeback()}, 'Take back'));
    }
    if (held.length && this.g.status === 'finished') {
      const offers = this.g.rematch?.offers || [];
      const mineOffered = offers.some((s) => this.mine(s));
      const label = mineOffered ? 'Rematch offered…' : (offers.length ? 'Accept the rematch' : 'Rematch');
      buttons.push(h('button', {type: 'button', class: 'btn primary', 'data-action': 'rematch',
        'aria-disabled': String(mineOffered), onclick: () => !mineOffered && this.rematch()}, label));
    }
    if (this.g.rematch?.game_id && !this.replay) {
      buttons.push(h('a', {class: 'btn', href: `#/play/${this.g.rematch.game_id}`}, 'Go to the rematch'));
    }
    if (held.length && active && this.g.private && inviteSecret(this.id)) {
      // The creator (this browser made the invitation) may let others watch, or not.
      const on = this.g.watchable !== false;
      buttons.push(h('button', {type: 'button', class: 'btn', 'data-action': 'watching',
        'aria-pressed': String(on), onclick: () => this.setWatching(!on)},
      on ? 'Others may watch: on' : 'Others may watch: off'));
    }
    buttons.push(h('a', {class: 'btn', href: `#/game/${this.g.game}`}, 'New game'));
    if (this.g.status !== 'active') {
      buttons.push(h('a', {class: 'btn', href: api.recordUrl(this.id), download: `sansu-${this.id}.json`},
        'Download the record'));
    }
    // The analysis board, at the position shown: once the game is over, or for a spectator
    // of a casual game that hides nothing (the server refuses every other game in play).
    if (this.g.status !== 'active'
        || (!held.length && this.g.casual && !this.g.hidden_information && !this.replay)) {
      const ply = this.viewing === null ? this.g.moves.length : this.viewing;
      buttons.push(h('a', {class: 'btn', 'data-action': 'analyse',
        href: `#/analysis/${this.g.game}?game_id=${this.id}&ply=${ply}`}, 'Analyse'));
    }
    // Drawn again at every move: a keyboard user keeps the control they were on.
    const focused = this.controls.contains(document.activeElement)
      ? document.activeElement.dataset.action : null;
    this.controls.replaceChildren(...buttons);
    if (focused) this.controls.querySelector(`[data-action="${focused}"]`)?.focus();
    if (this.g.status !== 'active' && !this.reviewEl) {
      this.reviewEl = reviewPanel(this.id, (n) => this.show(n), (p) => this.seatName(p),
        (review) => {
          this.review = review;
          this.render();
        });
      this.controls.parentElement.after(this.reviewEl);
    }
  },

  renderShare() {
    const free = this.g.seats.filter((s) => s.kind === 'human' && !s.taken);
    if (!Object.keys(this.held).length || this.g.status !== 'active' || !free.length) {
      this.shareEl.hidden = true;
      return;
    }
    if (!this.shareEl.hidden && this.shareEl.dataset.free === String(free.length)) return;
    // A private game's link carries its join secret, in the fragment (never sent to a server).
    const secret = inviteSecret(this.id);
    if (this.g.private && !secret) {
      this.shareEl.hidden = true;
      return;
    }
    const link = `${location.origin}${location.pathname}#/join/${this.id}${secret ? `/${secret}` : ''}`;
    const input = h('input', {type: 'text', readonly: true, value: link, class: 'wide',
      'aria-label': 'Invitation link', 'data-testid': 'invite-link'});
    const note = h('span', {class: 'muted', 'aria-live': 'polite'});
    this.shareEl.hidden = false;
    this.shareEl.dataset.free = String(free.length);
    this.shareEl.replaceChildren(h('h3', {}, 'Invite a friend'),
      h('p', {class: 'muted', style: 'margin:.2rem 0 .5rem'},
        `Send this link: it opens ${free.length > 1 ? 'the free seats' : 'the free seat'} to them.`),
      h('div', {class: 'share'}, input, h('button', {type: 'button', class: 'btn', 'data-action': 'copy',
        onclick: async () => {
          note.textContent = (await copyText(link, input)) ? 'Copied.' : 'Select the link and copy it.';
        }}, 'Copy link')), note);
  },

  async setWatching(watchable) {
    try {
      const res = await api.watching(this.id, this.token, watchable);
      this.g.watchable = res.watchable;
      this.renderControls();
    } catch (error) {
      this.explain(error.message);
    }
  },

  async resign() {
    if (!window.confirm('Resign this game?')) return;
    try {
      // Sent without the state seen: a resignation stands whatever the opponent played
      // meanwhile (with it, a move crossing the click refused the resignation).
      await api.resign(this.id, this.token);
    } catch (error) {
      this.explain(error.message);
      if (error.code === 'stale_state') this.refresh();
    }
  },

  async abort() {
    try {
      // Sent without the state seen, like a resignation: an opponent's first move crossing
      // the click would refuse it as stale; the server still refuses an abort once every
      // player has moved.
      await api.abort(this.id, this.token);
    } catch (error) {
      this.explain(error.message);
      if (error.code === 'stale_state') this.refresh();
    }
  },

  async takeback() {
    try {
      await api.takeback(this.id, this.token, this.g.state);
      this.viewing = null;
    } catch (error) {
      this.explain(error.message);
      if (error.code === 'stale_state') this.refresh();
    }
  },

  async rematch() {
    try {
      const res = await api.rematch(this.id, this.token);
      this.g.rematch = {offers: res.offers, game_id: res.game_id};
      if (!res.game_id) this.explain('Rematch offered — waiting for the other side.', 'hint');
      this.renderControls();
    } catch (error) {
      this.explain(error.message);
    }
  }
};
