// The post-game review: one click asks the server for the engine's review of a game that
// is over, shows its progress, then draws the winning chance after every move as an SVG
// graph (axes: the chance from 0 to 100%, the moves) with the turning points (inaccuracy,
// mistake, blunder) marked and a legend, and each player's accuracy; a point, clicked or
// chosen with the keyboard, shows the position after that move on the board. The page
// is handed the review too (`onReview`), to mark the move list and the better moves.

import {api} from './api.js';
import {h, s} from './kit.js';

const W = 320;
const H = 132;
const PAD = 6;
const LEFT = 30;    // room for the chance axis's labels
const BOTTOM = 16;  // room for the moves axis's labels
const POLL_MS = 600;
export const MARKS = {inaccuracy: '?!', mistake: '?', blunder: '??'};

/** Player 0's winning chance in a position (the mover's where nothing else is known). */
function chanceOf(position) {
  if (position.chances) return position.chances[0];
  return position.to_move === 0 || position.to_move === null ? position.chance : 1 - position.chance;
}

/** The graph of a stored review; `jump(n)` shows the position after `n` moves. */
export function reviewGraph(review, jump, playerName) {
  const positions = review.positions;
  const last = Math.max(1, positions.length - 1);
  const x = (ply) => LEFT + (ply * (W - LEFT - PAD)) / last;
  const y = (chance) => PAD + (1 - chance) * (H - BOTTOM - PAD);
  const line = positions.map((p, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)},${y(chanceOf(p)).toFixed(1)}`).join(' ');
  const area = `${line} L${x(positions.length - 1).toFixed(1)},${y(0)} L${x(0)},${y(0)} Z`;
  const points = review.moves_reviewed.filter((m) => m.judgement).map((m) => {
    const after = m.ply + 1;
    const label = `Move ${m.number}, ${m.move} by ${playerName(m.player)}: ${m.judgement}`
      + (m.best ? ` (the engine preferred ${m.best})` : '');
    return s('g', {class: `turn ${m.judgement}`, tabindex: '0', role: 'button', 'aria-label': label,
      'data-ply': String(after), 'data-judgement': m.judgement,
      onclick: () => jump(after),
      onkeydown: (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); jump(after); }
      }},
    s('title', {}, label),
    s('circle', {cx: x(after).toFixed(1), cy: y(chanceOf(positions[after])).toFixed(1), r: '5'}));
  });
  // The axes: the chance of the first player (0, 50, 100%) and the moves (a tick every
  // 10 or so).
  const axes = [0, 0.5, 1].map((c) => s('text', {x: String(LEFT - 4), y: (y(c) + 3).toFixed(1),
    class: 'review-axis', 'text-anchor': 'end'}, `${Math.round(c * 100)}%`));
  const step = Math.max(1, Math.ceil(last / 6 / 5) * 5);
  for (let ply = 0; ply <= last; ply += step) {
    axes.push(s('text', {x: x(ply).toFixed(1), y: String(H - 3), class: 'review-axis',
      'text-anchor': 'middle'}, String(ply)));
  }
  const figure = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'review-graph', role: 'group',
    'aria-label': `Winning chance of ${playerName(0)} after every move`, 'data-testid': 'review-graph'},
  s('rect', {x: String(LEFT), y: String(PAD), width: String(W - LEFT - PAD),
    height: String(H - BOTTOM - PAD), class: 'review-bg'}),
  s('path', {d: area, class: 'review-area'}),
  s('line', {x1: String(LEFT), x2: String(W - PAD), y1: y(0.5).toFixed(1), y2: y(0.5).toFixed(1),
    class: 'review-mid'}),
  s('path', {d: line, class: 'review-line'}),
  ...axes,
  ...points);
  const count = (kind) => review.moves_reviewed.filter((m) => m.judgement === kind).length;
  const legend = h('ul', {class: 'review-legend', 'data-testid': 'review-legend'},
    h('li', {}, h('span', {class: 'swatch-line', 'aria-hidden': 'true'}),
      `${playerName(0)}'s winning chance, by move`),
    ...Object.entries(MARKS).map(([kind, mark]) => h('li', {},
      h('span', {class: `swatch-dot ${kind}`, 'aria-hidden': 'true'}),
      `${mark} ${kind}: ${count(kind)}`)));
  const accuracy = Object.entries(review.accuracy || {}).map(([p, a]) => h('li', {
    'data-accuracy': p}, h('strong', {}, `${Math.round(a)}%`), ` accuracy — ${playerName(Number(p))}`));
  const summary = h('div', {class: 'review-summary'},
    accuracy.length ? h('ul', {class: 'review-accuracy', 'data-testid': 'review-accuracy'},
      ...accuracy) : null,
    legend,
    h('p', {class: 'muted', style: 'margin:.3rem 0 0;font-size:.85rem'},
      `${review.simulations} simulations per position.`));
  return h('div', {}, figure, summary);
}

/** Links to a reviewed game's blunders as exercises, one per player who made any (none for
 * Sudoku Challenge, whose hidden solution keeps its positions from being set again). */
function mistakesLinks(id, review, playerName) {
  if (review.game === 'challenge') return null;
  const seats = [...new Set(review.moves_reviewed
    .filter((m) => m.judgement === 'blunder' && m.best && m.best !== m.move)
    .map((m) => m.player))].sort();
  if (!seats.length) return null;
  return h('p', {class: 'mistakes-links', style: 'margin:.4rem 0 0'}, ...seats.flatMap((seat, k) => [
    k ? ' · ' : null,
    h('a', {href: `#/mistakes/${encodeURIComponent(id)}?seat=${seat}`, 'data-testid': `mistakes-${seat}`},
      `Learn from your mistakes (${playerName(seat)})`)]));
}

/** The Review panel of a finished game or imported record (none while it is played);
 *  `onReview(review)` hears of the review once it is there. */
export function reviewPanel(id, jump, playerName, onReview = () => {}) {
  const body = h('div', {'aria-live': 'polite', 'data-testid': 'review-status'});
  const button = h('button', {type: 'button', class: 'btn', 'data-action': 'review'}, 'Review');
  const panel = h('div', {class: 'panel review-panel', 'data-testid': 'review'},
    h('h3', {}, 'Review'), body, button);
  const show = (review) => {
    button.remove();
    body.replaceChildren(reviewGraph(review, jump, playerName));
    const links = mistakesLinks(id, review, playerName);
    if (links) body.append(links);
    onReview(review);
  };
  const poll = async () => {
    let answer;
    try {
      answer = await api.reviewStatus(id);
    } catch (error) {
      body.replaceChildren(h('p', {}, `The review is not available: ${error.message}`));
      button.disabled = false;
      return;
    }
    if (answer.status === 'done') show(answer.review);
    else if (answer.status === 'running') {
      body.replaceChildren(h('p', {}, `The engine is reviewing the game… ${answer.percent}%`));
      if (panel.isConnected) setTimeout(poll, POLL_MS);
    } else {
      body.replaceChildren(h('p', {}, answer.message || 'The review failed.'));
      button.disabled = false;
    }
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    body.replaceChildren(h('p', {}, 'The engine is reviewing the game…'));
    try {
      const answer = await api.review(id);
      if (answer.status === 'done') show(answer.review);
      else setTimeout(poll, POLL_MS);
    } catch (error) {
      body.replaceChildren(h('p', {}, `The review cannot start: ${error.message}`));
      button.disabled = false;
    }
  });
  return panel;
}
