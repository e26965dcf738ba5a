// Sumodoku board: coloured pieces on a Sudoku grid. Each colour is also a
// digit, printed on the piece, so the board reads without colour vision.
// Beside the board: each player's pieces left, the colour picker, the
// "Sudoku!" claim button (only when a claim is allowed) with the claim's
// countdown, and the honour variant's challenge button and report control (a
// report is open to anyone watching, players and spectators). Variant marks:
// long diagonals, odd (circle) and even (square) shading, consecutive bars.
// The text forbids aids, so the open cells and the colours that fit are shown
// only in a game created with `aids` on, where a Hint button asks the server
// which colours fit the selected cell. The pad shows the pieces of the seat
// this page holds (none for a spectator), and sits under the board on a phone
// with the claim button, which asks before claiming: a claim cannot be undone.

import {confirmDialog} from '../js/dialog.js';
import {DigitPad, Grid, cellIndex, cellName, clockText, h, installStyle, ordinal, placeByWidth, s}
  from '../js/kit.js';

export const meta = {
  id: 'sumodoku',
  title: 'Sumodoku',
  pitch: 'Two players build one Sudoku out of coloured pieces. Place all yours, leave your '
    + 'opponent without a move, or shout "Sudoku!" and finish the grid alone.',
  playerName: (p) => ['First player', 'Second player'][p] ?? `Player ${p + 1}`,
  playerColour: (p) => ['var(--fg)', 'var(--muted)'][p],
};

