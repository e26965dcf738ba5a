// Sansumoku board: a Sudoku grid of nine sections. Blue and orange digits;
// every open cell shows, in the light colour of the player to move, the digit
// that must be played there (except when every cell is open, at the first
// move: then the status line says so in words); the most recent move is highlighted in the
// mover's colour; won sections are tinted in the winner's colour, those won
// by constraint carry a greyed circle; the winning line is a heavy red stripe.

import {Grid, SECTION_NAMES, cellIndex, cellName, installStyle, movesByCell, s, sectionOf}
  from '../js/kit.js';

const COLOURS = ['Blue', 'Orange'];

export const meta = {
  id: 'sansumoku',
  title: 'Sansumoku',
  pitch: 'Ultimate Tic-Tac-Toe with Sudoku digits: three in a row wins a section, '
    + 'three sections in a row win the game — and the digits can leave your opponent nowhere to go.',
  playerName: (p) => COLOURS[p] ?? `Player ${p + 1}`,
  playerColour: (p) => ['var(--sm-blue)', 'var(--sm-orange)'][p],
};

const CSS = `
.sm { --hint-0: var(--sm-blue-hint); --hint-1: var(--sm-orange-hint); }
.sm .cell { font-weight: 700; }
.sm .cell[data-player="0"] { color: var(--sm-blue); }
.sm .cell[data-player="1"] { color: var(--sm-orange); }
.sm .cell.is-open { font-weight: 500; }
.sm .cell.is-open[data-hint="0"] { color: var(--sm-blue-hint); }
.sm .cell.is-open[data-hint="1"] { color: var(--sm-orange-hint); }
.sm .cell.is-last[data-player="0"] { background: var(--sm-blue); color: #fff; }
.sm .cell.is-last[data-player="1"] { background: var(--sm-orange); color: #fff; }
.sm .won-0 { fill: var(--sm-blue-tint); }
.sm .won-1 { fill: var(--sm-orange-tint); }
.sm .full { fill: var(--closed-tint); }
.sm .allowed { fill: none; stroke-width: .08; stroke-dasharray: .22 .12; }
.sm .allowed[data-player="0"] { stroke: var(--sm-blue); }
.sm .allowed[data-player="1"] { stroke: var(--sm-orange); }
.sm .constraint-ring { fill: none; stroke: var(--constraint-grey); stroke-width: .16; opacity: .75; }
.sm .win-stripe { stroke: var(--win-red); stroke-width: .16; stroke-linecap: round; opacity: .6; }
`;

export function createBoard(ctx) {
  installStyle('sansumoku', CSS);
  const grid = new Grid({rows: 9, cols: 9, label: 'Sansumoku board', className: 'sm sudoku-like'});
  let view = null;

  grid.onActivate = (i, key) => {
    if (!view) return;
    const name = cellName(i);
    const section = sectionOf(i);
    const next = view.sections?.[section]?.next_digit;
    if (typeof key === 'number' && next && key !== next && view.to_move !== null
      && !view.cells[i]) {
      ctx.explain(`${name}: the next digit in the ${SECTION_NAMES[section]} section is ${next}, `
        + 'not your choice — press Enter to play it');
      return;
    }
    if (key === 'erase') return;
    ctx.propose(name);
  };

  return {
    el: grid.el,
    grid,
    update(v) {
      view = v;
      draw(grid, v);
    },
    whyNot: (v, move) => whyNot(v, move),
    describeMove: (v, move) => describe(v, move),
    statusDetail: (v) => detail(v),
  };
}

/**
 * The digit every empty cell would take when all of them are open to the player
 * to move with the same digit (the first move: a 1 anywhere), else null.
 */
function sameEverywhere(v, legal) {
  if (!legal.size || legal.size !== v.cells.filter((c) => !c).length) return null;
  const digits = new Set((v.allowed_sections || []).map((k) => v.sections?.[k]?.next_digit));
  return digits.size === 1 ? [...digits][0] ?? null : null;
}

function detail(v) {
  if (v.result || v.to_move === null) return '';
  const allowed = v.allowed_sections || [];
  const everywhere = sameEverywhere(v, movesByCell(v));
  if (everywhere !== null) {
    return `play anywhere: ${v.ply ? 'the' : 'the first'} digit, a ${everywhere}, may go in any cell`;
  }
  if (v.wildcard || allowed.length > 1) {
    return 'wildcard: play in any open section';
  }
  const s0 = allowed[0];
  const d = v.sections?.[s0]?.next_digit;
  return `must play ${d === undefined ? '' : `a ${d} `}in the ${SECTION_NAMES[s0]} section`;
}

