// The Sudoku technique trainer, for Sudoku Challenge and Sumodoku players.
// #/trainer lists the rater's techniques in ladder order, grouped by level;
// #/trainer/<technique>?seed=N shows a grid whose next logical step is that
// technique, with the candidates left by the steps before it. The learner
// picks a cell and a digit (by click, or by arrows and digit keys), the server
// judges it, and the page shows the verdict with the step's pattern on the
// board and the rater's explanation. The seed is in the address, so a grid can
// be reloaded or shared; "Another grid" draws a new seed.

import {request} from './api.js';
import {DigitPad, Grid, cellName, h, installStyle, placeByWidth, s} from './kit.js';
import {go, route} from './router.js';
import {announce, errorNotice} from './ui.js';

const LEVELS = {easy: 'Easy', medium: 'Medium', hard: 'Hard', expert: 'Expert', extreme: 'Extreme'};
const MAX_SEED = 2 ** 31 - 1;

const CSS = `
.trainer-levels { display: grid; gap: 1.2rem; max-width: 60rem; }
.trainer-levels ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }
.trainer-levels li a { display: block; height: 100%; box-sizing: border-box; padding: .6rem .8rem;
  background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  color: inherit; text-decoration: none; }
.trainer-levels li a:hover { border-color: var(--accent); }
.trainer-levels li b { display: block; color: var(--accent); }
.trainer-levels li span { color: var(--muted); font-size: .92rem; }
.trainer-levels h2 { margin: 0 0 .5rem; font-size: 1.15rem; }
.tr-page h1 { margin-bottom: .2rem; }
.tr-task { font-weight: 600; }
.tr .cell .v { font-size: calc(100cqw / 9 * .58); }
.tr .cell.given .v { font-weight: 800; color: var(--fg); }
.tr .cell.filled .v { font-weight: 500; color: var(--accent); }
.tr .pm text { font-size: .27px; fill: var(--muted); text-anchor: middle; dominant-baseline: central; }
.tr .pm text.is-place { fill: var(--accent-fg); font-weight: 800; }
.tr .pm text.is-remove { fill: var(--danger); font-weight: 800; }
.tr .pm circle.place { fill: var(--ok); }
.tr .pm circle.pick { fill: none; stroke: var(--fg); stroke-width: .03; }
.tr .pm line.remove { stroke: var(--danger); stroke-width: .035; }
.tr .cell.in-pattern { background: color-mix(in srgb, var(--focus) 22%, transparent); }
.tr-side .verdict h2 { margin: .2rem 0 .3rem; font-size: 1.1rem; }
.tr-side .verdict.right, .tr-side .verdict.wrong { border-left: 5px solid var(--ok);
  padding-left: .7rem; margin-top: .8rem; }
.tr-side .verdict.wrong { border-left-color: var(--danger); }
.tr-side .verdict p { margin: .3rem 0; }
.tr-side .legend { font-size: .88rem; color: var(--muted); }
.tr-side .row { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .6rem; }
.tr-side .pick { min-height: 1.4rem; margin: .5rem 0 0; }
`;

/** A technique's title as a heading: `naked single` → `Naked single`, `XY-wing` as it is. */
function heading(t) {
  return t.title.charAt(0).toUpperCase() + t.title.slice(1);
}

route(/^\/trainer$/, 'trainer', async (main) => {
  installStyle('trainer', CSS);
  document.title = 'Sudoku technique trainer — sansu';
  main.append(h('h1', {}, 'Sudoku technique trainer'),
    h('p', {class: 'muted'}, 'For Sudoku Challenge and Sumodoku players: choose a technique and get '
      + 'a grid where it is the next logical step. Find the digit it places or a candidate it '
      + 'removes, and see the step explained on the board.'));
  const {techniques, levels} = await request('GET', '/api/trainer');
  const box = h('div', {class: 'trainer-levels'});
  for (const level of levels) {
    const mine = techniques.filter((t) => t.level === level);
    if (!mine.length) continue;
    const id = `level-${level}`;
    box.append(h('section', {'aria-labelledby': id}, h('h2', {id}, LEVELS[level] || level),
      h('ol', {}, ...mine.map((t) => h('li', {}, h('a', {href: `#/trainer/${t.id}`,
        'data-technique': t.id}, h('b', {}, heading(t)), h('span', {}, t.description)))))));
  }
  main.append(box);
});

