// Rated puzzles: positions where the side to move wins by force. The learner plays on the
// game's own board; the server's positions (POST /api/positions) say whether a move is
// legal and whether it wins, the puzzle's solution gives the opponent's replies (played
// after a short visible pause), and the attempt (POST /api/puzzles/ID/attempt) is judged
// and rated by the server: on an account's first attempt, or, for anonymous learners,
// from the rating this browser keeps (localStorage) and sends.
//
// #/puzzles                    the games, your ratings, streaks and daily puzzles
// #/puzzles/<game>             the next puzzle near your rating
// #/puzzles/<game>/daily       today's puzzle (the same for everyone)
// #/puzzles/id/<id>            one puzzle
// #/mistakes/<game id>?seat=N  a reviewed game's blunders as exercises (unrated)

import {account} from './api.js';
import {KNOWN_GAMES, boardModule} from './games.js';
import {h, installStyle} from './kit.js';
import {go, route} from './router.js';
import {call as sessionCall} from './session.js';
import {announce, errorNotice} from './ui.js';

const LOCAL_KEY = 'sansu.puzzles';
const MAX_SEEN = 500;
const REPLY_PAUSE_MS = 700;
const PROVISIONAL = 110;
const NEW_RATING = {rating: 1500, deviation: 350, volatility: 0.06};
const enc = encodeURIComponent;

const CSS = `
.puzzle-cards { grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); }
.puzzle-cards .card p { flex: none; }
.puzzle-cards .card p.standing { color: var(--text); }
.puzzle-cards .card .rating { font-size: 1.6rem; font-weight: 700; }
.puzzle-cards .card .row a { flex: 1; text-align: center; white-space: nowrap; }
.puzzle-page .goal { font-weight: 650; margin: 0 0 .3rem; }
.puzzle-page .themes { margin: .2rem 0 0; font-size: .9rem; }
.puzzle-result[data-solved="true"] { border-color: var(--ok); }
.puzzle-result[data-solved="false"] { border-color: var(--danger); }
.puzzle-result .verdict { font-size: 1.15rem; font-weight: 700; margin: 0 0 .3rem; }
.puzzle-result .rating-change { font-size: 1.15rem; }
.puzzle-page .solution-line { font-family: var(--mono, monospace); overflow-wrap: anywhere; }
.puzzle-page .explain[data-kind="good"] { color: var(--gain); }
.puzzle-note { font-size: .9rem; }
`;

// -- the server --------------------------------------------------------------------------

/** A call of the API as this browser's learner: writes carry the session's CSRF token. */
async function call(method, path, body) {
  const csrf = method === 'GET' ? null : (await account()).csrf_token;
  return sessionCall(method, path, body, csrf);
}

// -- what this browser keeps for an anonymous learner -------------------------------------

function local() {
  try { return JSON.parse(localStorage.getItem(LOCAL_KEY) || '{}') || {}; } catch { return {}; }
}

function localGame(game) {
  return {rating: {...NEW_RATING}, attempts: 0, solved: 0, streak: 0, best_streak: 0, seen: [],
    ...(local()[game] || {})};
}

function keepLocal(game, entry) {
  const all = local();
  all[game] = {...entry, seen: entry.seen.slice(-MAX_SEEN)};
  localStorage.setItem(LOCAL_KEY, JSON.stringify(all));
}

const shown = (r) => `${Math.round(r.rating)}${r.deviation >= PROVISIONAL ? '?' : ''}`;
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

/** The learner's puzzle standing per game: the account's, else this browser's. */
async function standings() {
  const {user} = await account();
  if (user) {
    const board = await call('GET', '/api/account/puzzles');
    return {user, games: board.games, recent: board.recent};
  }
  const all = local();
  const games = {};
  for (const game of Object.keys(all)) {
    const g = localGame(game);
    games[game] = {...g, ...g.rating, shown: shown(g.rating)};
  }
  return {user: null, games, recent: []};
}

// -- #/puzzles -----------------------------------------------------------------------------

