// Ultimate Tic-Tac-Toe board: nine small tic-tac-toe boards inside a big
// one. X and O marks; the section(s) where the next move must go are
// highlighted; a won section shows its winner's big mark; the game's winning
// line is drawn across the big board.

import {Grid, SECTION_NAMES, cellIndex, cellName, installStyle, movesByCell, s, sectionOf}
  from '../js/kit.js';

const MARKS = ['X', 'O'];

export const meta = {
  id: 'uttt',
  title: 'Ultimate Tic-Tac-Toe',
  pitch: 'Nine games of noughts and crosses in one: where you play decides where your '
    + 'opponent must play next. Win three boards in a row.',
  playerName: (p) => MARKS[p] ?? `Player ${p + 1}`,
  playerColour: (p) => ['var(--x-colour)', 'var(--o-colour)'][p],
};

const CSS = `
.ut .cell svg { width: 62%; height: 62%; overflow: visible; }
.ut .cell .mark { fill: none; stroke-width: 1.7; stroke-linecap: round; }
.ut .cell[data-player="0"] .mark { stroke: var(--x-colour); }
.ut .cell[data-player="1"] .mark { stroke: var(--o-colour); }
.ut .cell.is-open:hover .ghost, .ut .cell.is-open.is-selected .ghost { opacity: .35; }
.ut .cell .ghost { opacity: 0; }
.ut .cell.is-last { background: color-mix(in srgb, var(--focus) 22%, transparent); }
.ut .cell.is-dim .mark { opacity: .3; }
.ut .allowed { fill: var(--allowed-tint); }
.ut .won-0 { fill: var(--x-tint); }
.ut .won-1 { fill: var(--o-tint); }
.ut .full { fill: var(--closed-tint); }
.ut .small-lines line { stroke: var(--grid-thin); stroke-width: .06; stroke-linecap: round; }
.ut .big-lines line { stroke: var(--grid-thick); stroke-width: .09; stroke-linecap: round; }
.ut .big-mark { fill: none; stroke-width: .32; stroke-linecap: round; opacity: .9; }
.ut .big-mark.p0 { stroke: var(--x-colour); }
.ut .big-mark.p1 { stroke: var(--o-colour); }
.ut .win-line { stroke: var(--win-red); stroke-width: .3; stroke-linecap: round; opacity: .85; }
`;

function markSvg(player, ghost = false) {
  const cls = `mark${ghost ? ' ghost' : ''}`;
  const shape = player === 0
    ? s('path', {class: cls, d: 'M2 2 L8 8 M8 2 L2 8'})
    : s('circle', {class: cls, cx: 5, cy: 5, r: 3.3});
  return s('svg', {viewBox: '0 0 10 10', 'aria-hidden': 'true'}, shape);
}

export function createBoard(ctx) {
  installStyle('uttt', CSS);
  const grid = new Grid({rows: 9, cols: 9, label: 'Ultimate Tic-Tac-Toe board', className: 'ut'});
  let view = null;
  grid.onActivate = (i, key) => {
    if (!view || key === 'erase') return;
    ctx.propose(cellName(i));
  };
  return {
    el: grid.el,
    grid,
    update(v, info) {
      view = v;
      draw(grid, v, !!info?.canPlay);
    },
    whyNot: (v, move) => whyNot(v, move),
    describeMove: (v, move) => {
      const cell = v?.cells?.[cellIndex(move)];
      return cell ? `${MARKS[cell.player]} at ${move}` : move;
    },
    statusDetail: (v) => {
      if (v.result || v.to_move === null) return '';
      const allowed = v.allowed_sections || [];
      if (allowed.length === 1) return `in the ${SECTION_NAMES[allowed[0]]} board`;
      return 'anywhere open';
    },
  };
}

function whyNot(v, move) {
  const i = cellIndex(move);
  if (i < 0) return null;
  const cell = v.cells[i];
  if (cell) return `${move} already holds an ${MARKS[cell.player]}`;
  const sec = sectionOf(i);
  if (v.sections?.[sec]?.closed) {
    return `${move}: the ${SECTION_NAMES[sec]} board is ${v.sections[sec].owner === null
      ? 'full' : 'already won'}`;
  }
  const allowed = v.allowed_sections || [];
  if (allowed.length === 1 && allowed[0] !== sec) {
    return `${move}: the last move sends you to the ${SECTION_NAMES[allowed[0]]} board`;
  }
  return null;
}