route(/^\/trainer\/([a-z0-9-]+)$/, 'trainer', async (main, m, query) => {
  installStyle('trainer', CSS);
  const id = m[1];
  const asked = query.has('seed') ? Number(query.get('seed')) : null;
  const status = h('p', {class: 'muted', role: 'status'}, 'Making a grid…');
  main.append(h('p', {}, h('a', {href: '#/trainer'}, 'All techniques')), status);
  let drill;
  try {
    drill = await request('POST', `/api/trainer/${encodeURIComponent(id)}`,
      Number.isInteger(asked) ? {seed: asked} : {});
  } catch (error) {
    status.replaceWith(errorNotice(error.message));
    return;
  }
  history.replaceState(null, '', `#/trainer/${id}?seed=${drill.seed}`);
  status.remove();
  const exercise = new Exercise(main, drill);
  exercise.show();
  return () => exercise.stopPlacing();
});

/** One exercise on the page: the grid, the pad, the answer and its verdict. */
class Exercise {
  constructor(main, drill) {
    this.main = main;
    this.drill = drill;
    this.technique = drill.technique;
    this.verdict = null;
    this.busy = false;
  }

  show() {
    const t = this.technique;
    document.title = `${heading(t)} — Sudoku technique trainer — sansu`;
    const task = t.kind === 'place'
      ? `Find the digit a ${t.title} places: choose its cell, then the digit.`
      : `Find a candidate the ${t.title} removes: choose its cell, then that candidate.`;
    const solved = this.drill.ply
      ? ` The first ${this.drill.ply} steps of the solve are done: the small digits are the `
        + 'candidates they leave.'
      : ' The small digits are each empty cell\'s candidates.';
    this.grid = new Grid({rows: 9, cols: 9, label: 'Sudoku grid', className: 'tr sudoku-like'});
    this.grid.onActivate = (i, digit) => {
      if (typeof digit === 'number') this.answer(i, digit);
      else this.pickNote();
    };
    this.grid.onSelect = () => this.pickNote();
    this.pad = new DigitPad({label: 'Digit', onPick: (d) => this.answer(this.grid.selected, d)});
    this.pick = h('p', {class: 'pick', 'aria-live': 'polite'});
    this.result = h('div', {class: 'verdict'});
    const padHome = h('div', {});
    const under = h('div', {class: 'under-board'});
    const padBox = h('div', {}, this.pad.el, this.pick);
    this.padBox = padBox;
    this.main.append(h('div', {class: 'tr-page'},
      h('h1', {}, heading(t)),
      h('p', {class: 'muted'}, t.description),
      h('div', {class: 'game-page'},
        h('div', {class: 'board-col'},
          h('p', {class: 'tr-task', 'data-testid': 'task'}, task,
            h('span', {class: 'muted', style: 'font-weight:400'}, solved)),
          h('div', {class: 'board-host'}, this.grid.el), under),
        h('div', {class: 'side tr-side'},
          h('div', {class: 'panel'}, padHome, this.result,
            h('div', {class: 'row'},
              h('button', {type: 'button', class: 'btn primary', 'data-action': 'another',
                onclick: () => this.another()}, 'Another grid'),
              h('button', {type: 'button', class: 'btn', 'data-action': 'again', hidden: true,
                onclick: () => this.again()}, 'Try this grid again')))))));
    this.againBtn = this.main.querySelector('[data-action="again"]');
    this.stopPlacing = placeByWidth(padBox, padHome, under);
    this.draw();
    this.pickNote();
  }