const CSS = `
.sd .cell .piece {
  width: 80%; height: 80%; border-radius: 50%; display: grid; place-items: center;
  background: var(--pc); color: var(--pc-fg); font-weight: 800; font-size: calc(100cqw / 9 * .46);
  box-shadow: inset 0 -2px 0 rgb(0 0 0 / .18);
}
.sd .cell .piece.claim { box-shadow: inset 0 0 0 max(2px, .4cqw) var(--bg); }
.sd .cell.is-last .piece { animation: sd-drop .35s ease-out; }
.sd .cell.is-last::before { content: ''; position: absolute; inset: 4%; border-radius: 6px;
  border: max(2px, .5cqw) solid var(--focus); }
.sd .cell .hole { width: 50%; height: 50%; border-radius: 50%; border: 2px dashed var(--muted); }
.sd .cell.is-open:hover { background: color-mix(in srgb, var(--accent) 12%, transparent); }
.sd .odd, .sd .even { fill: color-mix(in srgb, var(--grid-thin) 38%, transparent); }
.sd .diag { stroke: var(--grid-thin); stroke-width: .06; stroke-dasharray: .15 .1; }
.sd .bar { fill: var(--board-bg); stroke: var(--grid-thick); stroke-width: .035; }
@keyframes sd-drop { from { transform: scale(.4); opacity: .3; } to { transform: scale(1); opacity: 1; } }
.sd-side .hands { display: grid; gap: .5rem; }
.sd-side .hand { display: flex; flex-wrap: wrap; gap: .25rem; align-items: center; }
.sd-side .hand .who { width: 100%; font-size: .9rem; color: var(--muted); }
.sd-side .chip { display: inline-grid; place-items: center; min-width: 2.1rem; height: 2.1rem;
  border-radius: 50%; background: var(--pc); color: var(--pc-fg); font-weight: 800; position: relative;
  font-size: .95rem; }
.sd-side .chip .n { position: absolute; right: -.35rem; bottom: -.3rem; background: var(--surface);
  color: var(--fg); border: 1px solid var(--border); border-radius: 1rem; font-size: .7rem;
  padding: 0 .25rem; font-weight: 700; }
.sd-side .chip.empty { opacity: .25; }
.sd-pad h3 { margin: .8rem 0 .5rem; }
.sd-pad .digit-pad { grid-template-columns: repeat(5, minmax(0, 1fr)); gap: .4rem; }
.sd-pad .pad-key { aspect-ratio: auto; min-height: 3.6rem; display: flex; flex-direction: column;
  align-items: center; justify-content: center; gap: .15rem; padding: .2rem 0; }
.sd-pad .pad-key .piece-key { width: 2.1rem; height: 2.1rem; border-radius: 50%; display: grid;
  place-items: center; background: var(--pc); color: var(--pc-fg); font-size: 1.15rem; }
.sd-pad .pad-key .count { position: static; font-size: .72rem; line-height: 1; }
.under-board .sd-pad { width: 100%; }
.under-board .sd-pad h3 { display: none; }
.under-board .sd-pad .digit-pad { grid-template-columns: repeat(9, minmax(0, 1fr)); gap: .2rem; }
.under-board .sd-pad .pad-key { min-height: 3.1rem; border-radius: 8px; }
.under-board .sd-pad .pad-key .piece-key { width: min(2rem, 8vw); height: min(2rem, 8vw);
  font-size: 1rem; }
.sd-side .actions { display: flex; gap: .5rem; flex-wrap: wrap; margin-top: .6rem; }
.sd-pad .claim-row { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.sd-pad .claim-row:has(> :not([hidden])) { margin: 0 0 .5rem; }
.claim-btn { font-weight: 800; }
.claim-btn.urgent { font-size: 1.15rem; min-height: 3rem; width: 100%;
  box-shadow: 0 0 0 3px var(--focus); }
.sd .cell.is-dead { background: color-mix(in srgb, var(--danger) 24%, transparent); }
.sd .cell.is-dead::after { content: ''; position: absolute; inset: 6%; border-radius: 6px;
  border: max(2px, .5cqw) dashed var(--danger); }

.sd-side .report-btn[aria-pressed="true"] { border-color: var(--focus); font-weight: 700; }
.sd.reporting .cell:has(.piece) { cursor: crosshair; }
.sd-pad .pad-key.is-hinted { outline: 3px solid var(--focus); outline-offset: 1px; }
.sd-pad .hint-row { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap;
  margin-top: .5rem; }
.sd-pad .hint-note { margin: 0; font-size: .95rem; }
.sd-side .countdown { font-size: 1.6rem; font-weight: 800; font-variant-numeric: tabular-nums; }
.sd-side .countdown.low { color: var(--danger); }
.sd-side .claim-note, .sd-side .report-note { font-size: .9rem; color: var(--muted);
  margin: .4rem 0 0; }
`;

function colourVars(colour) {
  return `--pc: var(--c${colour}); --pc-fg: var(--c${colour}-fg)`;
}

