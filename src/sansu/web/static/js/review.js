// The post-game review: one click asks the server for the engine's review of a game that
// is over, shows its progress, then draws the winning chance after every move as an SVG
// graph with the turning points (inaccuracy, mistake, blunder) marked; a point, clicked
// or chosen with the keyboard, shows the position after that move on the board.

import {api} from './api.js';
import {h, s} from './kit.js';

const W = 320;
const H = 120;
const PAD = 6;
const POLL_MS = 600;
const MARKS = {inaccuracy: '?!', mistake: '?', blunder: '??'};

/** Player 0's winning chance in a position (the mover's where nothing else is known). */
function chanceOf(position) {
  if (position.chances) return position.chances[0];
  return position.to_move === 0 || position.to_move === null ? position.chance : 1 - position.chance;
}

/** The graph of a stored review; `jump(n)` shows the position after `n` moves. */
export function reviewGraph(review, jump, playerName) {
  const positions = review.positions;
  const last = Math.max(1, positions.length - 1);
  const x = (ply) => PAD + (ply * (W - 2 * PAD)) / last;
  const y = (chance) => PAD + (1 - chance) * (H - 2 * PAD);
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
  const figure = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'review-graph', role: 'group',
    'aria-label': `Winning chance of ${playerName(0)} after every move`, 'data-testid': 'review-graph'},
  s('rect', {x: '0', y: '0', width: String(W), height: String(H), class: 'review-bg'}),
  s('path', {d: area, class: 'review-area'}),
  s('line', {x1: String(PAD), x2: String(W - PAD), y1: String(H / 2), y2: String(H / 2), class: 'review-mid'}),
  s('path', {d: line, class: 'review-line'}),
  ...points);
  const count = (kind) => review.moves_reviewed.filter((m) => m.judgement === kind).length;
  const summary = h('p', {class: 'muted', style: 'margin:.3rem 0 0;font-size:.85rem'},
    `${count('inaccuracy')} inaccuracies (?!), ${count('mistake')} mistakes (?), `
    + `${count('blunder')} blunders (??); ${review.simulations} simulations per position.`);
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

/** The Review panel of a finished game or imported record (none while it is played). */
export function reviewPanel(id, jump, playerName) {
  const body = h('div', {'aria-live': 'polite', 'data-testid': 'review-status'});
  const button = h('button', {type: 'button', class: 'btn', 'data-action': 'review'}, 'Review');
  const panel = h('div', {class: 'panel review-panel', 'data-testid': 'review'},
    h('h3', {}, 'Review'), body, button);
  const show = (review) => {
    button.remove();
    body.replaceChildren(reviewGraph(review, jump, playerName));
    const links = mistakesLinks(id, review, playerName);
    if (links) body.append(links);
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