route(/^\/puzzles$/, 'puzzles', async (main) => {
  installStyle('puzzles', CSS);
  document.title = 'Puzzles — sansu';
  main.append(h('h1', {}, 'Puzzles'),
    h('p', {class: 'muted'}, 'Positions from real play where the side to move wins by force. '
      + 'Find the winning move: each puzzle has exactly one, proved by searching every reply. '
      + 'Your puzzle rating moves with each first try.'));
  const [list, mine] = await Promise.all([call('GET', '/api/puzzles'), standings()]);
  if (!list.games.length) {
    main.append(h('p', {class: 'notice'}, 'No puzzles are installed on this server yet.'));
    return;
  }
  const cards = h('div', {class: 'cards puzzle-cards'});
  const order = (g) => (KNOWN_GAMES.indexOf(g.game) + 1) || KNOWN_GAMES.length + 1;
  for (const g of [...list.games].sort((a, b) => order(a) - order(b))) {
    const mod = await boardModule(g.game);
    const me = mine.games[g.game] || {...NEW_RATING, shown: shown(NEW_RATING), streak: 0,
      best_streak: 0, solved: 0};
    cards.append(h('section', {class: 'card', 'data-puzzle-game': g.game},
      h('h2', {}, mod.meta.title),
      h('p', {}, `${g.count} puzzle${g.count === 1 ? '' : 's'}`),
      h('p', {class: 'standing'}, 'Your rating ', h('span', {class: 'rating', 'data-testid': `rating-${g.game}`},
        me.shown || shown(me))),
      h('p', {}, `Solved ${me.solved} · streak ${me.streak} (best ${me.best_streak})`),
      h('div', {class: 'row'},
        h('a', {class: 'btn primary', href: `#/puzzles/${g.game}`}, 'Solve puzzles',
          h('span', {class: 'visually-hidden'}, ` of ${mod.meta.title}`)),
        h('a', {class: 'btn', href: `#/puzzles/${g.game}/daily`}, 'Daily puzzle',
          h('span', {class: 'visually-hidden'}, ` of ${mod.meta.title}`)))));
  }
  main.append(cards);
  if (mine.recent.length) {
    main.append(h('section', {class: 'panel', 'data-testid': 'recent-puzzles'},
      h('h2', {}, 'Your latest puzzles'),
      h('ul', {class: 'list'}, ...mine.recent.slice(0, 10).map((r) => h('li', {},
        h('a', {href: `#/puzzles/id/${enc(r.puzzle_id)}`}, r.puzzle_id), ' ',
        r.solved ? 'solved' : 'not solved', ' ',
        h('span', {class: `rating-change ${r.change < 0 ? 'down' : 'up'}`}, signed(r.change)))))));
  }
  main.append(h('p', {class: 'muted puzzle-note'}, mine.user
    ? `Signed in as ${mine.user.name}: your puzzle ratings are kept on your account.`
    : 'Not signed in: your puzzle ratings and streaks are kept in this browser.'));
});

route(/^\/puzzles\/id\/([\w-]+)$/, 'puzzles', async (main, m) => {
  const puzzle = await load(main, `/api/puzzles/id/${enc(m[1])}`);
  return puzzle && new PuzzlePage(main, puzzle, {rated: true}).start();
});

route(/^\/puzzles\/([\w-]+)\/daily$/, 'puzzles', async (main, m) => {
  const puzzle = await load(main, `/api/puzzles/${enc(m[1])}/daily`);
  return puzzle && new PuzzlePage(main, puzzle, {rated: true, daily: puzzle.daily}).start();
});

route(/^\/puzzles\/([\w-]+)$/, 'puzzles', async (main, m) => {
  const game = m[1];
  const {user} = await account();
  let path = `/api/puzzles/${enc(game)}/next`;
  if (!user) {
    const me = localGame(game);
    path += `?rating=${Math.round(me.rating.rating)}&seen=${enc(me.seen.join(','))}`;
  }
  const puzzle = await load(main, path, game);
  return puzzle && new PuzzlePage(main, puzzle, {rated: true}).start();
});

