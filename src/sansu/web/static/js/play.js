// A game in progress (or finished): the board, whose turn it is, the seats
// with presence and clocks, the move list with stepping, and the controls
// (resign, takeback against the computer, rematch, invitation link). The
// server is the judge: a move is sent with the state number it was made in,
// and the board changes only when the server says that a move happened.
// The side panel (seats, clocks, moves, controls) is in play_panel.js, the
// join page in play_join.js.

import {Live, account, api, dropToken, heldSeats, keepSeats} from './api.js';
import {followFromGame} from './arena_follow.js';
import {forget, turn} from './attention.js';
import {mountChat} from './chat.js';
import {boardModule} from './games.js';
import {h, movesByCell, s} from './kit.js';
import {joinPage} from './play_join.js';
import {offerEvent, offersAfter} from './offers.js';
import {panel} from './play_panel.js';
import {Premove} from './premove.js';
import {go, route} from './router.js';
import {applyRatings} from './seat_rating.js';
import {setZen} from './zen.js';
import {announce, errorNotice, playSound} from './ui.js';

route(/^\/(?:play|replay|watch)\/([\w-]+)$/, 'play', async (main, m) => {
  const page = new GamePage(main, m[1]);
  await page.start();
  return () => page.stop();
});

route(/^\/join\/([\w-]+)(?:\/([\w-]+))?$/, 'play', async (main, m) => joinPage(main, m[1], m[2]));

const ICONS = {
  first: 'M6 5h2v14H6zM20 5v14L9 12z',
  previous: 'M17 5v14L6 12z',
  next: 'M7 5v14l11-7z',
  last: 'M16 5h2v14h-2zM4 5v14l11-7z',
};

const POSITION_EVENTS = new Set(['move', 'takeback', 'resign', 'flag', 'abort', 'claim', 'draw']);