export function createBoard(ctx) {
  installStyle('sumodoku', CSS);
  const grid = new Grid({rows: 9, cols: 9, label: 'Sumodoku board', className: 'sd'});
  let view = null;
  let info = {};
  let armed = null;
  let reporting = false;
  let timer = null;
  let hinted = null;  // {ply, colours}: the last hint, until the position changes

  const hands = h('div', {class: 'hands'});
  const pad = new DigitPad({label: 'Colour to place', onPick: (d) => pick(d)});
  const claimBtn = h('button', {type: 'button', class: 'btn primary claim-btn', hidden: true,
    onclick: () => confirmClaim()}, 'Sudoku!');
  const eraseBtn = h('button', {type: 'button', class: 'btn', hidden: true, 'data-action': 'erase',
    onclick: () => ctx.propose(`erase ${cellName(grid.selected)}`)}, 'Take back this piece');
  const challengeBtn = h('button', {type: 'button', class: 'btn', hidden: true,
    onclick: () => ctx.propose('challenge')}, 'Challenge: the board holds a duplicate');
  // The honour variant's "third-party observer": point out a piece that repeats a colour.
  const reportBtn = h('button', {type: 'button', class: 'btn report-btn', hidden: true,
    'data-action': 'report', 'aria-pressed': 'false', onclick: () => setReporting(!reporting)},
  'Report a duplicate');
  const reportNote = h('p', {class: 'report-note', hidden: true},
    'Anyone watching may point out a piece that repeats a colour: it leaves the game, and '
    + 'its cell becomes a hole. Nobody loses a turn.');
  const hintBtn = h('button', {type: 'button', class: 'btn', hidden: true, 'data-action': 'hint',
    onclick: () => askHint()}, 'Hint');
  const hintNote = h('p', {class: 'hint-note', 'data-testid': 'hint-result', 'aria-live': 'polite',
    hidden: true});
  const countdown = h('div', {class: 'countdown', role: 'timer', 'aria-live': 'off', hidden: true});
  const claimNote = h('p', {class: 'claim-note', 'data-testid': 'claim-note'});
  // The pad sits beside the board, and under it on a narrow screen (a phone shows both),
  // the claim button with it: on a phone it is in sight when a claim is open.
  const padBox = h('div', {class: 'sd-pad'}, h('h3', {}, 'Place a colour'),
    h('div', {class: 'claim-row'}, claimBtn), pad.el,
    h('div', {class: 'hint-row'}, hintBtn, hintNote));
  const padHome = h('div', {});
  const side = h('div', {class: 'sd-side panel'},
    h('h3', {}, 'Pieces left'), hands, padHome,
    h('div', {class: 'actions'}, challengeBtn, eraseBtn, reportBtn), reportNote,
    countdown, claimNote);
  const stopPlacing = placeByWidth(padBox, padHome, ctx.underBoard);

  function showErase() {
    const selected = grid.selected >= 0 ? cellName(grid.selected) : null;
    eraseBtn.hidden = !(info.canPlay && view?.phase === 'claim' && selected
      && (view.claim_cells || []).includes(selected));
  }
  grid.onSelect = () => showErase();

  function setReporting(on) {
    reporting = on;
    reportBtn.setAttribute('aria-pressed', String(on));
    grid.el.classList.toggle('reporting', on);
    ctx.explain(on ? 'Now choose the piece that repeats a colour (press the button again to cancel)'
      : '', 'hint');
  }

  async function report(i) {
    setReporting(false);
    await ctx.report(`report ${cellName(i)}`);
  }

  const aids = () => !!view?.options?.aids;

  // The seat whose pieces the pad shows: the mover's when this page holds it (a local
  // game holds both), else the one seat held; null for a spectator (no pad).
  function padSeat() {
    const mine = info.mySeats || [];
    if (view && mine.includes(view.to_move)) return view.to_move;
    return mine.length ? mine[0] : null;
  }

  // The mover has no rule-abiding placement: a claim, or the game is lost.
  const stuck = (v) => !v.result && v.to_move !== null && v.phase !== 'claim'
    && v.mover_can_place === false && !v.variants?.honour;

  // A claim cannot be taken back: the player is asked first.
  async function confirmClaim() {
    const yes = await confirmDialog({title: 'Claim Sudoku!?', yes: 'Claim Sudoku!',
      no: 'Keep playing', testid: 'claim-dialog', text: [
        'You take every piece still in play (yours, your opponent\'s and the spare) and must '
        + `fill the rest of the grid alone, without breaking a rule, within ${view?.claim_minutes} `
        + 'minutes. Your opponent does not move again.',
        'If the grid cannot be completed you lose at once; if the time runs out, you lose.']});
    if (yes) ctx.propose('sudoku');
  }

  // With aids off every colour the mover still has is offered: whether it fits is theirs to see.
  function canUse(colour) {
    if (!view || view.to_move === null || stuck(view)) return false;
    if (!aids()) return piecesLeft(view, colour, view.to_move) > 0;
    return (view.legal_moves || []).some((m) => m.endsWith(`=${colour}`));
  }

  function showHint(text, colours = []) {
    hinted = {ply: view?.ply, colours};
    hintNote.textContent = text;
    hintNote.hidden = !text;
    renderSide();
  }

  async function askHint() {
    const i = grid.selected;
    if (i < 0 || view?.cells[i]) {
      showHint('Select an empty cell, then ask for a hint.');
      return;
    }
    const name = cellName(i);
    try {
      const answer = await ctx.hint(name);
      const colours = answer.cells?.[name] || [];
      showHint(colours.length ? `Colours that fit ${name}: ${colours.join(', ')}`
        : `No colour of yours fits ${name}.`, colours);
    } catch (error) {
      showHint(error.message || 'No hint now.');
    }
    // Back to the cell (the note is read out): a digit typed next goes there.
    if (grid.selected === i) grid.select(i);
  }

  // A refused placement lets go of its cell: the next colour picked is armed, not
  // played straight into the cell that was just refused.
  async function place(i, colour) {
    const sent = await ctx.propose(`${cellName(i)}=${colour}`);
    if (sent === false && grid.selected === i) grid.deselect();
  }

  function pick(d) {
    if (grid.selected >= 0 && !view?.cells[grid.selected]) {
      place(grid.selected, d);
      return;
    }
    armed = armed === d ? null : d;
    renderSide();
    ctx.explain(armed ? `Now choose an empty cell for colour ${armed}` : '', 'hint');
  }

  grid.onActivate = (i, key) => {
    if (!view) return;
    const name = cellName(i);
    const cell = view.cells[i];
    if (reporting) {
      if (cell) report(i);
      else ctx.explain(`${name} is empty: choose a piece to report`);
      return;
    }
    const claimPiece = (view.claim_cells || []).includes(name);
    if (key === 'erase') {
      if (claimPiece) ctx.propose(`erase ${name}`);
      else ctx.explain(`${name}: only pieces placed during the claim can be taken back`);
      return;
    }
    if (typeof key === 'number') place(i, key);
    else if (!cell && armed) place(i, armed);
    else if (!cell) ctx.explain(`${name}: type a colour's digit, or pick a colour beside the board`, 'hint');
  };

  function renderSide() {
    const v = view;
    if (!v) return;
    const left = v.pieces_left || [[], []];
    const name = (p) => ctx.playerName(p);
    const handRow = (label, counts) => h('div', {class: 'hand'}, h('span', {class: 'who'}, label),
      ...counts.map((n, k) => h('span', {class: `chip${n ? '' : ' empty'}`, style: colourVars(k + 1),
        'aria-label': `colour ${k + 1}: ${n} left`}, k + 1, h('span', {class: 'n'}, n))));
    if (v.pool) {
      hands.replaceChildren(handRow('Shared pool', v.pool));
    } else {
      hands.replaceChildren(
        ...[0, 1].map((p) => handRow(`${name(p)} — ${(v.pieces_left_total || [])[p] ?? 0} pieces`,
          left[p] || [])));
    }
    if (hinted && hinted.ply !== v.ply) {
      hinted = null;
      hintNote.hidden = true;
    }
    hintBtn.hidden = !(aids() && info.canPlay);
    const seat = padSeat();
    padBox.hidden = seat === null;
    pad.update((d) => {
      const count = piecesLeft(v, d, seat);
      return {
        enabled: !!info.canPlay && canUse(d),
        pressed: armed === d,
        label: `${d}, ${count} left`,
        content: [h('span', {class: 'piece-key', style: colourVars(d)}, d), ' ',
          h('span', {class: 'count'}, `${count} left`)],
      };
    });
    pad.buttons.forEach((b, k) => b.classList.toggle('is-hinted', !!hinted?.colours.includes(k + 1)));
    const words = new Set((v.legal_moves || []).filter((m) => !m.includes('=')));
    claimBtn.hidden = !(info.canPlay && words.has('sudoku'));
    claimBtn.classList.toggle('urgent', stuck(v));
    if (!claimBtn.hidden) {
      claimBtn.textContent = `Sudoku! (${v.claim_minutes} minutes to finish the grid)`;
    }
    challengeBtn.hidden = !(info.canPlay && words.has('challenge'));
    const canReport = !!(info.canReport && v.variants?.honour && !v.result && v.to_move !== null);
    reportBtn.hidden = !canReport;
    reportNote.hidden = !canReport || info.canPlay;
    if (!canReport && reporting) setReporting(false);
    showErase();
    if (v.phase === 'claim' && !v.result) {
      claimNote.textContent = `${name(v.claimant)} claimed Sudoku on their ${ordinal(v.claim_turn)} `
        + 'turn and must complete the grid alone. To take back a claim piece, select it, then '
        + 'press Delete or "Take back this piece".';
    } else if (!v.result && v.to_move !== null) {
      const [first, lastTurn] = v.claim_turns || [16, 35];
      const turn = v.turn_number;
      if (stuck(v)) {
        claimNote.textContent = `${noPlacement(v, info.mySeats)}. A claim gives ${v.claim_minutes} minutes `
          + 'to complete the grid alone.';
      } else if (v.claim_open) {
        claimNote.textContent = `A claim is open on this turn (${ordinal(turn)}): `
          + `${v.claim_minutes} minutes to complete the grid.`;
      } else if (turn < first) {
        claimNote.textContent = `Claims open on each player's turns ${first}–${lastTurn}; `
          + `this is ${name(v.to_move).toLowerCase()}'s ${ordinal(turn)}.`;
      } else {
        claimNote.textContent = `Claims closed after turn ${lastTurn}.`;
      }
    } else if (v.result && v.last_move === 'sudoku' && v.result.reason) {
      claimNote.textContent = `The claim lost at once: ${v.result.reason}.`;
    } else {
      claimNote.textContent = '';
    }
    tick();
  }

  function tick() {
    clearTimeout(timer);
    const deadline = info.deadline;
    if (!view || view.phase !== 'claim' || view.result || !deadline) {
      countdown.hidden = true;
      return;
    }
    const left = (deadline - Date.now()) / 1000;
    countdown.hidden = false;
    countdown.textContent = `${clockText(left)} left`;
    countdown.classList.toggle('low', left < 60);
    timer = setTimeout(tick, 250);
  }

  return {
    el: grid.el,
    side,
    grid,
    update(v, i = {}) {
      view = v;
      info = i;
      if (armed && !canUse(armed)) armed = null;
      draw(grid, v);
      renderSide();
    },
    destroy() { clearTimeout(timer); stopPlacing(); },
    whyNot: (v, move) => {
      const i = cellIndex(move);
      if (i < 0 || !v.cells[i]) return null;
      return `${move.split('=')[0]} already holds colour ${v.cells[i].value}`;
    },
    describeMove: (v, move) => {
      const m = /^(r\dc\d)=(\d)$/.exec(move);
      if (m) return `colour ${m[2]} at ${m[1]}`;
      if (move === 'sudoku') return 'claims Sudoku!';
      const reported = /^report (r\dc\d)$/.exec(move);
      if (reported) return `reports the piece on ${reported[1]}: it leaves the game`;
      return move;
    },
    statusDetail: (v, seen = info) => {
      if (v.result || v.to_move === null) return '';
      if (v.phase === 'claim') return 'completing the grid alone';
      if (stuck(v)) return `turn ${v.turn_number}: ${noPlacement(v, seen.mySeats, true)}`;
      return `turn ${v.turn_number}`;
    },
  };

  /** What a mover without placement must do, told to them or about them. */
  function noPlacement(v, mySeats, lower = false) {
    const text = (mySeats || []).includes(v.to_move)
      ? 'No colour of yours fits any cell: claim Sudoku! or lose'
      : `No colour of ${ctx.playerName(v.to_move).toLowerCase()}'s fits any cell: `
        + 'they must claim Sudoku! or lose';
    return lower ? text[0].toLowerCase() + text.slice(1) : text;
  }
}

