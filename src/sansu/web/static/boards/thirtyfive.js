// 35 board: red and blue numbers on a plain grid. Empty squares highlighted
// in a colour are tinted; every square's neighbour sum appears on hover and
// focus (and in the readout beside the board); the squares the last move
// converted flip, those that triggered pulse; squares pushed past 35
// (over-thwarted) or that can no longer reach it (under-thwarted) are marked.

import {DigitPad, Grid, cellIndex, cellName, h, installStyle, placeByWidth} from '../js/kit.js';

const COLOURS = ['Red', 'Blue'];

/** The number on a square, or null (a highlighted empty square is a mark without a value). */
function numberAt(view, i) {
  const cell = view?.cells?.[i];
  return cell && cell.value !== null && cell.value !== undefined ? cell : null;
}

export const meta = {
  id: 'thirtyfive',
  title: '35',
  pitch: 'Write numbers 1–9. When the neighbours of a number add up to exactly 35, '
    + 'they all take its colour. Hold the most squares when the grid is full.',
  playerName: (p) => COLOURS[p] ?? `Player ${p + 1}`,
  playerColour: (p) => ['var(--red)', 'var(--blue)'][p],
};

const CSS = `
.tf .cell { font-weight: 700; font-size: calc(100cqw / var(--cols) * .5); }
.tf .cell[data-colour="0"] { color: var(--red); }
.tf .cell[data-colour="1"] { color: var(--blue); }
.tf .cell.hl-0 { background: var(--red-tint); }
.tf .cell.hl-1 { background: var(--blue-tint); }
.tf .cell.is-last { box-shadow: inset 0 0 0 max(2px, .5cqw) currentColor; }
.tf .cell .sum {
  position: absolute; left: 6%; top: 4%; font-size: .42em; font-weight: 600; color: var(--muted);
  opacity: 0; transition: opacity .12s;
}
.tf.show-sums .cell .sum, .tf .cell:hover .sum, .tf .cell:focus .sum, .tf .cell.is-selected .sum {
  opacity: 1; }
.tf .cell .sum.at35 { color: var(--ok); }
.tf .cell .thwart { position: absolute; right: 6%; bottom: 4%; font-size: .3em; font-weight: 700;
  color: var(--muted); opacity: .7; }
.tf .cell .thwart.over { color: var(--danger); }
.tf .cell.was-converted::before { content: ''; position: absolute; inset: 12%; border-radius: 50%;
  border: max(2px, .45cqw) dotted currentColor; opacity: .8; }
.tf .cell.is-converted .num { display: inline-block; animation: tf-flip .7s ease-in-out 2; }
.tf .cell.is-triggered::after {
  content: ''; position: absolute; inset: 10%; border-radius: 50%; border: 2px solid currentColor;
  animation: tf-pulse 1.1s ease-out 2; opacity: 0;
}
@keyframes tf-flip { 0% { transform: rotateY(0); } 50% { transform: rotateY(90deg); }
  100% { transform: rotateY(0); } }
@keyframes tf-pulse { 0% { transform: scale(.6); opacity: .9; } 100% { transform: scale(1.25); opacity: 0; } }
.tf-side .score { display: flex; gap: 1rem; font-weight: 700; font-size: 1.1rem; }
.tf-side .score .r { color: var(--red); } .tf-side .score .b { color: var(--blue); }
.tf-side .readout { min-height: 3em; font-size: .95rem; }
.tf-side .legend { font-size: .85rem; color: var(--muted); margin: .4rem 0 0; padding-left: 1.1rem; }
`;

