// The board gallery (#/gallery): positions drawn side by side, without a
// game behind them. It shows every board's look at a glance and is where
// the browser tests take their screenshots. Positions come from the server
// (one per sample in each board module) or are handed in by a test through
// `window.sansu.showGallery([{title, view, info}])`.

import {boardModule} from './games.js';
import {h} from './kit.js';

export async function renderGallery(main, items) {
  main.replaceChildren(h('h1', {}, 'Board gallery'));
  const grid = h('div', {class: 'gallery'});
  main.append(grid);
  for (const [k, item] of items.entries()) {
    const mod = await boardModule(item.view.game);
    const board = mod.createBoard({
      propose: () => {},
      explain: () => {},
      playerName: (p) => mod.meta.playerName(p, item.view),
    });
    board.update(item.view, {canPlay: false, ...(item.info || {})});
    const fig = h('figure', {'data-gallery-item': k, 'data-game': item.view.game},
      h('figcaption', {}, item.title || item.view.game), board.el);
    if (board.side && item.side !== false) fig.append(board.side);
    grid.append(fig);
  }
}