function describe(v, move) {
  const i = cellIndex(move);
  const cell = v?.cells?.[i];
  if (!cell) return move;
  return `${COLOURS[cell.player] ?? ''} ${cell.value} at ${move}`.trim();
}

function whyNot(v, move) {
  const i = cellIndex(move);
  if (i < 0) return null;
  const cell = v.cells[i];
  if (cell) return `${move} already holds ${COLOURS[cell.player].toLowerCase()} ${cell.value}`;
  const sec = sectionOf(i);
  const info = v.sections?.[sec];
  if (info?.closed) {
    return `${move}: the ${SECTION_NAMES[sec]} section is ${info.owner === null ? 'full' : 'won'}`;
  }
  const allowed = v.allowed_sections || [];
  if (!allowed.includes(sec)) {
    return `${move}: the move must go in the ${SECTION_NAMES[allowed[0]]} section`;
  }
  return null;  // a Sudoku clash: the server's referee says which digit blocks it
}

function draw(grid, v) {
  const legal = movesByCell(v);
  // When every empty cell is open (the first move) a digit in each would only
  // repeat the status line: the board stays clean.
  const quiet = sameEverywhere(v, legal) !== null;
  const last = v.last_move ? cellIndex(v.last_move) : -1;
  const mover = v.to_move;
  grid.clearLayers();
  const sections = v.sections || [];
  // Under the cells: tints of won and full sections, the allowed sections' frame.
  sections.forEach((sec, k) => {
    const x = (k % 3) * 3, y = Math.floor(k / 3) * 3;
    if (sec.owner === 0 || sec.owner === 1) {
      grid.under.append(s('rect', {x, y, width: 3, height: 3, class: `won-${sec.owner}`}));
    } else if (sec.closed) {
      grid.under.append(s('rect', {x, y, width: 3, height: 3, class: 'full'}));
    }
  });
  grid.drawLines(grid.over);
  const allowed = v.allowed_sections || [];
  if (!v.result && mover !== null && allowed.length && allowed.length < 9) {
    for (const k of allowed) {
      grid.over.append(s('rect', {x: (k % 3) * 3 + 0.1, y: Math.floor(k / 3) * 3 + 0.1,
        width: 2.8, height: 2.8, rx: 0.12, class: 'allowed', 'data-player': mover}));
    }
  }
  sections.forEach((sec, k) => {
    if (sec.by_constraint) {
      grid.over.append(s('circle', {cx: (k % 3) * 3 + 1.5, cy: Math.floor(k / 3) * 3 + 1.5,
        r: 1.22, class: 'constraint-ring'}));
    }
  });
  if (v.winning_line) {
    const [a, , c] = v.winning_line;
    const ax = (a % 3) * 3 + 1.5, ay = Math.floor(a / 3) * 3 + 1.5;
    const cx = (c % 3) * 3 + 1.5, cy = Math.floor(c / 3) * 3 + 1.5;
    const dx = cx - ax, dy = cy - ay, len = Math.hypot(dx, dy);
    const ext = 1.2;
    // Under the cells, translucent: the digits it crosses stay readable.
    grid.under.append(s('line', {class: 'win-stripe',
      x1: ax - (dx / len) * ext, y1: ay - (dy / len) * ext,
      x2: cx + (dx / len) * ext, y2: cy + (dy / len) * ext}));
  }
  grid.cells.forEach((el, i) => {
    const cell = v.cells[i];
    const name = cellName(i);
    const sec = sectionOf(i);
    const where = `${SECTION_NAMES[sec]} section`;
    el.classList.toggle('is-last', i === last);
    el.classList.remove('is-open');
    el.removeAttribute('data-hint');
    el.removeAttribute('data-player');
    if (cell) {
      el.textContent = String(cell.value);
      el.dataset.player = cell.player;
      el.setAttribute('aria-label', `${name}, ${where}: ${COLOURS[cell.player].toLowerCase()} `
        + `${cell.value}${i === last ? ', the last move' : ''}`);
    } else if (legal.has(name)) {
      const d = sections[sec]?.next_digit;
      el.textContent = quiet ? '' : String(d);
      el.classList.add('is-open');
      el.dataset.hint = mover;
      el.setAttribute('aria-label', `${name}, ${where}: open, ${COLOURS[mover]} may play a ${d}`);
    } else {
      el.textContent = '';
      el.setAttribute('aria-label', `${name}, ${where}: empty`);
    }
    const owner = sections[sec]?.owner;
    if (owner === 0 || owner === 1) {
      el.setAttribute('aria-label', `${el.getAttribute('aria-label')}; section won by `
        + `${COLOURS[owner]}${sections[sec].by_constraint ? ' by constraint' : ''}`);
    }
  });
}