route(/^\/mistakes\/([\w-]+)$/, 'archive', async (main, m, query) => {
  const seat = Number(query.get('seat') || 0);
  let answer;
  try {
    answer = await call('GET', `/api/games/${enc(m[1])}/mistakes?seat=${seat}`);
  } catch (error) {
    main.append(h('h1', {}, 'Learn from your mistakes'),
      errorNotice(`These exercises are not available: ${error.message}.`),
      h('p', {}, h('a', {href: `#/replay/${enc(m[1])}`}, 'Back to the game')));
    return null;
  }
  const k = Math.max(0, Number(query.get('n') || 1) - 1);
  const exercise = answer.exercises[k];
  if (!exercise) {
    main.append(h('h1', {}, 'Learn from your mistakes'),
      h('p', {class: 'notice'}, answer.exercises.length
        ? 'That was the last exercise of this game.' : 'The review found no blunder by this player.'),
      h('p', {}, h('a', {href: `#/replay/${enc(m[1])}`}, 'Back to the game')));
    return null;
  }
  const puzzle = {id: exercise.id, game: answer.game, options: answer.options, moves: exercise.moves,
    solution: [exercise.answer], seat, played: exercise.played, number: exercise.number,
    next: k + 1 < answer.exercises.length
      ? `#/mistakes/${enc(m[1])}?seat=${seat}&n=${k + 2}` : null,
    gameId: answer.game_id, count: answer.exercises.length, index: k};
  return new PuzzlePage(main, puzzle, {rated: false}).start();
});

async function load(main, path, game = null) {
  installStyle('puzzles', CSS);
  try {
    return await call('GET', path);
  } catch (error) {
    const none = error.code === 'no_more_puzzles';
    main.append(h('h1', {}, 'Puzzles'),
      none ? h('p', {class: 'notice'}, error.message)
        : errorNotice(`This puzzle is not available: ${error.message}.`),
      h('p', {}, h('a', {href: '#/puzzles'}, 'All puzzles'),
        game && none ? h('span', {}, ' · ', h('a', {href: `#/puzzles/${game}/daily`}, 'Daily puzzle')) : null));
    return null;
  }
}

// -- one puzzle -----------------------------------------------------------------------------

class PuzzlePage {
  constructor(main, puzzle, {rated, daily = null}) {
    this.main = main;
    this.puzzle = puzzle;
    this.rated = rated;
    this.daily = daily;
    this.line = [];       // moves played since the puzzle's position (learner's and replies)
    this.mine = [];       // the learner's moves only
    this.state = 'playing';
    this.stopped = false;
  }

  async start() {
    this.mod = await boardModule(this.puzzle.game);
    this.build();
    await this.show();
    return () => { this.stopped = true; this.board.destroy?.(); };
  }

  name(p) { return this.mod.meta.playerName(p, this.view); }

  build() {
    const p = this.puzzle;
    const title = this.mod.meta.title;
    document.title = `${this.rated ? 'Puzzle' : 'Exercise'}: ${title} — sansu`;
    this.statusEl = h('div', {class: 'status', 'data-testid': 'status', 'aria-live': 'polite'});
    this.explainEl = h('div', {class: 'explain', 'data-testid': 'explain', 'aria-live': 'polite'});
    this.underBoard = h('div', {class: 'under-board'});
    this.board = this.mod.createBoard({
      propose: (move) => this.propose(move),
      report: async () => false,
      underBoard: this.underBoard,
      explain: (text, kind) => this.explain(text, kind),
      hint: async () => { throw new Error('No hints in puzzles.'); },
      playerName: (seat) => this.name(seat),
    });
    this.boardHost = h('div', {class: 'board-host', 'data-game': p.game}, this.board.el);
    this.resultEl = h('div', {class: 'panel puzzle-result', hidden: true, tabindex: '-1',
      'data-testid': 'result'});
    this.solutionEl = h('p', {class: 'solution-line', hidden: true, 'data-testid': 'solution'});
    this.solutionBtn = h('button', {type: 'button', class: 'btn', 'data-action': 'solution',
      onclick: () => this.showSolution()}, 'Show the solution');
    this.retryBtn = h('button', {type: 'button', class: 'btn', hidden: true, 'data-action': 'retry',
      onclick: () => this.retry()}, 'Try again');
    const nextHref = this.rated ? `#/puzzles/${p.game}` : p.next;
    this.nextLink = nextHref
      ? h('a', {class: 'btn primary', href: nextHref, 'data-action': 'next',
        // #/puzzles/<game> shows the next puzzle again from the same address.
        onclick: (e) => { e.preventDefault(); go(nextHref); }},
        this.rated ? 'Next puzzle' : 'Next exercise')
      : h('a', {class: 'btn', href: `#/replay/${enc(p.gameId)}`}, 'Back to the game');
    const heading = this.rated
      ? `${this.daily ? 'Daily puzzle' : 'Puzzle'}: ${title}`
      : `Learn from your mistakes: ${title}`;
    const about = this.rated
      ? [h('p', {class: 'muted', style: 'margin:0'}, `Puzzle ${p.id} · rated ${p.rating}`
          + (this.daily ? ` · ${this.daily}` : '')),
        p.themes?.length ? h('p', {class: 'muted themes'}, `Themes: ${p.themes.join(', ')}`) : null]
      : [h('p', {class: 'muted', style: 'margin:0'},
        `Exercise ${p.index + 1} of ${p.count}: before move ${p.number}, where ${p.played} was played.`),
      h('p', {class: 'muted puzzle-note'}, 'These exercises come from the engine\'s review of the '
        + 'game, a sampled search: they are neither proved nor rated, and another good move may exist.')];
    this.goalEl = h('p', {class: 'goal', 'data-testid': 'goal'});
    this.ratingEl = h('p', {class: 'muted', style: 'margin:0', 'data-testid': 'your-rating'});
    this.main.append(h('div', {class: 'game-page puzzle-page', 'data-puzzle': p.id, 'data-state': 'playing'},
      h('div', {class: 'board-col'}, this.statusEl, this.boardHost, this.underBoard, this.explainEl),
      h('div', {class: 'side'},
        h('div', {class: 'panel'}, h('h1', {class: 'panel-title'}, heading), this.goalEl, ...about,
          this.rated ? this.ratingEl : null),
        this.resultEl,
        this.board.side || null,
        h('div', {class: 'panel'}, h('div', {class: 'row'}, this.solutionBtn, this.retryBtn, this.nextLink),
          this.solutionEl))));
    this.page = this.main.querySelector('.puzzle-page');
    this.showStanding();
  }

