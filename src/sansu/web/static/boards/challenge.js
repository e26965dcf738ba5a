// Sudoku Challenge board: the puzzle with its givens in ink, every player's
// entries in their seat colour (with the seat number for those who do not
// see colour), wrong entries shown struck through in their cell, the cell an
// error must be corrected in outlined. Beside the board: whose turn and how
// many entries remain, the turn timer when the chrono is on, the scores and
// the live score sheet. In a game created with `aids` on, a Hint button asks
// the server for the next logical step: its technique is named and the cells
// involved are marked until the position changes.

import {DigitPad, Grid, cellIndex, cellName, clockText, h, installStyle, placeByWidth,
  scrollWithin} from '../js/kit.js';

export const meta = {
  id: 'challenge',
  title: 'Sudoku Challenge',
  pitch: 'Two to five players fill one Sudoku together — for points. High digits score more, '
    + 'completing a row, column or box scores ten, and mistakes cost you.',
  playerName: (p) => `Player ${p + 1}`,
  playerColour: (p) => `var(--seat-${p % 5})`,
};

const CSS = `
.ch .cell { font-size: calc(100cqw / 9 * .56); }
.ch .cell.given { font-weight: 800; color: var(--fg); }
.ch .cell.entry { font-weight: 600; color: var(--seat); }
/* The seat number is drawn, not written, so that a cell's text is its digit alone, as its
   label says (a label must contain the text shown). */
.ch .cell[data-seat]::after { content: attr(data-seat); position: absolute; right: 7%; bottom: 5%;
  font-size: .3em; font-weight: 700; color: var(--seat); }
.ch .cell .wrong { position: absolute; left: 7%; top: 5%; font-size: .4em; color: var(--danger);
  text-decoration: line-through; font-weight: 700; letter-spacing: .05em; }
.ch .cell.required { box-shadow: inset 0 0 0 max(3px, .7cqw) var(--danger); }
.ch .cell.is-last { background: color-mix(in srgb, var(--seat) 18%, transparent); }
.ch .cell.is-blocked { cursor: not-allowed; }
.ch .cell.is-hinted { background: color-mix(in srgb, var(--focus) 16%, transparent); }
.ch .cell.hint-target { box-shadow: inset 0 0 0 max(3px, .7cqw) var(--focus); }
.ch-pad .hint-note { margin: .4rem 0 0; font-size: .95rem; }
.ch-side .turn { font-weight: 650; }
.ch-side .timer { font-size: 1.5rem; font-weight: 800; font-variant-numeric: tabular-nums; }
.ch-side .timer.low { color: var(--danger); }
.ch-side table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums;
  font-size: .88rem; }
.ch-side th, .ch-side td { padding: .15rem .3rem; text-align: right; border-bottom: 1px solid var(--border); }
.ch-side th:first-child, .ch-side td:first-child { text-align: left; }
.ch-side thead th { position: sticky; top: 0; background: var(--surface); }
.ch-side tr.current td { background: var(--surface-2); }
.ch-side td.playing { outline: 2px solid var(--focus); outline-offset: -2px; }
.ch-side .scores { display: grid; gap: .2rem; margin: .4rem 0 .6rem; }
.ch-side .score { display: flex; gap: .5rem; align-items: center; }
.ch-side .score .sw { width: .8rem; height: .8rem; border-radius: 50%; }
.ch-side .score b { margin-left: auto; font-variant-numeric: tabular-nums; }
.ch-side .sheet { max-height: 15rem; overflow: auto; }
.ch-side .errors { font-size: .88rem; padding-left: 1.1rem; margin: .3rem 0; }
`;