/** How many pieces of `colour` `seat` has left (the shared pool in any_colour). */
function piecesLeft(v, colour, seat) {
  if (seat === null || seat === undefined) return 0;
  return (v.pool ? v.pool[colour - 1] : v.pieces_left?.[seat]?.[colour - 1]) ?? 0;
}

function draw(grid, v) {
  // Open cells are highlighted only with aids on (the text forbids the aid).
  const legalCells = new Set(v.options?.aids ? (v.legal_moves || []).filter((m) => m.includes('='))
    .map((m) => m.split('=')[0]) : []);
  const last = v.last_move && /^r\dc\d/.test(v.last_move) ? cellIndex(v.last_move) : -1;
  const variants = v.variants || {};
  const claim = new Set(v.claim_cells || []);
  const holes = new Set(v.holes || []);
  const dead = new Set(v.dead_cells || []);
  grid.clearLayers();
  if (variants.parity) {
    [...variants.parity].forEach((mark, i) => {
      const x = i % 9, y = Math.floor(i / 9);
      if (mark === 'o') grid.under.append(s('circle', {cx: x + 0.5, cy: y + 0.5, r: 0.4, class: 'odd'}));
      if (mark === 'e') {
        grid.under.append(s('rect', {x: x + 0.12, y: y + 0.12, width: 0.76, height: 0.76,
          rx: 0.04, class: 'even'}));
      }
    });
  }
  if (variants.diagonals) {
    grid.under.append(s('line', {x1: 0, y1: 0, x2: 9, y2: 9, class: 'diag'}));
    grid.under.append(s('line', {x1: 9, y1: 0, x2: 0, y2: 9, class: 'diag'}));
  }
  grid.drawLines(grid.over);
  for (const [a, b] of variants.consecutive || []) {
    const ia = cellIndex(a), ib = cellIndex(b);
    const ra = Math.floor(ia / 9), ca = ia % 9, rb = Math.floor(ib / 9), cb = ib % 9;
    if (ra === rb) {
      const x = Math.max(ca, cb);
      grid.over.append(s('rect', {x: x - 0.07, y: ra + 0.3, width: 0.14, height: 0.4, rx: 0.04,
        class: 'bar'}));
    } else {
      const y = Math.max(ra, rb);
      grid.over.append(s('rect', {x: ca + 0.3, y: y - 0.07, width: 0.4, height: 0.14, rx: 0.04,
        class: 'bar'}));
    }
  }
  const parity = variants.parity || '';
  grid.cells.forEach((el, i) => {
    const cell = v.cells[i];
    const name = cellName(i);
    el.classList.toggle('is-last', i === last);
    el.classList.toggle('is-open', legalCells.has(name));
    el.classList.toggle('is-dead', dead.has(name));
    let label;
    if (cell) {
      const cls = `piece owner-${cell.player ?? 'none'}${claim.has(name) ? ' claim' : ''}`;
      el.replaceChildren(h('span', {class: cls, style: colourVars(cell.value)}, cell.value));
      label = `${name}: colour ${cell.value}`;
      if (cell.player !== null && cell.player !== undefined) label += `, placed by ${cell.player === 0 ? 'the first' : 'the second'} player`;
      if (claim.has(name)) label += ', placed during the claim';
      if (i === last) label += ', the last move';
    } else {
      el.replaceChildren(...(holes.has(name) ? [h('span', {class: 'hole', 'aria-hidden': 'true'})] : []));
      label = `${name}: empty${holes.has(name) ? ' (a hole left by a removed piece)' : ''}`;
      if (legalCells.has(name)) label += ', open';
    }
    if (dead.has(name)) label += '; the claim failed here';
    if (parity[i] === 'o') label += '; odd cell';
    if (parity[i] === 'e') label += '; even cell';
    el.setAttribute('aria-label', label);
  });
}