  async showStanding() {
    if (!this.rated) return;
    const mine = await standings().catch(() => null);
    const me = mine?.games?.[this.puzzle.game];
    const r = me ? (me.shown || shown(me)) : shown(NEW_RATING);
    this.ratingEl.textContent = `Your puzzle rating: ${r}${me ? ` · streak ${me.streak}` : ''}`;
  }

  setState(state) {
    this.state = state;
    this.page.dataset.state = state;
  }

  explain(text, kind = 'error') {
    this.explainEl.textContent = text || '';
    this.explainEl.dataset.kind = kind;
    if (text) announce(text);
  }

  /** Asks the server for the position after the puzzle's moves and `extra`. */
  position(extra) {
    const p = this.puzzle;
    return call('POST', '/api/positions', {game: p.game, options: p.options,
      moves: [...p.moves, ...extra], viewer: p.seat});
  }

  async show() {
    let answer;
    try {
      answer = await this.position(this.line);
    } catch (error) {
      this.explain(`The position cannot be shown: ${error.message}`);
      return;
    }
    if (this.stopped) return;
    this.draw(answer);
  }

  draw(answer) {
    this.view = answer.view;
    const playing = this.state === 'playing';
    this.board.update(answer.view, {canPlay: playing, canReport: false,
      mySeats: [this.puzzle.seat], deadline: null});
    this.boardHost.dataset.ply = String(answer.ply);
    const me = this.name(this.puzzle.seat);
    this.goalEl.textContent = this.rated
      ? `${me} to move and win.` : `${me} to move: find the engine's move.`;
    const text = {playing: `Your move (${me})`, replying: 'The opponent replies…',
      solved: 'Solved!', failed: 'Not solved', shown: 'The solution'}[this.state];
    const dot = h('span', {class: 'dot', 'aria-hidden': 'true'});
    dot.style.background = this.mod.meta.playerColour(this.puzzle.seat);
    this.statusEl.replaceChildren(dot, h('span', {class: 'text'}, h('span', {class: 'lead'}, text)));
  }

  /** A move from the board: judged by the server's engine, then the reply or the end. */
  async propose(move) {
    if (this.state !== 'playing' || this.busy) return false;
    this.busy = true;
    try {
      return await this.tryMove(move);
    } finally {
      this.busy = false;
    }
  }

