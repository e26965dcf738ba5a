// The analysis board: any position of any game (a finished game's, a replay's, an imported
// record's, or one set up by moves) with the engine thinking about it deeper and deeper
// while the page stays open. An evaluation bar shows the winning chance of the side to
// move with best play (the best candidate's own value, so the bar and the candidates
// agree), the best line can be played on the board by a click, the top candidate moves are
// marked on their cells, and any move may be tried (a variation). The server is the judge
// of every move and stops thinking when the page asks no more (docs/web.md).
//
// #/analysis/<game>?moves=r5c5,r4c4&options={json}   a position set up by moves
// #/analysis/<game>?game_id=<id>&ply=<n>&moves=...    a game's position, then a variation

import {api} from './api.js';
import {boardModule} from './games.js';
import {cellIndex, h} from './kit.js';
import {route} from './router.js';
import {announce, errorNotice} from './ui.js';

const RETRY_MS = 1500;
const BUSY_RETRY_MS = 3000;  // a full server (429, 503) is asked again this often

route(/^\/analysis\/([\w-]+)$/, 'analysis', async (main, m, query) => {
  const page = new AnalysisPage(main, m[1], query);
  await page.start();
  return () => page.stop();
});

const percent = (chance) => `${Math.round(chance * 100)}%`;

class AnalysisPage {
  constructor(main, game, query) {
    this.main = main;
    this.game = game;
    let options = {};
    try { options = JSON.parse(query.get('options') || '{}'); } catch { options = {}; }
    this.options = options && typeof options === 'object' ? options : {};
    this.gameId = query.get('game_id') || null;
    this.ply = query.has('ply') ? Number(query.get('ply')) : null;
    this.variation = (query.get('moves') || '').split(',').map((x) => x.trim()).filter(Boolean);
    this.session = null;    // the server's answer for the position shown
    this.news = null;       // the deepest analysis so far
    this.generation = 0;    // bumped for every new position: older polls stop
    this.stopped = false;
    this.attempts = 0;      // bumped for every position asked for: an older answer is dropped
  }

  async start() {
    // Closing the tab stops the thinking too (the server would stop it soon anyway).
    this.onHide = () => this.release(true);
    window.addEventListener('pagehide', this.onHide);
    this.mod = await boardModule(this.game);
    this.build();
    await this.setUp();
  }

  stop() {
    this.stopped = true;
    this.generation += 1;
    window.removeEventListener('pagehide', this.onHide);
    this.release();
    this.board?.destroy?.();
  }

  /** Tells the server to stop thinking about the position shown (if any). */
  release(closing = false) {
    const old = this.session;
    if (!old || this.newsDone) return;
    this.newsDone = true;
    if (closing) fetch(`/api/analysis/${encodeURIComponent(old.id)}`, {method: 'DELETE', keepalive: true});
    else api.stopAnalysis(old.id).catch(() => {});
  }

  // -- layout ---------------------------------------------------------------------------

