// Learn to play: #/learn lists the five games' lessons with the learner's progress,
// #/learn/<game> (?step=<id>) plays a lesson step by step. Each step sets up a
// position and a goal; the learner plays on the game's own board, and the server
// judges every move with the engine (POST /api/lessons/<game>/<step>/check): an
// illegal move is explained with the engine's own reason, a legal move that misses
// the goal with the step's hint, and the other side's scripted replies are played.
// Progress lives in localStorage ('sansu.lessons': {game: [step ids]}) and, when
// signed in, on the account; what the browser learned anonymously goes to the
// account the next time a signed-in learner opens a lesson page (docs/learn.md).

import {account} from './api.js';
import {KNOWN_GAMES, boardModule} from './games.js';
import {h, installStyle} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const PROGRESS_KEY = 'sansu.lessons';
const enc = encodeURIComponent;
const HOW = {
  uttt: 'Click or tap a cell to place your mark.',
  sansumoku: 'Click or tap a cell to place the digit.',
  sumodoku: 'Select a cell, then one of your colours (or type its digit).',
  challenge: 'Select a cell, then a digit (or type it).',
  thirtyfive: 'Select a square, then a number (or type it).',
};

installStyle('learn', `
.learn-list { display: grid; gap: .8rem; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr));
  padding: 0; margin: 1rem 0; list-style: none; }
.learn-list li { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  padding: .9rem 1rem; display: grid; gap: .45rem; }
.learn-list h2 { margin: 0; font-size: 1.15rem; }
.learn-list p { margin: 0; color: var(--muted); }
.learn-meter { height: .5rem; background: var(--surface-2); border-radius: 999px; overflow: hidden; }
.learn-meter span { display: block; height: 100%; background: var(--accent); }
.lesson-steps { list-style: none; padding: 0; margin: 0; display: grid; gap: .25rem; }
.lesson-steps button { width: 100%; text-align: left; display: flex; gap: .5rem; align-items: baseline;
  background: none; border: 1px solid transparent; border-radius: 8px; padding: .35rem .5rem;
  color: inherit; font: inherit; cursor: pointer; }
.lesson-steps button[aria-current="step"] { border-color: var(--accent); font-weight: 600; }
.lesson-steps .mark { flex: none; width: 1.2rem; text-align: center; }
.lesson-steps .is-done .mark { color: var(--ok, #1a7f37); }
.lesson-task { font-weight: 600; margin: 0; width: 100%; }
.lesson-text p { margin: 0 0 .5rem; }
.lesson-talk { width: 100%; display: flex; gap: .6rem; align-items: center; flex-wrap: wrap;
  border-radius: 10px; padding: .5rem .8rem; border: 1px solid var(--border); background: var(--surface);
  min-height: 3.3rem; }
.lesson-say { flex: 1 1 14rem; }
.lesson-talk:has(.lesson-say[data-kind="error"]) { border-color: var(--danger); }
.lesson-talk:has(.lesson-say[data-kind="missed"]) { border-color: var(--accent); }
.lesson-talk:has(.lesson-say[data-kind="done"]) { border-color: var(--ok, #1a7f37); }
.lesson-say[data-kind="error"] { color: var(--danger); }
.lesson-say[data-kind="done"] { font-weight: 600; }
.lesson-actions { display: flex; flex-wrap: wrap; gap: .5rem; }
.lesson-type { display: flex; gap: .4rem; flex-wrap: wrap; }
.lesson-type input { flex: 1; min-width: 8rem; }
@media (max-width: 820px) {
  .lesson-page > .side { display: contents; }
  .lesson-page .lesson-info { order: -1; }
}
`);

// -- progress ---------------------------------------------------------------------------

/** The steps this browser finished: {game: [step ids]}. */
export function localProgress() {
  try {
    const data = JSON.parse(localStorage.getItem(PROGRESS_KEY) || '{}');
    return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function saveLocal(progress) {
  localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress));
}

function addLocal(game, step) {
  const progress = localProgress();
  const done = new Set(progress[game] || []);
  done.add(step);
  progress[game] = [...done];
  saveLocal(progress);
}

/** Marks a step done here and, signed in, on the account. */
async function markDone(game, step) {
  addLocal(game, step);
  const {user, csrf_token: csrf} = await account();
  if (!user) return;
  try {
    await call('PUT', `/api/account/lessons/${enc(game)}/${enc(step)}`, undefined, csrf);
  } catch {
    // Kept in the browser: the next visit signed in hands it over.
  }
}

