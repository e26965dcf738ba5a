// Premoves in Ultimate Tic-Tac-Toe and Sansumoku: on the opponent's turn, choosing a cell
// queues it (outlined in your colour, never drawn as a mark), and it is sent as soon as it
// is your move if it is still legal (else dropped with a note). Choosing it again, or
// Escape, cancels it. Only for a player's own seat, on the live position.

import {installStyle} from './kit.js';

const GAMES = new Set(['uttt', 'sansumoku']);
const CSS = `
.board [data-premove] { outline: .22rem dashed var(--premove); outline-offset: -.3rem; }
`;

export class Premove {
  constructor(page) {
    this.page = page;
    this.move = null;
    installStyle('premove', CSS);
    this.onKey = (e) => {
      if (e.key === 'Escape' && this.move) this.cancel('Premove cancelled.');
    };
    document.addEventListener('keydown', this.onKey);
  }

  /** The seat whose premove this would be: one held seat, not to move now (else null). */
  seat() {
    const p = this.page;
    const g = p.g;
    const v = g.view;
    if (!GAMES.has(g.game) || p.replay || p.viewing !== null || g.status !== 'active' || !p.solo
      || !v || v.to_move === null || p.mine(v.to_move)) return null;
    return Number(Object.keys(p.held)[0]);
  }

  /** Takes `move` as a premove (or cancels it when chosen again); false when premoves do
   *  not apply now. */
  choose(move) {
    if (this.seat() === null) return false;
    if (this.move === move) {
      this.cancel('Premove cancelled.');
      return true;
    }
    this.move = move;
    this.draw();
    const v = this.page.g.view;
    this.page.explain(`It is ${this.page.seatName(v.to_move)}'s turn: premove ${move}, played as `
      + 'soon as it is your move (choose it again or press Escape to cancel).', 'hint');
    return true;
  }

  cancel(note) {
    this.move = null;
    this.draw();
    if (note) this.page.explain(note, 'hint');
  }

  draw() {
    const host = this.page.boardHost;
    host.querySelectorAll('[data-premove]').forEach((el) => {
      el.removeAttribute('data-premove');
      el.style.removeProperty('--premove');
    });
    const seat = this.seat() ?? Number(Object.keys(this.page.held)[0]);
    const el = this.move && host.querySelector(`[data-cell="${this.move}"]`);
    if (!el) return;
    el.setAttribute('data-premove', '');
    el.style.setProperty('--premove', this.page.mod.meta.playerColour(seat));
    el.setAttribute('aria-label', `${el.getAttribute('aria-label')}, your premove`);
  }

  /** After each drawing of the page: plays the queued premove once it is this player's
   *  turn, if it is legal then. */
  async play() {
    const p = this.page;
    if (!this.move) return;
    if (p.g.status !== 'active' || p.viewing !== null) {
      if (p.g.status !== 'active') this.move = null;
      this.draw();
      return;
    }
    if (!p.canPlay()) {
      this.draw();
      return;
    }
    const move = this.move;
    this.move = null;
    this.draw();
    if (!(p.g.view.legal_moves || []).includes(move)) {
      p.explain(`Premove ${move} dropped: it is not a legal move now.`, 'hint');
      return;
    }
    await p.send(move);
  }

  stop() {
    document.removeEventListener('keydown', this.onKey);
  }
}