  build() {
    const title = this.mod.meta.title;
    document.title = `Analysis: ${title} — sansu`;
    this.statusEl = h('div', {class: 'status', 'data-testid': 'status'});
    this.fill = h('div', {class: 'eval-fill'});
    this.evalText = h('span', {class: 'eval-text', 'data-testid': 'eval-text'}, 'The engine is thinking…');
    this.evalBar = h('div', {class: 'eval-bar', role: 'meter', 'aria-valuemin': '0',
      'aria-valuemax': '100', 'aria-valuenow': '50', 'aria-label': 'Winning chance of the side to move',
      'data-testid': 'eval-bar'}, this.fill);
    this.explainEl = h('div', {class: 'explain', 'data-testid': 'explain'});
    this.underBoard = h('div', {class: 'under-board'});
    this.board = this.mod.createBoard({
      propose: (move) => this.play([move]),
      report: async () => false,
      underBoard: this.underBoard,
      explain: (text, kind) => this.explain(text, kind),
      hint: (cell) => api.analysisHint(this.session.id, cell),
      playerName: (p) => this.mod.meta.playerName(p, this.session?.view),
    });
    this.boardHost = h('div', {class: 'board-host analysis-board', 'data-game': this.game},
      this.board.el);
    this.depthEl = h('p', {class: 'muted depth', 'aria-live': 'polite', 'data-testid': 'analysis-depth'});
    this.lineEl = h('div', {class: 'best-line', 'data-testid': 'best-line'});
    this.candidatesEl = h('ol', {class: 'candidates', 'data-testid': 'candidates'});
    this.movesEl = h('ol', {class: 'moves', 'aria-label': 'Moves', 'data-testid': 'moves'});
    this.sourceEl = h('p', {class: 'muted', style: 'margin:0;font-size:.9rem'});
    this.setupInput = h('input', {type: 'text', id: 'setup-moves', class: 'wide',
      placeholder: 'r5c5 r4c4 …', autocomplete: 'off'});
    const setupForm = h('form', {class: 'setup', 'data-testid': 'setup'},
      h('label', {for: 'setup-moves'}, 'Set up a position by moves from the start'),
      h('div', {class: 'share'}, this.setupInput, h('button', {type: 'submit', class: 'btn'}, 'Set up')));
    setupForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const moves = this.setupInput.value.split(/[\s,]+/).filter(Boolean);
      this.goTo({gameId: null, ply: null, variation: moves});
    });
    this.main.append(h('div', {class: 'game-page analysis-page'},
      h('div', {class: 'board-col'}, this.statusEl,
        h('div', {class: 'eval', 'data-testid': 'eval'}, this.evalBar, this.evalText),
        this.boardHost, this.underBoard, this.explainEl),
      h('div', {class: 'side'},
        h('div', {class: 'panel'}, h('h1', {class: 'panel-title'}, `Analysis board: ${title}`),
          this.sourceEl),
        h('div', {class: 'panel', 'data-testid': 'engine'}, h('h2', {}, 'Engine'), this.depthEl,
          h('h3', {}, 'Best line'), this.lineEl, h('h3', {}, 'Candidate moves'), this.candidatesEl),
        this.board.side || null,
        h('div', {class: 'panel'}, h('h2', {}, 'Moves'), this.movesEl,
          h('div', {class: 'row', style: 'margin-top:.5rem'},
            h('button', {type: 'button', class: 'btn small', 'data-action': 'back',
              onclick: () => this.back()}, 'Back one move'),
            h('button', {type: 'button', class: 'btn small', 'data-action': 'game-position',
              onclick: () => this.goTo({...this.origin, variation: []})}, 'Start again'))),
        h('div', {class: 'panel'}, setupForm))));
    this.origin = {gameId: this.gameId, ply: this.ply, variation: []};
  }

  // -- positions ------------------------------------------------------------------------

  /** Plays `moves` after the position shown (a variation); answers whether they were taken. */
  async play(moves) {
    if (!this.session) return false;
    if (this.session.view.to_move === null || this.session.view.to_move === undefined) {
      this.explain('The game is over in this position.');
      return false;
    }
    return this.goTo({gameId: this.gameId, ply: this.ply, variation: [...this.variation, ...moves]});
  }

  back() {
    if (this.variation.length) this.goTo({...this.current(), variation: this.variation.slice(0, -1)});
    else if (this.gameId && this.ply > 0) this.goTo({gameId: this.gameId, ply: this.ply - 1, variation: []});
  }

  current() { return {gameId: this.gameId, ply: this.ply, variation: this.variation}; }

  async goTo({gameId, ply, variation}) {
    const before = this.current();
    Object.assign(this, {gameId, ply, variation});
    const ok = await this.setUp();
    if (!ok) Object.assign(this, before);
    return ok;
  }

  /** Asks the server for the position and starts listening to its analysis. */
  async setUp() {
    const body = this.gameId
      ? {game: this.game, game_id: this.gameId, ply: this.ply, moves: this.variation}
      : {game: this.game, options: this.options, moves: this.variation};
    const attempt = ++this.attempts;
    let answer;
    try {
      answer = await this.ask(body, attempt);
    } catch (error) {
      if (attempt !== this.attempts || this.stopped) return false;
      if (!this.session) {
        this.main.replaceChildren(h('h1', {}, `Analysis board: ${this.mod.meta.title}`),
          errorNotice(`The analysis board is not available here: ${error.message}.`),
          h('p', {}, this.gameId ? h('a', {href: `#/watch/${this.gameId}`}, 'Go to the game') : null,
            this.gameId ? ' · ' : null, h('a', {href: '#/'}, 'Back to the games')));
      } else {
        this.explain(error.message);
      }
      return false;
    }
    if (attempt !== this.attempts || this.stopped) {  // a newer position was asked for meanwhile
      api.stopAnalysis(answer.id).catch(() => {});
      return false;
    }
    this.release();
    this.session = answer;
    this.newsDone = false;
    if (this.gameId && this.ply === null) this.ply = answer.base;
    if (!this.gameId) this.options = answer.options;
    this.news = null;
    this.explain('');
    this.remember();
    this.render();
    this.listen(answer.id, ++this.generation);
    return true;
  }

  /** The server's answer for `body`. While it is full (too many analyses of this client
   * or of the server) the page says so and asks again, instead of giving up on the board. */
  async ask(body, attempt) {
    for (;;) {
      try {
        const answer = await api.analyse(body);
        if (this.explainEl.dataset.kind === 'busy') this.explain('');
        return answer;
      } catch (error) {
        const full = error.status === 429 || error.status === 503;
        if (!full || this.stopped || attempt !== this.attempts) throw error;
        this.explain(`${error.message}. Trying again in a few seconds…`, 'busy');
        await new Promise((resolve) => { setTimeout(resolve, BUSY_RETRY_MS); });
        if (this.stopped || attempt !== this.attempts) throw error;
      }
    }
  }

  /** Keeps the address in step with the position, so a reload or a link shows it again. */
  remember() {
    const q = new URLSearchParams();
    if (this.gameId) {
      q.set('game_id', this.gameId);
      q.set('ply', String(this.ply));
    } else if (Object.keys(this.options || {}).length) {
      q.set('options', JSON.stringify(this.options));
    }
    if (this.variation.length) q.set('moves', this.variation.join(','));
    const qs = q.toString();
    history.replaceState(null, '', `#/analysis/${this.game}${qs ? `?${qs}` : ''}`);
  }

  /** Asks for every deeper result until the server stops (or the page moves on). */
  async listen(id, generation) {
    let after = 0;
    while (!this.stopped && generation === this.generation) {
      let news;
      try {
        news = await api.analysisNews(id, after);
      } catch (error) {
        if (generation !== this.generation) return;
        if (error.status === 404) return;
        await new Promise((resolve) => { setTimeout(resolve, RETRY_MS); });
        continue;
      }
      if (generation !== this.generation) return;
      if (news.step > after || news.done) {
        after = news.step;
        this.news = news;
        this.newsDone = news.done;
        this.renderEngine();
      }
      if (news.done) return;
    }
  }

  // -- drawing --------------------------------------------------------------------------

  explain(text, kind = 'error') {
    this.explainEl.textContent = text || '';
    this.explainEl.dataset.kind = kind;
    if (text) announce(text);
  }

  name(p) { return this.mod.meta.playerName(p, this.session.view); }

  render() {
    const v = this.session.view;
    const over = v.result;
    let text;
    if (over) {
      text = over.draw ? 'Draw' : `${over.winners.map((p) => this.name(p)).join(' and ')} won`;
      if (over.reason) text += ` (${over.reason})`;
    } else {
      text = `${this.name(v.to_move)} to move`;
    }
    const dot = h('span', {class: 'dot', 'aria-hidden': 'true'});
    dot.style.background = over || v.to_move === null ? 'transparent' : this.mod.meta.playerColour(v.to_move);
    const detail = !over && this.board.statusDetail?.(v, {mySeats: []});  // nobody's seat here
    this.statusEl.replaceChildren(dot, h('span', {class: 'text'}, h('span', {class: 'lead'}, text),
      detail ? h('span', {class: 'detail'}, ` — ${detail}`) : null));
    this.board.update(v, {canPlay: !over, canReport: false,
      mySeats: v.to_move === null ? [] : [v.to_move], deadline: null});
    this.boardHost.dataset.ply = String(v.ply ?? this.session.moves.length);
    this.renderSource();
    this.renderMoves();
    this.renderEngine();
  }

  renderSource() {
    const s = this.session;
    const variation = s.moves.length - s.base;
    if (s.game_id) {
      this.sourceEl.replaceChildren('Game ', h('a', {href: `#/replay/${s.game_id}`}, s.game_id),
        ` after ${s.base} move${s.base === 1 ? '' : 's'}`,
        variation ? `, then a variation of ${variation}` : '', '.');
    } else {
      this.sourceEl.textContent = s.moves.length
        ? `A position set up by ${s.moves.length} move${s.moves.length === 1 ? '' : 's'}.`
        : 'The starting position: play any move to explore.';
    }
  }

  /** Numbered and named by their movers, as on the game page; a variation's in italics. */
  renderMoves() {
    const s = this.session;
    this.movesEl.replaceChildren(...s.moves.map((move, k) => {
      const inVariation = k >= s.base;
      const seat = s.movers?.[k];
      const known = seat !== null && seat !== undefined;
      const who = known ? this.name(seat) : '—';
      return h('li', {class: inVariation ? 'variation' : ''},
        h('span', {class: 'num'}, `${k + 1}.`),
        h('span', {class: 'mover'}, h('span', {class: 'swatch-sm', 'aria-hidden': 'true',
          style: known ? `background:${this.mod.meta.playerColour(seat)}` : ''}), who),
        h('button', {type: 'button', 'aria-current': String(k === s.moves.length - 1),
          'aria-label': `Move ${k + 1}, ${who}${inVariation ? ' (variation)' : ''}: ${move}`,
          onclick: () => this.showMove(k + 1)}, move));
    }));
    this.movesEl.scrollTop = this.movesEl.scrollHeight;
  }

  /** The position after `n` moves of those listed. */
  showMove(n) {
    const s = this.session;
    if (this.gameId && n <= s.base) this.goTo({gameId: this.gameId, ply: n, variation: []});
    else this.goTo({...this.current(), variation: s.moves.slice(s.base, n)});
  }

  renderEngine() {
    const a = this.news?.analysis;
    const v = this.session.view;
    this.markCandidates(a);
    if (!a) {
      this.fill.style.width = '50%';
      this.evalText.textContent = 'The engine is thinking…';
      this.depthEl.textContent = 'Thinking…';
      this.lineEl.replaceChildren();
      this.candidatesEl.replaceChildren();
      return;
    }
    const mover = v.to_move;
    // The best candidate's own value: the root's (a mean over every move the search
    // tried, poor ones included) reads lower than every good move listed beside it.
    const chance = a.candidates.length ? a.candidates[0].chance : a.chance;
    this.fill.style.width = percent(chance);
    if (mover !== null && mover !== undefined) this.fill.style.background = this.mod.meta.playerColour(mover);
    this.evalBar.setAttribute('aria-valuenow', String(Math.round(chance * 100)));
    this.evalBar.dataset.chance = String(chance);
    this.evalText.textContent = mover === null || mover === undefined
      ? 'The game is over.'
      : `${this.name(mover)} to move: ${percent(chance)} winning chance${a.proven ? ' (proven)' : ''}`;
    this.evalBar.setAttribute('aria-valuetext', this.evalText.textContent);
    const n = this.news;
    const sims = a.simulations.toLocaleString('en');
    const why = {limit: 'its deepest search', proven: 'a proven result', time: 'its time limit',
      idle: 'a pause', stopped: 'a stop', failed: 'a failure'}[n.reason] || '';
    this.depthEl.textContent = n.done
      ? `Done after ${sims} simulations (${why}).`
      : `Thinking deeper… ${sims} simulations so far (step ${n.step}).`;
    this.depthEl.dataset.simulations = String(a.simulations);
    this.depthEl.dataset.step = String(n.step);
    this.depthEl.dataset.done = String(n.done);
    this.lineEl.replaceChildren(...(a.pv.length ? a.pv.map((move, k) => h('button', {type: 'button',
      class: 'btn small', 'data-pv': String(k), title: `Play the line up to ${move}`,
      'aria-label': `Best line, move ${k + 1}: ${move} (plays the line up to here)`,
      onclick: () => this.play(a.pv.slice(0, k + 1))}, move)) : [h('span', {class: 'muted'}, '—')]));
    this.candidatesEl.replaceChildren(...a.candidates.map((c, k) => h('li', {},
      h('button', {type: 'button', class: 'btn small', 'data-candidate': c.move,
        onclick: () => this.play([c.move])}, c.move),
      h('span', {}, ` ${percent(c.chance)}${c.proven ? ' (proven)' : ''}`),
      h('span', {class: 'muted'}, ` · ${c.visits.toLocaleString('en')} visits${k === 0 ? ' · best' : ''}`))));
  }

  /** Marks the candidates on their cells: an outline and the mover's chance after the move. */
  markCandidates(a) {
    const host = this.boardHost;
    host.querySelectorAll('[data-candidate-rank]').forEach((el) => {
      el.removeAttribute('data-candidate-rank');
      el.removeAttribute('data-badge');
      if (el.dataset.baseLabel) el.setAttribute('aria-label', el.dataset.baseLabel);
      delete el.dataset.baseLabel;
    });
    if (!a) return;
    a.candidates.forEach((c, k) => {
      const cell = cellIndex(c.move) >= 0 ? host.querySelector(`[data-cell="${c.move.split('=')[0]}"]`) : null;
      if (!cell || cell.hasAttribute('data-candidate-rank')) return;
      cell.setAttribute('data-candidate-rank', String(k + 1));
      cell.dataset.baseLabel = cell.getAttribute('aria-label') || c.move;
      cell.setAttribute('aria-label', `${cell.dataset.baseLabel}, engine candidate ${k + 1}: `
        + `${c.move}, ${percent(c.chance)}`);
      // Drawn by CSS (::after), so the cell's text stays what the board put there.
      const digit = c.move.includes('=') ? `${c.move.split('=')[1]}·` : '';
      cell.dataset.badge = `${digit}${Math.round(c.chance * 100)}`;
    });
  }
}
