// Diagrams in the rules pages: a fenced block ```diagram … ``` of a few
// `key: value` lines names a position by its game, options and moves, and the
// page draws it with the game's own board module, so a diagram can never show
// something the engine would not play. The syntax (docs/web.md, "Diagrams"):
//
//   game: uttt                    the game id (required)
//   options: {"rows": 4}          the game's options, a JSON object (optional)
//   moves: r5c5, r4c4             the moves from the start, in the game's notation,
//                                 separated by commas (as on the analysis board)
//   highlight: r4c4 r3c3          cells to point at (optional)
//   caption: X sends O …          what the diagram shows (required; inline Markdown)
//   example: seed-routing         the rule text's worked example it shows (optional)
//
// Each diagram becomes a figure with its caption and an "Open on a board" link to
// the analysis board at the same position. The position comes from the server
// (POST /api/positions), which replays the moves through the engine.

import {boardModule} from './games.js';
import {h, installStyle} from './kit.js';

const KEYS = new Set(['game', 'options', 'moves', 'highlight', 'caption', 'example']);
const CELL = /^r(\d{1,2})c(\d{1,2})$/;

/** The diagram described by the lines of `text`; throws an Error saying what is wrong. */
export function parseDiagram(text) {
  const spec = {options: {}, moves: [], highlight: []};
  for (const [k, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^([a-z]+)\s*:\s*(.*)$/.exec(line);
    if (!m || !KEYS.has(m[1])) throw new Error(`line ${k + 1}: expected "key: value" with a key `
      + `among ${[...KEYS].join(', ')}`);
    const [, key, value] = m;
    if (key === 'options') {
      try { spec.options = JSON.parse(value); } catch {
        throw new Error(`line ${k + 1}: the options are not a JSON object`);
      }
      if (!spec.options || typeof spec.options !== 'object' || Array.isArray(spec.options)) {
        throw new Error(`line ${k + 1}: the options are not a JSON object`);
      }
    } else if (key === 'moves') {
      spec.moves = value.split(',').map((x) => x.trim()).filter(Boolean);
    } else if (key === 'highlight') {
      spec.highlight = value.split(/\s+/).filter(Boolean);
    } else {
      spec[key] = value;
    }
  }
  if (!spec.game) throw new Error('the diagram names no game');
  if (!spec.caption) throw new Error('the diagram has no caption');
  const bad = spec.highlight.find((c) => !CELL.test(c));
  if (bad) throw new Error(`highlight: ${bad} is not a cell like r5c5`);
  return spec;
}

/** The analysis board's address for the diagram's position. */
export function analysisLink(spec) {
  const q = new URLSearchParams();
  if (Object.keys(spec.options).length) q.set('options', JSON.stringify(spec.options));
  if (spec.moves.length) q.set('moves', spec.moves.join(','));
  const qs = q.toString();
  return `#/analysis/${encodeURIComponent(spec.game)}${qs ? `?${qs}` : ''}`;
}

const CSS = `
.diagram { margin: 1rem 0; max-width: min(100%, 26rem); display: grid; gap: .45rem; }
.diagram .diagram-board { width: 100%; min-height: 4rem; }
.diagram .diagram-board .board { width: 100%; }
.diagram figcaption { font-size: .95rem; }
.diagram figcaption .open { display: inline-block; margin-top: .2rem; white-space: nowrap; }
.diagram .cell.diagram-mark { outline: max(3px, 1cqw) solid var(--focus);
  outline-offset: calc(-1 * max(3px, 1cqw)); }
.diagram-error { color: var(--win-red); }
`;

/** Draws every diagram figure under `root` that the Markdown left as a placeholder. */
export async function drawDiagrams(root) {
  installStyle('diagrams', CSS);
  const figures = [...root.querySelectorAll('figure.diagram[data-diagram]')];
  await Promise.all(figures.map((fig) => drawOne(fig)));
}

async function drawOne(fig) {
  const host = fig.querySelector('.diagram-board');
  let spec;
  try {
    spec = JSON.parse(fig.dataset.diagram);
    const answer = await position(spec);
    const mod = await boardModule(answer.game);
    const board = mod.createBoard({propose() {}, explain() {},
      playerName: (p) => mod.meta.playerName(p, answer.view)});
    board.update(answer.view, {canPlay: false});
    board.destroy?.();
    board.el.classList.add('static');
    for (const name of spec.highlight) {
      const cell = board.el.querySelector(`[data-cell="${name}"]`);
      if (!cell) throw new Error(`highlight: ${name} is not on the board`);
      cell.classList.add('diagram-mark');
      cell.setAttribute('aria-label', `${cell.getAttribute('aria-label')} (marked)`);
    }
    host.replaceChildren(board.el);
    host.removeAttribute('aria-busy');
    fig.dataset.drawn = String(answer.ply);
  } catch (error) {
    host.replaceChildren(h('p', {class: 'diagram-error', role: 'alert'},
      `This diagram could not be drawn: ${error.message}`));
    host.removeAttribute('aria-busy');
    fig.dataset.drawn = 'error';
  }
}

async function position(spec) {
  const res = await fetch('/api/positions', {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
    body: JSON.stringify({game: spec.game, options: spec.options, moves: spec.moves}),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(data?.error?.message || `the server answered ${res.status}`);
  return data;
}