export function createBoard(ctx) {
  installStyle('thirtyfive', CSS);
  let grid = null;
  let view = null;
  let armed = null;
  let info = {};
  const wrap = h('div', {class: 'board-wrap'});
  const score = h('div', {class: 'score', 'aria-live': 'off'});
  const readout = h('p', {class: 'readout', 'aria-live': 'polite'});
  const sumsToggle = h('input', {type: 'checkbox', onchange: () => {
    grid?.el.classList.toggle('show-sums', sumsToggle.checked);
  }});
  const pad = new DigitPad({label: 'Number to write', onPick: (d) => pick(d)});
  const padHome = h('div', {});
  const stopPlacing = placeByWidth(pad.el, padHome, ctx.underBoard);  // under the board on a phone
  const side = h('div', {class: 'tf-side panel'},
    h('h3', {}, 'Squares held'), score, padHome,
    h('label', {class: 'choice'}, sumsToggle, 'Show every neighbour sum'),
    readout,
    h('ul', {class: 'legend'},
      h('li', {}, 'small number top-left: the neighbour sum'),
      h('li', {}, '▲ past 35 (over-thwarted), ▼ can no longer reach 35 (under-thwarted)')));

  function pick(d) {
    if (grid && grid.selected >= 0 && !numberAt(view, grid.selected)) {
      ctx.propose(`${cellName(grid.selected, view.cols)}=${d}`);
      return;
    }
    armed = armed === d ? null : d;
    renderPad();
    ctx.explain(armed ? `Now choose an empty square for the ${armed}` : '', 'hint');
  }

  function renderPad() {
    pad.update((d) => ({enabled: !!view && view.to_move !== null && !!info.canPlay,
      pressed: armed === d, label: `write ${d}`}));
  }

  function build(rows, cols) {
    grid = new Grid({rows, cols, label: '35 board', className: 'tf'});
    grid.el.classList.toggle('show-sums', sumsToggle.checked);
    grid.onActivate = (i, key) => {
      if (!view) return;
      const name = cellName(i, cols);
      if (typeof key === 'number') {
        ctx.propose(`${name}=${key}`);
      } else if (key === null && armed && !numberAt(view, i)) {
        ctx.propose(`${name}=${armed}`);
      } else if (key === null && !numberAt(view, i)) {
        ctx.explain(`${name}: type a number 1–9, or pick one below`, 'hint');
      }
    };
    grid.onSelect = (i) => describeSquare(i);
    grid.field.addEventListener('pointerover', (e) => {
      const cell = e.target.closest('.cell');
      if (cell) describeSquare(Number(cell.dataset.index));
    });
    wrap.replaceChildren(grid.el);
  }

  function describeSquare(i) {
    if (!view || i < 0) return;
    const sums = view.sums || [];
    const sum = sums[i] ?? 0;
    const name = cellName(i, view.cols);
    const cell = numberAt(view, i);
    let text = `${name}: neighbour sum ${sum}`;
    if (sum === 35) text += ' — exactly 35';
    else if (sum < 35) text += ` — ${35 - sum} short of 35`;
    else text += ' — past 35, it can never trigger';
    if (cell) text = `${COLOURS[cell.player]} ${cell.value} at ${text}`;
    readout.textContent = text;
  }

  return {
    el: wrap,
    side,
    destroy() { stopPlacing(); },
    get grid() { return grid; },
    update(v, i = {}) {
      view = v;
      info = i;
      if (!grid || grid.rows !== v.rows || grid.cols !== v.cols) build(v.rows, v.cols);
      draw(grid, v);
      const [r, b] = v.scores || [0, 0];
      score.replaceChildren(h('span', {class: 'r'}, `Red ${r}`), h('span', {class: 'b'}, `Blue ${b}`));
      renderPad();
      if (grid.selected >= 0) describeSquare(grid.selected);
    },
    whyNot: (v, move) => {
      const i = cellIndex(move, v.cols);
      if (i < 0 || i >= v.cells.length) return null;
      const cell = numberAt(v, i);
      return cell ? `${move.split('=')[0]} already holds a ${COLOURS[cell.player].toLowerCase()} `
        + `${cell.value}` : null;
    },
    describeMove: (v, move) => describe(v, move),
    statusDetail: () => '',
  };
}

function describe(v, move) {
  const i = cellIndex(move, v?.cols || 8);
  const cell = numberAt(v, i);
  if (!cell) return move;
  let text = `${COLOURS[cell.player]} ${cell.value} at ${move.split('=')[0]}`;
  const n = (v.converted || []).length;
  if (v.cancelled) text += ' — both colours reached 35, nothing changes';
  else if (n) text += ` — converts ${n} square${n > 1 ? 's' : ''}`;
  return text;
}

function draw(grid, v) {
  const cols = v.cols;
  const last = v.last_move ? cellIndex(v.last_move, cols) : -1;
  const converted = new Set((v.converted || []).map((n) => cellIndex(n, cols)));
  const triggered = new Set((v.triggered || []).map((n) => cellIndex(n, cols)));
  // Thwarts say which squares can still reach 35: nothing can once the game is over.
  const live = v.result == null;
  const over = new Set(live ? (v.over || []).map((n) => cellIndex(n, cols)) : []);
  const under = new Set(live ? (v.under || []).map((n) => cellIndex(n, cols)) : []);
  const stamp = String(v.ply);
  grid.clearLayers();
  grid.drawLines(grid.over, {box: 0, thin: 0.03, thick: 0.07});
  grid.cells.forEach((el, i) => {
    const cell = numberAt(v, i);
    const name = cellName(i, cols);
    const sum = (v.sums || [])[i] ?? 0;
    const hl = (v.highlights || [])[i];
    el.className = 'cell';
    if (i === grid.selected) el.classList.add('is-selected');
    el.removeAttribute('data-colour');
    const parts = [];
    const sumEl = h('span', {class: `sum${sum === 35 ? ' at35' : ''}`, 'aria-hidden': 'true'}, sum);
    parts.push(sumEl);
    let label;
    if (cell) {
      el.dataset.colour = cell.player;
      parts.push(h('span', {class: 'num'}, cell.value));
      label = `${name}: ${COLOURS[cell.player].toLowerCase()} ${cell.value}`;
      if (i === last) {
        el.classList.add('is-last');
        label += ', the last move';
      }
      // Animate only once per position: the stamp tells a redraw from a new move.
      if (converted.has(i)) {
        el.classList.add('was-converted');
        label += ', just converted';
        if (el.dataset.animated !== stamp) el.classList.add('is-converted');
      }
      if (triggered.has(i) && el.dataset.animated !== stamp) el.classList.add('is-triggered');
    } else {
      label = `${name}: empty`;
      if (hl === 0 || hl === 1) {
        el.classList.add(`hl-${hl}`);
        label += `, highlighted ${COLOURS[hl].toLowerCase()}`;
      }
    }
    if (over.has(i)) {
      parts.push(h('span', {class: 'thwart over', 'aria-hidden': 'true'}, '▲'));
      label += ', past 35';
    } else if (under.has(i)) {
      parts.push(h('span', {class: 'thwart under', 'aria-hidden': 'true'}, '▼'));
      label += ', cannot reach 35';
    }
    label += `; neighbour sum ${sum}`;
    el.replaceChildren(...parts);
    el.setAttribute('aria-label', label);
  });
  // Remember which position the animations belong to, after they have been started.
  requestAnimationFrame(() => grid.cells.forEach((el) => { el.dataset.animated = stamp; }));
}