export function createBoard(ctx) {
  installStyle('challenge', CSS);
  const grid = new Grid({rows: 9, cols: 9, label: 'Sudoku Challenge board', className: 'ch sudoku-like'});
  let view = null;
  let info = {};
  let armed = null;
  let timer = null;
  let hinted = null;  // {ply, cells, targets}: the last hint, until the position changes
  const turn = h('p', {class: 'turn'});
  const timerEl = h('div', {class: 'timer', role: 'timer', hidden: true});
  const scores = h('div', {class: 'scores'});
  const pad = new DigitPad({label: 'Digit to enter', onPick: (d) => pick(d)});
  const errors = h('ul', {class: 'errors'});
  const sheet = h('div', {class: 'sheet'});
  const padHome = h('div', {});
  const hintBtn = h('button', {type: 'button', class: 'btn', hidden: true, 'data-action': 'hint',
    style: 'margin-top:.6rem', onclick: () => askHint()}, 'Hint');
  const hintNote = h('p', {class: 'hint-note', 'data-testid': 'hint-result', 'aria-live': 'polite',
    hidden: true});
  // The pad and the hint sit beside the board, and under it on a phone.
  const padBox = h('div', {class: 'ch-pad'}, pad.el, hintBtn, hintNote);
  const side = h('div', {class: 'ch-side panel'}, turn, timerEl, padHome,
    h('h3', {style: 'margin-top:.8rem'}, 'Scores'), scores,
    h('details', {open: true}, h('summary', {}, 'Score sheet'), sheet),
    h('h3', {style: 'margin-top:.6rem'}, 'Errors'), errors);

  const stopPlacing = placeByWidth(padBox, padHome, ctx.underBoard);

  function pick(d) {
    if (grid.selected >= 0 && !view?.cells[grid.selected]) {
      ctx.propose(`${cellName(grid.selected)}=${d}`);
      return;
    }
    armed = armed === d ? null : d;
    renderPad();
    ctx.explain(armed ? `Now choose an empty cell for the ${armed}` : '', 'hint');
  }

  function showHint(text, cells = [], targets = []) {
    hinted = {ply: view?.ply, cells: new Set(cells), targets: new Set(targets)};
    hintNote.replaceChildren(...[text].flat());
    hintNote.hidden = false;
    if (view) draw(grid, view, hinted);
  }

  async function askHint() {
    try {
      const a = await ctx.hint();
      if (a.kind !== 'step') {
        showHint(a.message || 'No logical step found: the next digit needs a guess.');
        return;
      }
      const technique = a.technique[0].toUpperCase() + a.technique.slice(1);
      // The description starts with the technique's name: say it once, in bold.
      const said = a.description.toLowerCase().startsWith(`${a.technique.toLowerCase()}:`);
      const rest = said ? a.description.slice(a.technique.length + 1).trim() : a.description;
      showHint([h('b', {'data-testid': 'hint-technique'}, technique), `: ${rest}`],
        [...a.cells, ...(a.pattern || [])], a.cells);
    } catch (error) {
      showHint(error.message || 'No hint now.');
    }
  }

  function renderPad() {
    pad.update((d) => ({enabled: !!view && view.to_move !== null && !!info.canPlay,
      pressed: armed === d, label: `enter ${d}`}));
  }

  grid.onActivate = (i, key) => {
    if (!view) return;
    const name = cellName(i);
    if (typeof key === 'number') ctx.propose(`${name}=${key}`);
    else if (key === null && armed && !view.cells[i]) ctx.propose(`${name}=${armed}`);
    else if (key === null && !view.cells[i]) ctx.explain(`${name}: type a digit, or pick one below`, 'hint');
  };

  function tick() {
    clearTimeout(timer);
    if (!view || view.result || !view.turn_seconds || !info.deadline) {
      timerEl.hidden = true;
      return;
    }
    const left = (info.deadline - Date.now()) / 1000;
    timerEl.hidden = false;
    timerEl.textContent = `${clockText(left)} left in this turn`;
    timerEl.classList.toggle('low', left < 10);
    timer = setTimeout(tick, 250);
  }

  function renderSide(v) {
    const name = (p) => ctx.playerName(p);
    if (v.result || v.to_move === null) {
      turn.textContent = 'The grid is complete.';
    } else {
      const left = v.entries_left;
      turn.textContent = `Round ${v.round}${v.final_round ? ' (final round)' : ''}: `
        + `${name(v.to_move)} has ${left} entr${left === 1 ? 'y' : 'ies'} left this turn`
        + `${v.required_cell ? `, starting with a correction at ${v.required_cell}` : ''}.`;
    }
    const rows = (v.scores || []).map((sc, p) => h('div', {class: 'score'},
      h('span', {class: 'sw', style: `background: var(--seat-${p % 5})`}),
      name(p), h('b', {}, sc)));
    if (v.team_scores) {
      (v.teams || []).forEach((members, t) => rows.push(h('div', {class: 'score'},
        `Team ${'AB'[t]} (${members.map((m) => m + 1).join(' + ')})`, h('b', {}, v.team_scores[t]))));
    }
    scores.replaceChildren(...rows);
    const players = (v.scores || []).length;
    const head = h('tr', {}, h('th', {}, 'Round'),
      ...Array.from({length: players}, (_, p) => h('th', {scope: 'col'}, `P${p + 1}`)));
    const byRound = new Map();
    for (const row of v.score_sheet || []) {
      if (!byRound.has(row.round)) byRound.set(row.round, new Map());
      byRound.get(row.round).set(row.player, row);
    }
    const body = [...byRound.entries()].map(([round, cells]) => {
      const current = round === v.round && !v.result;
      return h('tr', {class: current ? 'current' : ''}, h('td', {}, round),
        ...Array.from({length: players}, (_, p) => {
          const r = cells.get(p);
          if (!r) return h('td', {}, '');
          const parts = [];
          if (r.handicap) parts.push(`handicap +${r.handicap}`);
          for (const e of r.entries) parts.push(`${e.entry} +${e.points}${e.corrected ? ' (corrected)' : ''}`);
          if (r.bonus) parts.push(`bonus +${r.bonus}`);
          if (r.penalty) parts.push(`errors −${r.penalty}`);
          if (r.grid_full) parts.push(`grid full +${r.grid_full}`);
          for (const e of r.errors) parts.push(`error ${e}`);
          if (r.timeout) parts.push('time ran out');
          const text = r.status === 'waiting' ? '·' : String(r.total);
          return h('td', {class: r.status === 'playing' ? 'playing' : '', title: parts.join(', ')},
            text);
        }));
    });
    sheet.replaceChildren(h('table', {}, h('thead', {}, head), h('tbody', {}, ...body)));
    const sc = sheet.querySelector('tr.current');
    if (sc) scrollWithin(sheet, sc);
    const errs = v.errors || [];
    errors.replaceChildren(...(errs.length ? errs.map((e) => h('li', {},
      `${name(e.player)}: ${e.digit} at ${e.cell} was wrong (round ${e.round})`))
      : [h('li', {class: 'muted'}, 'none yet')]));
  }

  return {
    el: grid.el,
    side,
    grid,
    update(v, i = {}) {
      view = v;
      info = i;
      if (hinted && hinted.ply !== v.ply) {
        hinted = null;
        hintNote.hidden = true;
      }
      hintBtn.hidden = !(v.options?.aids && info.canPlay);
      draw(grid, v, hinted);
      renderSide(v);
      renderPad();
      tick();
    },
    destroy() { clearTimeout(timer); stopPlacing(); },
    whyNot: (v, move) => {
      const i = cellIndex(move);
      if (i < 0) return null;
      const cell = v.cells[i];
      const at = move.split('=')[0];
      if (cell) return `${at} is already filled${cell.player === null ? ' (a given)' : ''}`;
      if (v.required_cell && v.required_cell !== at) {
        return `${at}: first correct the error at ${v.required_cell}`;
      }
      return null;
    },
    describeMove: (v, move) => move,
    statusDetail: (v) => (v.result || v.to_move === null ? ''
      : `${v.entries_left} entr${v.entries_left === 1 ? 'y' : 'ies'} left`),
  };
}