  async tryMove(move) {
    const p = this.puzzle;
    let answer;
    try {
      answer = await this.position([...this.line, move]);
    } catch (error) {
      const reason = error.body?.error?.detail?.reason || error.message;
      this.explain(`That move is not legal: ${reason}`);
      return false;
    }
    const played = answer.moves[answer.moves.length - 1];
    const expected = p.solution[this.line.length];
    const result = answer.result;
    const wins = !!result && !result.draw && result.winners.length === 1
      && result.winners[0] === p.seat;
    this.line.push(played);
    this.mine.push(played);
    const right = played === expected || wins;
    if (!right || wins || this.line.length >= p.solution.length) {
      this.setState(right ? 'solved' : 'failed');
      this.draw(answer);
      await this.finish(right, played, expected);
      return true;
    }
    this.setState('replying');
    this.draw(answer);
    this.explain('Correct: keep going.', 'good');
    await new Promise((resolve) => { setTimeout(resolve, REPLY_PAUSE_MS); });
    if (this.stopped) return true;
    this.line.push(p.solution[this.line.length]);
    this.setState('playing');
    await this.show();
    this.explain(`${this.name(1 - p.seat)} replied ${this.line[this.line.length - 1]}. Your move.`, 'hint');
    return true;
  }

  async finish(solved, played, expected) {
    this.solutionBtn.hidden = solved;
    this.retryBtn.hidden = solved;
    if (!this.rated) {
      this.explain(solved ? `Right: ${played} is the engine's move.`
        : `The engine preferred ${expected} to ${played}.`, solved ? 'good' : 'error');
      this.showResult(solved, null);
      return;
    }
    const {user} = await account();
    const me = localGame(this.puzzle.game);
    const first = !me.seen.includes(this.puzzle.id);
    let answer;
    try {
      answer = await call('POST', `/api/puzzles/${enc(this.puzzle.id)}/attempt`,
        {moves: this.mine, ...(user ? {} : {rating: me.rating})});
    } catch (error) {
      this.explain(`The attempt was not counted: ${error.message}`);
      return;
    }
    this.explain(answer.solved ? (played === expected ? `${played} wins.` : `${played} wins at once.`)
      : `That move does not win: ${answer.reason}.`, answer.solved ? 'good' : 'error');
    let change = null;
    if (user) {
      change = answer.rated ? answer.rating : null;
    } else if (first) {
      const after = answer.rating;
      me.rating = {rating: after.after, deviation: after.deviation, volatility: after.volatility};
      me.attempts += 1;
      me.solved += answer.solved ? 1 : 0;
      me.streak = answer.solved ? me.streak + 1 : 0;
      me.best_streak = Math.max(me.best_streak, me.streak);
      me.seen.push(this.puzzle.id);
      keepLocal(this.puzzle.game, me);
      change = after;
    }
    this.showResult(answer.solved, change);
    this.showStanding();
  }

  showResult(solved, change) {
    const el = this.resultEl;
    el.hidden = false;
    el.dataset.solved = String(solved);
    const parts = [h('p', {class: 'verdict'}, solved ? 'Solved!' : 'Not solved')];
    if (change) {
      parts.push(h('p', {}, 'Rating ',
        h('span', {class: `rating-change ${change.change < 0 ? 'down' : 'up'}`,
          'data-testid': 'rating-change'}, signed(change.change)),
        ` → ${Math.round(change.after)}`));
    } else if (this.rated) {
      parts.push(h('p', {class: 'muted', 'data-testid': 'rating-change'},
        'Already tried: this attempt does not change your rating.'));
    }
    el.replaceChildren(...parts);
    // The board is done with: no cell stays selected, and the verdict takes the focus,
    // with "Next puzzle" one Tab away.
    this.board.grid?.deselect?.();
    el.focus();
    announce(solved ? 'Solved!' : 'Not solved');
  }

  async showSolution() {
    this.setState('shown');
    this.line = [...this.puzzle.solution];
    this.solutionEl.hidden = false;
    this.solutionEl.textContent = `Solution: ${this.puzzle.solution.join(' ')}`;
    this.solutionBtn.hidden = true;
    this.retryBtn.hidden = false;
    await this.show();
  }

  async retry() {
    this.line = [];
    this.mine = [];
    this.setState('playing');
    this.retryBtn.hidden = true;
    this.solutionBtn.hidden = false;
    this.solutionEl.hidden = true;
    this.explain(this.rated ? 'Another try: it does not change your rating.' : '', 'hint');
    await this.show();
  }
}