class GamePage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.g = null;          // the game as the server describes it (GET /api/games/{id})
    this.viewing = null;    // null: the live position; n: the position after n moves
    this.positions = new Map();
    this.pending = false;
    this.clockAt = Date.now();
    this.stopped = false;
    // A replay (from the archive) only steps through a finished game: nothing to play,
    // resign, take back or rematch there.
    this.replay = /^#\/replay\//.test(location.hash);
  }

  /** {seat: token}: this browser's tokens, and the seats of the signed-in account (the
   *  server's `you`; token null: the session cookie acts for them). */
  get held() {
    const bound = Object.fromEntries((this.g?.you || []).map((seat) => [seat, null]));
    return {...bound, ...heldSeats(this.id)};
  }

  get token() {
    return Object.values(heldSeats(this.id))[0] || null;
  }

  mine(seat) {
    return seat !== null && seat !== undefined && String(seat) in this.held;
  }

  get players() { return this.g.seats.length; }

  get solo() { return Object.keys(this.held).length === 1; }

  async start() {
    try {
      this.g = await this.fetch();
    } catch (error) {
      this.main.append(errorNotice(error.status === 404 ? 'There is no such game.' : error.message),
        h('p', {}, h('a', {href: '#/'}, 'Back to the games')));
      return;
    }
    this.mod = await boardModule(this.g.game);
    this.build();
    this.premove = new Premove(this);
    this.render();
    if (!this.replay) this.chat = mountChat(this);
    this.live = new Live(this.id, this.token, {
      onEvent: (e) => this.event(e),
      onStatus: (s) => this.connection(s),
    });
    // A tournament game: once it is over, on to the player's next one as soon as paired.
    const me = await account();
    if (!this.stopped) this.unfollow = followFromGame(this.id, me, (note) => this.statusEl.after(note));
  }

  /** The game from the server, as this browser's seats see it (a stale token is dropped). */
  async fetch() {
    const token = this.token;
    try {
      return await api.game(this.id, token);
    } catch (error) {
      if (token && (error.status === 403 || error.status === 401)) {
        dropToken(this.id, token);
        return api.game(this.id, null);
      }
      throw error;
    }
  }

  stop() {
    this.stopped = true;
    this.unfollow?.();
    document.removeEventListener('keydown', this.keyHandler);
    this.live?.close();
    this.board?.destroy?.();
    clearInterval(this.clockTimer);
    clearInterval(this.claimTimer);
    this.premove?.stop();
    clearTimeout(this.refreshTimer);
    forget(this.id);
  }

  // -- names ----------------------------------------------------------------------------

  seatName(p) {
    return this.mod.meta.playerName(p, this.g.view);
  }

  playerLabel(p) {
    const seat = this.g.seats[p];
    const base = this.seatName(p);
    if (seat?.kind === 'computer') return `${base} — computer${seat.level ? ` (${seat.level})` : ''}`;
    if (this.mine(p) && this.solo) return `${base} — you`;
    if (seat?.name) return `${base} — ${seat.name}${seat.bot ? ' (BOT)' : ''}`;
    return base;
  }

  // -- layout -----------------------------------------------------------------------------

  build() {
    const mod = this.mod;
    const title = this.g.title || mod.meta.title;
    document.title = `${title} — sansu`;
    // Not a live region itself: moves and results are announced once, by announce().
    this.statusEl = h('div', {class: 'status', 'data-testid': 'status'});
    this.explainEl = h('div', {class: 'explain', 'data-testid': 'explain'});
    this.banner = h('div', {class: 'notice history', hidden: true, 'data-testid': 'history-banner'});
    this.underBoard = h('div', {class: 'under-board'});
    // On a phone each player's name and clock sit by the board: the others above, you below.
    this.stripTop = h('div', {class: 'player-strip', 'data-testid': 'strip-top'});
    this.stripBottom = h('div', {class: 'player-strip', 'data-testid': 'strip-bottom'});
    this.board = mod.createBoard({
      propose: (move) => this.propose(move),
      report: (move) => this.report(move),
      underBoard: this.underBoard,
      explain: (text, kind) => this.explain(text, kind),
      hint: (cell) => api.hint(this.id, this.token, cell),
      playerName: (p) => this.seatName(p),
    });
    this.boardHost = h('div', {class: 'board-host', 'data-game': this.g.game}, this.board.el);
    this.seatsEl = h('div', {class: 'seats', 'data-testid': 'seats'});
    this.watchersEl = h('p', {class: 'muted', style: 'margin:.3rem 0 0;font-size:.85rem'});
    this.movesEl = h('ol', {class: 'moves', 'aria-label': 'Moves', 'data-testid': 'moves'});
    this.stepper = h('div', {class: 'stepper', role: 'group', 'aria-label': 'Step through the game'},
      this.stepButton(ICONS.first, 'First position', 'first', () => this.step('first')),
      this.stepButton(ICONS.previous, 'Previous move', 'previous', () => this.step(-1)),
      this.stepButton(ICONS.next, 'Next move', 'next', () => this.step(1)),
      this.stepButton(ICONS.last, 'Current position', 'last', () => this.step('last')));
    this.controls = h('div', {class: 'row controls'});
    this.shareEl = h('div', {class: 'panel', hidden: true, 'data-testid': 'share'});
    this.connEl = h('p', {class: 'muted', 'aria-live': 'polite', style: 'margin:0;font-size:.85rem'});
    this.main.append(h('div', {class: 'game-page', 'data-game-id': this.id},
      // A refused move's explanation sits just above the board, where the eye is.
      h('div', {class: 'board-col'}, this.statusEl, this.banner, this.explainEl, this.stripTop,
        this.boardHost, this.stripBottom, this.underBoard, h('button', {type: 'button',
          class: 'btn small zen-exit', 'data-action': 'zen', onclick: () => setZen(false)},
        'Leave zen mode')),
      h('div', {class: 'side'},
        h('div', {class: 'panel'}, h('h2', {}, title), this.seatsEl, this.watchersEl, this.connEl),
        this.shareEl,
        this.board.side || null,
        h('div', {class: 'panel'}, h('h3', {}, 'Moves'), this.movesEl, this.stepper,
          h('p', {class: 'muted', style: 'margin:.4rem 0 0;font-size:.8rem'},
            'Page Up / Page Down step through the game; Z: zen mode, the board alone.')),
        h('div', {class: 'panel'}, this.controls))));
    if (this.replay) this.board.el.classList.add('static');
    // Page Up / Page Down step through the game wherever the focus is (even nowhere).
    this.keyHandler = (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.closest?.('input, select, textarea, [contenteditable]')) return;
      if (e.key === 'PageUp') { e.preventDefault(); this.step(-1); }
      if (e.key === 'PageDown') { e.preventDefault(); this.step(1); }
      if ((e.key === 'z' || e.key === 'Z') && !e.shiftKey && !e.target.closest?.('.board')) {
        setZen(document.documentElement.dataset.zen !== 'on');
      }
    };
    document.addEventListener('keydown', this.keyHandler);
    this.clockTimer = setInterval(() => this.renderClocks(), 250);
  }

  stepButton(path, label, name, onclick) {
    return h('button', {type: 'button', class: 'btn small', 'aria-label': label, title: label,
      'data-step': name, onclick}, s('svg', {viewBox: '0 0 24 24', 'aria-hidden': 'true'},
      s('path', {d: path})));
  }

  // -- the server's news --------------------------------------------------------------------

  connection(state) {
    this.connEl.textContent = state === 'open' ? '' : 'Connection lost — reconnecting…';
  }

  /** The game from the server again. A reply the socket's news overtook (its event number
   * below the one shown: a move came while it was on its way) would take the page back to
   * a position already past, and no later news would mend it: it is dropped and asked
   * again, a few times at most. */
  async refresh(tries = 3) {
    let g;
    try {
      g = await this.fetch();
    } catch { return; /* the socket brings the state when it is back */ }
    if (this.stopped) return;
    if ((g.seq ?? 0) < (this.g.seq ?? 0)) {
      if (tries > 1) this.refresh(tries - 1);
      return;
    }
    this.setGame(g);
  }

  setGame(g) {
    this.g = g;
    this.clockAt = Date.now();
    this.pending = false;
    if (this.viewing !== null && this.viewing >= g.moves.length) this.viewing = null;
    this.render();
  }

  event(e) {
    if (this.stopped || !this.g) return;
    const type = e.type;
    if (type === 'hello') {
      const {type: _t, missed: _m, ...game} = e;
      this.setGame({...this.g, ...game});
      return;
    }
    if (type === 'error') {
      this.pending = false;
      this.explain(e.message || 'The server refused that.');
      return;
    }
    if (type === 'pong' || type === 'ack') return;
    if (e.seq) this.g.seq = Math.max(this.g.seq || 0, e.seq);
    if (type === 'presence') {
      this.g.presence = e;
      this.renderSeats();
      if (this.g.casual === false && Object.keys(this.held).length) this.refresh();  // claim_at
      return;
    }
    if (offerEvent(this, e)) return;
    if (POSITION_EVENTS.has(type)) {
      if (e.state < this.g.state) return;  // older than what is shown
      if (type === 'move') {
        this.g.moves = [...this.g.moves.slice(0, e.ply - 1), {ply: e.ply, move: e.move, seat: e.seat,
          at: e.at}];
      } else if (type === 'takeback') {
        this.g.moves = this.g.moves.slice(0, e.ply);
        this.positions.clear();
      }
      this.g.offers = offersAfter(this.g, type, e);
      Object.assign(this.g, {view: e.view ?? this.g.view, state: e.state, status: e.status,
        result: e.result, termination: e.termination, clock: e.clock});
      if (this.g.status === 'active') this.g.to_move = this.g.view?.to_move ?? null;
      if (type === 'move' && !this.mine(e.seat)) this.keepTargets();
      this.clockAt = Date.now();
      this.pending = false;
      if (this.viewing !== null && this.viewing >= this.g.moves.length) this.viewing = null;
      this.explain('');
      this.render();
      this.tell(type, e);
      return;
    }
    if (type === 'game_over') {
      const status = e.termination === 'aborted' ? 'aborted' : 'finished';
      Object.assign(this.g, {status, result: e.result, termination: e.termination});
      applyRatings(this.g, e.ratings);
      this.render();
      return;
    }
    if (type === 'watching') {
      this.g.watchable = e.watchable;
      announce(e.watchable ? 'Others may watch this game.' : 'Only the players see this game now.');
      this.renderControls();
      return;
    }
    if (type === 'joined') {
      const seat = this.g.seats[e.seat];
      if (seat) Object.assign(seat, {taken: true, name: e.name ?? seat.name});
      announce(`${this.seatName(e.seat)} has joined.`);
      this.render();
      if (this.g.rated) this.fetch().then((g) => { this.g.seats = g.seats; this.renderSeats(); });
      return;
    }
    if (type === 'rematch_offer' || type === 'rematch_declined') {
      this.g.rematch = {...(this.g.rematch || {}), offers: type === 'rematch_offer' ? e.seats : []};
      if (type === 'rematch_offer' && !e.seats.some((s) => this.mine(s))) {
        announce('A rematch is offered.');
      }
      this.renderControls();
      return;
    }
    if (type === 'rematch') {
      this.g.rematch = {...(this.g.rematch || {}), game_id: e.game_id};
      this.followRematch(e.game_id, e.seats);
    }
  }

  /** Keeps this browser's seats in the rematch (seats move on by one) and goes there. */
  followRematch(gameId, turn) {
    const held = this.held;
    const seats = Object.keys(held);
    if (!seats.length || !gameId) {
      this.renderControls();
      return;
    }
    const token = held[seats[0]];
    if (token) keepSeats(gameId, seats.map((s) => (turn ? turn[s] : s)), token);
    go(`#/play/${gameId}`);
  }

  /** Says what happened: for screen readers, and a sound if sounds are on. */
  tell(type, e) {
    const v = this.g.view;
    if (type === 'move') {
      const who = e.seat === null || e.seat === undefined
        ? (e.by === 'spectator' ? 'A spectator' : 'Time') : this.seatName(e.seat);
      const what = this.board.describeMove?.(v, e.move) || e.move;
      announce(`${who}: ${what}. ${this.statusText().text}`);
      playSound(this.g.result ? 'end' : (this.mine(e.seat) ? 'mine' : 'move'));
    } else if (type === 'takeback') {
      announce(`Moves taken back. ${this.statusText().text}`);
    } else {
      announce(this.statusText().text);
      playSound('end');
    }
  }

  // -- playing ------------------------------------------------------------------------------

  explain(text, kind = 'error') {
    this.explainEl.textContent = text || '';
    this.explainEl.dataset.kind = kind;
    if (text) announce(text);
    if (text && kind === 'error') playSound('error');
  }

  /** After another side's move the selection stays only on a cell one may still play (or,
   *  where the view lists no placements, an empty one): no ring left on a spent cell. */
  keepTargets() {
    const v = this.g.view;
    if (!v) return;
    const byCell = movesByCell(v);
    this.board.grid?.keepSelectionIf((name, i) => this.mine(v.to_move) && this.g.status === 'active'
      && (byCell.has(name) || (!byCell.size && !v.cells?.[i])));
  }

  canPlay() {
    const v = this.g.view;
    return !!v && this.g.status === 'active' && v.to_move !== null && this.viewing === null
      && this.mine(v.to_move) && !this.pending;
  }

  /** Sends `move`; answers true once sent, false when it is refused (here or by the server). */
  async propose(move) {
    const v = this.g.view;
    if (!v) return false;
    if (this.viewing !== null) {
      this.explain('This is an earlier position — go to the current position to play.');
      return false;
    }
    if (this.g.status !== 'active' || v.to_move === null) {
      this.explain('The game is over.');
      return false;
    }
    if (!this.mine(v.to_move)) {
      if (this.premove?.choose(move.trim().toLowerCase())) return false;
      const seat = this.g.seats[v.to_move];
      if (!Object.keys(this.held).length) {
        this.explain('You are watching this game.', 'hint');
        return false;
      }
      const thinking = seat?.kind === 'computer' ? ': the computer is thinking' : '';
      this.explain(`It is ${this.seatName(v.to_move)}'s turn${thinking}.`);
      return false;
    }
    if (this.pending) return false;
    const text = move.trim().toLowerCase();
    const legal = new Set((v.legal_moves || []).map((x) => x.toLowerCase()));
    if (!legal.has(text)) {
      const local = this.board.whyNot?.(v, text);
      if (local) {
        this.explain(local);
        return false;
      }
    }
    // Legal, or illegal for a reason only the referee can name: the server says which.
    return this.send(text);
  }

  /** Sends a move anyone watching may make (Sumodoku's report), whoever is to move. */
  async report(move) {
    if (this.viewing !== null || this.replay || this.g.status !== 'active') {
      this.explain('Reports are made in the current position of a game being played.');
      return false;
    }
    if (this.pending) return false;
    return this.send(move.trim().toLowerCase());
  }

  /** Sends `text` to the server; true once sent (the move comes back through the socket). */
  async send(text) {
    this.pending = true;
    this.explain('');
    const state = this.g.state;
    try {
      await api.move(this.id, this.token, text, state);
      // The move comes back through the socket; if it does not soon, ask for the game.
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => {
        if (this.g.state === state) this.refresh();
      }, 2500);
      return true;
    } catch (error) {
      this.pending = false;
      this.explain(error.message);
      if (error.code === 'stale_state') this.refresh();
      return false;
    }
  }

  // -- history ------------------------------------------------------------------------------

  async step(where) {
    const total = this.g.moves.length;
    const current = this.viewing === null ? total : this.viewing;
    let target;
    if (where === 'first') target = 0;
    else if (where === 'last') target = total;
    else target = Math.max(0, Math.min(total, current + where));
    await this.show(target);
  }

  async show(n) {
    if (n >= this.g.moves.length) {
      this.viewing = null;
      this.render();
      return;
    }
    this.viewing = n;
    if (!this.positions.has(n)) {
      try {
        const res = await api.position(this.id, n);
        this.positions.set(n, res.view);
      } catch (error) {
        this.viewing = null;
        this.explain(`That position cannot be shown: ${error.message}`);
        return;
      }
    }
    if (this.viewing === n) this.render();
  }

  // -- drawing ------------------------------------------------------------------------------

  resultText() {
    const r = this.g.result;
    const named = (text) => (text || '').replace(/\bseat (\d+)/g, (_, s) => this.seatName(Number(s)));
    const reason = r.reason ? ` (${named(r.reason)})` : '';
    if (r.draw) return {text: `Draw${reason}`, over: true};
    const winners = r.winners.map((p) => this.seatName(p));
    const count = Object.keys(this.held).length;
    const won = r.winners.some((p) => this.mine(p));
    let head;
    if (count === 1 && won) head = 'You win';
    else if (count === 1 && this.g.seats.length === 2) head = `${winners.join(' and ')} wins, you lose`;
    else head = `${winners.join(' and ')} win${winners.length > 1 ? '' : 's'}`;
    return {text: `${head}${reason}`, over: true, colour: r.winners.length === 1 ? r.winners[0] : null};
  }

  statusText() {
    const v = this.g.view;
    if (!v) return {text: 'Loading…'};
    if (this.g.status !== 'active' && this.g.result) return this.resultText();
    if (this.g.status === 'aborted') {
      return {text: 'Game aborted before every player moved: not rated', over: true};
    }
    if (this.g.status !== 'active') return {text: 'This game did not finish', over: true};
    const p = v.to_move;
    const detail = this.board.statusDetail?.(v, {mySeats: Object.keys(this.held).map(Number)}) || '';
    const seat = this.g.seats[p];
    let text;
    if (this.mine(p)) text = this.solo ? `Your move (${this.seatName(p)})` : `${this.seatName(p)} to move`;
    else if (seat?.kind === 'computer') text = `${this.seatName(p)} (computer) is thinking…`;
    else if (seat && !seat.taken) text = `Waiting for ${this.seatName(p)} to join`;
    else text = `${this.seatName(p)} to move`;
    return {text, detail, colour: p};
  }

  render() {
    const live = this.viewing === null;
    let v = live ? this.g.view : this.positions.get(this.viewing);
    if (!v) return;
    // A game the host ended (a resignation, a flag, an abort) ends its board too: no
    // board then tints where the next move would have had to go.
    if (live && this.g.status !== 'active' && !v.result && this.g.result) {
      v = {...v, result: this.g.result, to_move: null};
    }
    const st = this.statusText();
    const dot = h('span', {class: 'dot', 'aria-hidden': 'true'});
    dot.style.background = st.colour !== null && st.colour !== undefined
      ? this.mod.meta.playerColour(st.colour) : 'transparent';
    this.statusEl.replaceChildren(dot, h('span', {class: 'text'}, h('span', {class: 'lead'}, st.text),
      st.detail ? h('span', {class: 'detail'}, ` — ${st.detail}`) : null));
    this.statusEl.classList.toggle('over', !!st.over);
    this.banner.hidden = live;
    if (!live) {
      this.banner.replaceChildren(
        `Position after ${this.viewing} move${this.viewing === 1 ? '' : 's'} of ${this.g.moves.length}. `,
        h('button', {type: 'button', class: 'btn small', onclick: () => this.show(Infinity)},
          this.replay ? 'Back to the end' : 'Back to the game'));
    }
    this.board.update(v, {canPlay: live && !this.replay && this.canPlay(),
      canReport: live && !this.replay && this.g.status === 'active',
      mySeats: Object.keys(this.held).map(Number), deadline: live ? this.limitDeadline() : null});
    const better = this.reviewNote();
    if (better) this.banner.prepend(better);
    this.boardHost.classList.toggle('is-history', !live);
    this.boardHost.dataset.state = this.g.state;
    this.boardHost.dataset.ply = live ? this.g.moves.length : this.viewing;
    this.renderSeats();
    this.renderMoves();
    this.renderControls();
    this.renderShare();
    // The tab's title and icon tell a player whose turn has come (not two friends
    // sharing one screen: it is always one of theirs).
    const waits = live && !this.replay && this.solo && this.g.status === 'active'
      && v.to_move !== null && v.to_move !== undefined && this.mine(v.to_move);
    if (!this.stopped) {  // a page left says nothing more (its game is the strip's again)
      turn(this.id, waits, `${this.g.title || this.mod.meta.title}: ${this.statusText().text}`);
    }
    this.premove?.play();
  }

  /** When the game's own limit (Sumodoku's claim, Sudoku Challenge's chrono) runs out, in ms. */
  limitDeadline() {
    const limit = this.g.clock?.limit;
    if (!limit || this.g.status !== 'active') return null;
    return this.clockAt + limit.seconds_left * 1000;
  }
}

Object.assign(GamePage.prototype, panel);