  another() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0] % MAX_SEED;
    go(`#/trainer/${this.technique.id}?seed=${seed}`);
  }

  again() {
    this.verdict = null;
    this.result.replaceChildren();
    this.result.className = 'verdict';
    delete this.result.dataset.right;
    this.againBtn.hidden = true;
    this.padBox.hidden = false;
    this.draw();
    this.pickNote();
    this.grid.select(Math.max(0, this.grid.selected));
  }

  candidates(i) {
    return this.drill.candidates[i] || [];
  }

  pickNote() {
    const i = this.grid.selected;
    const open = i >= 0 && !this.drill.values[i] && !this.verdict;
    const digits = open ? this.candidates(i) : [];
    this.pad.update((d) => ({enabled: digits.includes(d),
      label: open ? `${d} in ${cellName(i)}` : String(d)}));
    if (this.verdict) this.pick.textContent = '';
    else if (i < 0) this.pick.textContent = 'Choose a cell (or move with the arrow keys, then type a digit).';
    else if (this.drill.values[i]) this.pick.textContent = `${cellName(i)} is already filled.`;
    else this.pick.textContent = `${cellName(i)}: candidates ${digits.join(', ')}. Choose one.`;
  }

  draw() {
    const {values, givens} = this.drill;
    const v = this.verdict;
    const pattern = new Set(v ? v.pattern : []);
    const marks = new Map();
    if (v) {
      for (const p of v.placements) marks.set(`${p.index}:${p.digit}`, 'is-place');
      for (const p of v.eliminations) marks.set(`${p.index}:${p.digit}`, 'is-remove');
    }
    // Candidates are drawn on the board's top layer, which screen readers skip: each
    // cell's label says them instead.
    this.grid.clearLayers();
    const layer = s('g', {class: 'pm'});
    this.grid.cells.forEach((cell, i) => {
      const name = cellName(i);
      cell.classList.toggle('given', Boolean(givens[i]));
      cell.classList.toggle('filled', Boolean(values[i] && !givens[i]));
      cell.classList.toggle('in-pattern', pattern.has(i));
      if (values[i]) {
        cell.replaceChildren(h('span', {class: 'v'}, String(values[i])));
        cell.setAttribute('aria-label', `${name}: ${givens[i] ? 'given ' : ''}${values[i]}`);
        return;
      }
      cell.replaceChildren();
      const digits = this.candidates(i);
      const notes = [];
      for (const d of digits) {
        const x = (i % 9) + ((d - 1) % 3 + 0.5) / 3;
        const y = Math.floor(i / 9) + (Math.floor((d - 1) / 3) + 0.5) / 3;
        const mark = marks.get(`${i}:${d}`);
        const picked = v && v.answer.index === i && v.answer.digit === d;
        if (mark === 'is-place') layer.append(s('circle', {cx: x, cy: y, r: 0.15, class: 'place'}));
        if (picked) layer.append(s('circle', {cx: x, cy: y, r: 0.16, class: 'pick'}));
        layer.append(s('text', {x, y, class: mark || null, 'data-cell': name, 'data-digit': d},
          String(d)));
        if (mark === 'is-remove') {
          layer.append(s('line', {x1: x - 0.12, y1: y + 0.1, x2: x + 0.12, y2: y - 0.1,
            class: 'remove'}));
        }
        if (mark) notes.push(`${mark === 'is-place' ? 'place' : 'remove'} ${d}`);
      }
      const inPattern = pattern.has(i) ? ', in the pattern' : '';
      cell.setAttribute('aria-label', `${name}: candidates ${digits.join(' ')}${inPattern}`
        + (notes.length ? `; the step: ${notes.join(', ')}` : ''));
    });
    this.grid.over.append(layer);
    this.grid.drawLines(this.grid.over);
  }

  async answer(i, digit) {
    if (this.verdict || this.busy) return;
    if (i < 0) {
      this.pick.textContent = 'Choose a cell first.';
      return;
    }
    if (this.drill.values[i] || !this.candidates(i).includes(digit)) {
      this.pick.textContent = this.drill.values[i] ? `${cellName(i)} is already filled.`
        : `${digit} is not a candidate of ${cellName(i)}.`;
      return;
    }
    this.busy = true;
    try {
      this.verdict = await request('POST', `/api/trainer/${encodeURIComponent(this.technique.id)}/check`,
        {seed: this.drill.seed, cell: i, digit});
    } catch (error) {
      this.pick.textContent = error.message;
      return;
    } finally {
      this.busy = false;
    }
    this.showVerdict();
  }

  showVerdict() {
    const v = this.verdict;
    const kind = this.technique.kind === 'place' ? 'placed' : 'removed';
    this.result.className = `verdict ${v.right ? 'right' : 'wrong'}`;
    this.result.dataset.right = String(v.right);
    this.result.replaceChildren(
      h('h2', {}, v.right ? '✓ Right' : '✗ Not quite'),
      h('p', {'data-testid': 'verdict-message'}, v.message),
      h('p', {'data-testid': 'explanation'}, v.explanation),
      h('p', {class: 'legend'}, `On the board: the pattern's cells are tinted, the digit ${kind} is `
        + (this.technique.kind === 'place' ? 'on green' : 'struck through in red')
        + ', and your choice is outlined.'));
    this.againBtn.hidden = false;
    const focused = this.padBox.contains(document.activeElement);
    this.padBox.hidden = true;
    if (focused) this.againBtn.focus();  // the pad is gone: keep the focus on the page
    this.draw();
    this.pickNote();
    announce(`${v.right ? 'Right' : 'Not quite'}. ${v.explanation}`);
  }
}