/** Signed in: hands the browser's steps to the account and adds the account's to the browser. */
async function syncProgress() {
  const {user, csrf_token: csrf} = await account();
  if (!user) return localProgress();
  let mine;
  try {
    mine = (await call('GET', '/api/account/lessons')).lessons || {};
  } catch {
    return localProgress();
  }
  const local = localProgress();
  for (const [game, steps] of Object.entries(local)) {
    for (const step of steps) {
      if ((mine[game] || []).includes(step)) continue;
      try {
        await call('PUT', `/api/account/lessons/${enc(game)}/${enc(step)}`, undefined, csrf);
      } catch {
        // A step that no longer exists is simply not handed over.
      }
    }
  }
  for (const [game, steps] of Object.entries(mine)) {
    local[game] = [...new Set([...(local[game] || []), ...steps])];
  }
  saveLocal(local);
  return local;
}

// Whoever signs in, wherever in the app: this browser's steps reach the account at the
// next change of page, once per account and page load.
let syncedFor = null;
window.addEventListener('hashchange', async () => {
  const {user} = await account();
  if (!user || syncedFor === user.name) return;
  syncedFor = user.name;
  await syncProgress();
});

// -- #/learn ----------------------------------------------------------------------------

route(/^\/learn$/, 'learn', async (main) => {
  document.title = 'Learn to play — sansu';
  main.append(h('section', {class: 'hero'}, h('h1', {}, 'Learn to play'),
    h('p', {}, 'Short interactive lessons: each step sets up a position and asks for a move. '
      + 'Play it on the board, and the game tells you why a move does not work.')));
  let lessons;
  try {
    lessons = (await call('GET', '/api/lessons')).lessons;
    const order = (l) => (KNOWN_GAMES.includes(l.game) ? KNOWN_GAMES.indexOf(l.game) : 99);
    lessons.sort((a, b) => order(a) - order(b));
  } catch (error) {
    main.append(errorNotice(`The lessons could not be loaded: ${error.message}`));
    return;
  }
  const progress = await syncProgress();
  const mods = await Promise.all(lessons.map((l) => boardModule(l.game)));
  main.append(h('ul', {class: 'learn-list', 'aria-label': 'Lessons'}, ...lessons.map((l, k) => {
    const done = l.steps.filter((s) => (progress[l.game] || []).includes(s.id)).length;
    const total = l.steps.length;
    const title = mods[k].meta.title;
    const word = done === 0 ? 'Start' : done === total ? 'Review' : 'Continue';
    const meter = h('div', {class: 'learn-meter', 'aria-hidden': 'true'}, h('span', {}));
    meter.firstChild.style.width = `${Math.round((100 * done) / total)}%`;
    return h('li', {'data-game': l.game},
      h('h2', {}, title), h('p', {}, l.intro), meter,
      h('p', {'data-testid': 'progress'}, `${done} of ${total} steps done`),
      h('div', {class: 'row'}, h('a', {class: 'btn primary', href: `#/learn/${l.game}`,
        'aria-label': `${word} the ${title} lesson`}, word)));
  })));
});

// -- #/learn/<game> ---------------------------------------------------------------------

route(/^\/learn\/([\w-]+)$/, 'learn', async (main, m, query) => {
  const page = new LessonPage(main, m[1]);
  await page.start(query.get('step'));
  return () => page.stop();
});

class LessonPage {
  constructor(main, game) {
    this.main = main;
    this.game = game;
    this.moves = [];       // the learner's moves in this step
    this.verdict = null;   // the server's last answer
    this.busy = false;
  }

  async start(stepId) {
    try {
      this.lesson = await call('GET', `/api/lessons/${enc(this.game)}`);
    } catch (error) {
      this.main.append(h('h1', {}, 'Learn to play'), errorNotice(error.message),
        h('p', {}, h('a', {href: '#/learn'}, 'All lessons')));
      return;
    }
    this.game = this.lesson.game;
    this.mod = await boardModule(this.game);
    this.progress = await syncProgress();
    this.build();
    const done = new Set(this.progress[this.game] || []);
    let index = this.lesson.steps.findIndex((s) => s.id === stepId);
    if (index < 0) index = Math.max(0, this.lesson.steps.findIndex((s) => !done.has(s.id)));
    await this.open(index, false);
  }

  stop() {
    this.stopped = true;
    this.board?.destroy?.();
  }

