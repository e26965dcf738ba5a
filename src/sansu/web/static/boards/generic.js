// Fallback board for a game that has no board module yet: its cells as a
// square grid of numbers and marks, and a box to type any move's text.

import {Grid, cellName, h, installStyle} from '../js/kit.js';

export const meta = {
  id: 'generic',
  title: 'Game',
  pitch: '',
  playerName: (p) => `Player ${p + 1}`,
  playerColour: (p) => `var(--seat-${p % 5})`,
};

const CSS = `
.gen .cell[data-player="0"] { color: var(--seat-0); font-weight: 700; }
.gen .cell[data-player="1"] { color: var(--seat-1); font-weight: 700; }
.gen-side form { display: flex; gap: .4rem; }
.gen-side input { flex: 1; min-width: 0; }
`;

export function createBoard(ctx) {
  installStyle('generic', CSS);
  let grid = null;
  const wrap = h('div');
  const input = h('input', {type: 'text', class: 'wide', 'aria-label': 'Move', placeholder: 'e.g. r1c1'});
  const side = h('div', {class: 'gen-side panel'}, h('h3', {}, 'Move'),
    h('form', {onsubmit: (e) => {
      e.preventDefault();
      if (input.value.trim()) ctx.propose(input.value.trim());
      input.value = '';
    }}, input, h('button', {class: 'btn', type: 'submit'}, 'Play')));
  return {
    el: wrap,
    side,
    get grid() { return grid; },
    update(v) {
      const n = (v.cells || []).length;
      const cols = v.cols || Math.max(1, Math.round(Math.sqrt(n)));
      const rows = v.rows || Math.max(1, Math.ceil(n / cols));
      if (!grid || grid.cols !== cols || grid.rows !== rows) {
        grid = new Grid({rows, cols, label: 'Board', className: 'gen'});
        grid.onActivate = (i, key) => ctx.propose(typeof key === 'number'
          ? `${cellName(i, cols)}=${key}` : cellName(i, cols));
        wrap.replaceChildren(grid.el);
      }
      grid.clearLayers();
      grid.drawLines(grid.over, {box: 0});
      grid.cells.forEach((el, i) => {
        const cell = v.cells[i];
        el.textContent = cell ? (cell.value ?? '●') : '';
        if (cell && cell.player !== null) el.dataset.player = cell.player;
        else el.removeAttribute('data-player');
        el.setAttribute('aria-label', `${cellName(i, cols)}: ${cell
          ? `${cell.value ?? 'mark'}${cell.player !== null ? ` of player ${cell.player + 1}` : ''}`
          : 'empty'}`);
      });
    },
    describeMove: (v, move) => move,
    statusDetail: () => '',
  };
}