function draw(grid, v, hinted = null) {
  const last = v.last_move && /^r\dc\d/.test(v.last_move) ? cellIndex(v.last_move) : -1;
  const wrong = new Map();
  for (const e of v.errors || []) {
    const i = cellIndex(e.cell);
    if (!wrong.has(i)) wrong.set(i, []);
    wrong.get(i).push(e.digit);
  }
  const required = v.required_cell ? cellIndex(v.required_cell) : -1;
  grid.clearLayers();
  grid.drawLines(grid.over);
  grid.cells.forEach((el, i) => {
    const cell = v.cells[i];
    const name = cellName(i);
    el.className = 'cell';
    if (i === grid.selected) el.classList.add('is-selected');
    el.style.removeProperty('--seat');
    el.removeAttribute('data-seat');
    const parts = [];
    let label;
    if (cell && cell.player === null) {
      el.classList.add('given');
      parts.push(String(cell.value));
      label = `${name}: given ${cell.value}`;
    } else if (cell) {
      el.classList.add('entry');
      el.style.setProperty('--seat', `var(--seat-${cell.player % 5})`);
      parts.push(String(cell.value));
      el.dataset.seat = String(cell.player + 1);
      label = `${name}: ${cell.value}, entered by player ${cell.player + 1}`;
    } else {
      label = `${name}: empty`;
      if (wrong.has(i)) {
        parts.push(h('span', {class: 'wrong', 'aria-hidden': 'true'}, wrong.get(i).join('')));
        label += `; wrong entries here: ${wrong.get(i).join(', ')}`;
      }
      if (required >= 0 && required !== i && v.to_move !== null) el.classList.add('is-blocked');
    }
    if (i === required) {
      el.classList.add('required');
      label += '; the error must be corrected here';
    }
    if (i === last && cell) {
      el.classList.add('is-last');
      label += ', the last entry';
    }
    if (hinted?.cells.has(name)) {
      el.classList.add('is-hinted');
      if (hinted.targets.has(name)) el.classList.add('hint-target');
      label += hinted.targets.has(name) ? '; the hint is about this cell' : '; part of the hint';
    }
    el.replaceChildren(...parts);
    el.setAttribute('aria-label', label);
  });
}