function drawBigMark(layer, k, owner) {
  const cx = (k % 3) * 3 + 1.5, cy = Math.floor(k / 3) * 3 + 1.5;
  if (owner === 0) {
    const d = 0.95;
    layer.append(s('path', {class: 'big-mark p0',
      d: `M${cx - d} ${cy - d} L${cx + d} ${cy + d} M${cx + d} ${cy - d} L${cx - d} ${cy + d}`}));
  } else {
    layer.append(s('circle', {class: 'big-mark p1', cx, cy, r: 1.05}));
  }
}

// `canPlay`: the viewer is to move; only then do open cells show a ghost of the mark
// (never the opponent's mark under the viewer's pointer).
function draw(grid, v, canPlay) {
  const legal = movesByCell(v);
  const last = v.last_move ? cellIndex(v.last_move) : -1;
  const sections = v.sections || [];
  const allowed = new Set(v.result ? [] : v.allowed_sections || []);
  grid.clearLayers();
  sections.forEach((sec, k) => {
    const x = (k % 3) * 3, y = Math.floor(k / 3) * 3;
    let cls = null;
    if (sec.owner === 0 || sec.owner === 1) cls = `won-${sec.owner}`;
    else if (sec.closed) cls = 'full';
    else if (allowed.has(k) && allowed.size < 9) cls = 'allowed';
    if (cls) {
      grid.under.append(s('rect', {x: x + 0.12, y: y + 0.12, width: 2.76, height: 2.76,
        rx: 0.18, class: cls}));
    }
  });
  // Small boards' lines stop short of their edges; the big board's lines divide them.
  const small = s('g', {class: 'small-lines'});
  for (let k = 0; k < 9; k++) {
    const x = (k % 3) * 3, y = Math.floor(k / 3) * 3;
    for (const t of [1, 2]) {
      small.append(s('line', {x1: x + t, y1: y + 0.25, x2: x + t, y2: y + 2.75}));
      small.append(s('line', {x1: x + 0.25, y1: y + t, x2: x + 2.75, y2: y + t}));
    }
  }
  grid.over.append(small);
  const big = s('g', {class: 'big-lines'});
  for (const t of [3, 6]) {
    big.append(s('line', {x1: t, y1: 0.05, x2: t, y2: 8.95}));
    big.append(s('line', {x1: 0.05, y1: t, x2: 8.95, y2: t}));
  }
  grid.over.append(big);
  sections.forEach((sec, k) => {
    if (sec.owner === 0 || sec.owner === 1) drawBigMark(grid.over, k, sec.owner);
  });
  if (v.winning_line) {
    const [a, , c] = v.winning_line;
    const ax = (a % 3) * 3 + 1.5, ay = Math.floor(a / 3) * 3 + 1.5;
    const cx = (c % 3) * 3 + 1.5, cy = Math.floor(c / 3) * 3 + 1.5;
    const dx = cx - ax, dy = cy - ay, len = Math.hypot(dx, dy), ext = 1.1;
    grid.over.append(s('line', {class: 'win-line', x1: ax - (dx / len) * ext,
      y1: ay - (dy / len) * ext, x2: cx + (dx / len) * ext, y2: cy + (dy / len) * ext}));
  }
  grid.cells.forEach((el, i) => {
    const cell = v.cells[i];
    const name = cellName(i);
    const sec = sectionOf(i);
    const owner = sections[sec]?.owner;
    const open = legal.has(name);
    el.classList.toggle('is-last', i === last);
    el.classList.toggle('is-open', open);
    el.classList.toggle('is-dim', owner === 0 || owner === 1);
    el.replaceChildren();
    el.removeAttribute('data-player');
    let label;
    if (cell) {
      el.dataset.player = cell.player;
      el.append(markSvg(cell.player));
      label = `${name}: ${MARKS[cell.player]}${i === last ? ', the last move' : ''}`;
    } else if (open) {
      el.dataset.player = v.to_move;
      if (canPlay) el.append(markSvg(v.to_move, true));
      label = `${name}: empty, open for ${MARKS[v.to_move]}`;
    } else {
      label = `${name}: empty`;
    }
    label += `, ${SECTION_NAMES[sec]} board`;
    if (owner === 0 || owner === 1) label += ` (won by ${MARKS[owner]})`;
    el.setAttribute('aria-label', label);
  });
}