  build() {
    const title = this.mod.meta.title;
    document.title = `Learn ${title} — sansu`;
    this.statusEl = h('div', {class: 'status', 'data-testid': 'status'});
    this.sayEl = h('div', {class: 'lesson-say', 'data-testid': 'lesson-say'});
    this.underBoard = h('div', {class: 'under-board'});
    this.board = this.mod.createBoard({
      propose: (move) => this.propose(move),
      report: (move) => this.propose(move),
      underBoard: this.underBoard,
      explain: (text, kind) => { if (text) this.say(text, kind === 'hint' ? 'hint' : 'error'); },
      hint: async () => { throw new Error('No hints in a lesson: the step says what to look for.'); },
      playerName: (p) => this.mod.meta.playerName(p, this.verdict?.position?.view),
    });
    this.boardHost = h('div', {class: 'board-host', 'data-game': this.game}, this.board.el);
    this.retryBtn = h('button', {type: 'button', class: 'btn', 'data-action': 'retry',
      onclick: () => this.open(this.index)}, 'Try again');
    this.nextBtn = h('button', {type: 'button', class: 'btn primary', 'data-action': 'next',
      onclick: () => this.next()}, 'Next step');
    this.moveInput = h('input', {type: 'text', id: 'lesson-move', autocomplete: 'off',
      placeholder: this.game === 'thirtyfive' || this.game === 'sumodoku' || this.game === 'challenge'
        ? 'r5c5=7' : 'r5c5'});
    const typeForm = h('form', {class: 'lesson-type', 'data-testid': 'type-move'},
      h('label', {for: 'lesson-move', class: 'visually-hidden'}, 'Type a move'),
      this.moveInput, h('button', {type: 'submit', class: 'btn'}, 'Play'));
    typeForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const move = this.moveInput.value.trim();
      if (!move) return;
      if (await this.propose(move)) this.moveInput.value = '';
    });
    this.titleEl = h('h2', {id: 'step-title', tabindex: '-1'});
    this.textEl = h('div', {class: 'lesson-text'});
    this.taskEl = h('p', {class: 'lesson-task', 'data-testid': 'task'});
    this.stepsEl = h('ol', {class: 'lesson-steps', 'aria-label': 'Steps'});
    this.root = h('div', {class: 'game-page lesson-page'},
      h('div', {class: 'board-col'}, this.statusEl, this.taskEl,
        h('div', {class: 'lesson-talk'}, this.sayEl,
          h('div', {class: 'lesson-actions'}, this.retryBtn, this.nextBtn)),
        this.boardHost, this.underBoard),
      h('div', {class: 'side'},
        h('div', {class: 'panel lesson-info'},
          h('p', {class: 'muted', style: 'margin:0'}, h('a', {href: '#/learn'}, 'Lessons'), ' › ',
            title),
          h('h1', {class: 'panel-title'}, this.lesson.title),
          this.titleEl, this.textEl),
        this.board.side || null,
        h('div', {class: 'panel'}, h('h2', {}, 'Steps'), this.stepsEl),
        h('div', {class: 'panel'}, h('h2', {}, 'Type a move'),
          h('p', {class: 'muted', style: 'margin:0 0 .4rem'},
            'Cells are named by row and column, like r5c5; special moves by their word.'),
          typeForm)));
    this.main.append(this.root);
  }

  renderSteps() {
    const done = new Set(this.progress[this.game] || []);
    this.stepsEl.replaceChildren(...this.lesson.steps.map((s, k) => {
      const finished = done.has(s.id);
      return h('li', {class: finished ? 'is-done' : '', 'data-step': s.id},
        h('button', {type: 'button', 'aria-current': k === this.index ? 'step' : 'false',
          onclick: () => this.open(k)},
        h('span', {class: 'mark', 'aria-hidden': 'true'}, finished ? '✓' : `${k + 1}`),
        h('span', {}, s.title,
          h('span', {class: 'visually-hidden'}, finished ? ' (done)' : ''))));
    }));
  }

  /** Sets up step `index` from its start. */
  async open(index, focus = true) {
    this.index = index;
    this.step = this.lesson.steps[index];
    this.moves = [];
    history.replaceState(null, '', `#/learn/${this.game}?step=${enc(this.step.id)}`);
    this.titleEl.textContent = `Step ${index + 1} of ${this.lesson.steps.length}: ${this.step.title}`;
    this.textEl.replaceChildren(...this.step.text.split(/\n\n+/).map((p) => h('p', {}, p)));
    this.renderSteps();
    const verdict = await this.ask([]);
    if (!verdict) return;
    this.learner = verdict.position.to_move;  // the side the learner plays in this step
    this.show(verdict);
    this.say(HOW[this.game] || 'Play your move on the board.', 'hint', false);
    if (focus) this.titleEl.focus({preventScroll: true});
  }

  async ask(moves) {
    try {
      return await call('POST', `/api/lessons/${enc(this.game)}/${enc(this.step.id)}/check`,
        {moves});
    } catch (error) {
      this.say(error.message, 'error');
      return null;
    }
  }

  /** The learner's move: judged by the server; answers whether it was taken. */
  async propose(move) {
    const status = this.verdict?.status;
    if (this.busy || status === 'done' || status === 'missed') {
      if (status === 'missed') this.say('Press "Try again" to set the step up again.', 'missed');
      return false;
    }
    this.busy = true;
    this.root.dataset.busy = 'true';
    try {
      const verdict = await this.ask([...this.moves, move]);
      if (!verdict) return false;
      if (verdict.status === 'illegal') {
        this.say(`That move is not allowed: ${verdict.message}`, 'error');
        return false;
      }
      this.moves.push(move);
      this.show(verdict);
      if (verdict.status === 'missed') {
        this.say(`Not quite. ${verdict.message}`, 'missed');
        this.retryBtn.focus();
      } else if (verdict.status === 'done') {
        this.say(verdict.message, 'done');
        await markDone(this.game, this.step.id);
        this.progress = localProgress();
        this.renderSteps();
        if (this.index + 1 < this.lesson.steps.length) this.nextBtn.focus();
        else this.say(`${verdict.message} That was the last step: you have finished the lesson.`, 'done');
      } else {
        const replies = verdict.replies.length
          ? `${this.name(1 - (verdict.position.to_move ?? 0))} answered ${verdict.replies.join(', ')}. `
          : '';
        this.say(`${replies}${verdict.message}`, 'hint');
      }
      return true;
    } finally {
      this.busy = false;
      delete this.root.dataset.busy;
    }
  }

  next() {
    if (this.index + 1 < this.lesson.steps.length) this.open(this.index + 1);
    else location.hash = '#/learn';
  }

  name(p) { return this.mod.meta.playerName(p, this.verdict?.position?.view); }

  say(text, kind, aloud = true) {
    this.sayEl.textContent = text;
    this.sayEl.dataset.kind = kind;
    if (text && aloud) announce(text);
  }

  /** Draws the verdict's position and the step's state. */
  show(verdict) {
    this.verdict = verdict;
    const pos = verdict.position;
    const v = pos.view;
    const over = pos.result;
    const task = this.step.tasks[Math.min(verdict.task, this.step.tasks.length - 1)];
    const finished = verdict.status === 'done';
    this.taskEl.textContent = finished ? 'Step complete.' : `Your task: ${task.prompt}`;
    let text;
    if (over) {
      text = over.draw ? 'Draw' : `${over.winners.map((p) => this.name(p)).join(' and ')} won`;
      if (over.reason) text += ` (${over.reason})`;
    } else {
      text = this.step.observer ? 'You are watching'
        : `You play as ${this.name(this.learner)}`;
    }
    const dot = h('span', {class: 'dot', 'aria-hidden': 'true'});
    dot.style.background = over || this.step.observer ? 'transparent'
      : this.mod.meta.playerColour(this.learner);
    const detail = !over && v.to_move === this.learner && this.board.statusDetail?.(v);
    this.statusEl.replaceChildren(dot, h('span', {class: 'text'}, h('span', {class: 'lead'}, text),
      detail ? h('span', {class: 'detail'}, ` — ${detail}`) : null));
    const live = verdict.status === 'play' && !over;
    const canPlay = live && !this.step.observer;
    this.board.update(v, {canPlay, canReport: live, mySeats: canPlay ? [v.to_move] : [],
      deadline: null});
    this.boardHost.dataset.ply = String(pos.ply);
    this.boardHost.dataset.status = verdict.status;
    this.retryBtn.hidden = verdict.status === 'play' && this.moves.length === 0;
    this.nextBtn.hidden = !finished;
    this.nextBtn.textContent = this.index + 1 < this.lesson.steps.length ? 'Next step' : 'All lessons';
  }
}
