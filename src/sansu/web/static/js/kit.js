// What every board shares: cell names, a square grid of focusable cells
// with two SVG layers (under and over the cells, in cell units), keyboard
// navigation by roving focus, and small DOM helpers. Board modules in
// ../boards/ build on this so that each of them only says how its game looks.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export const SECTION_NAMES = [
  'top-left', 'top-centre', 'top-right',
  'centre-left', 'centre', 'centre-right',
  'bottom-left', 'bottom-centre', 'bottom-right',
];

/** `r{row}c{col}`, 1-based, of a row-major cell index. */
export function cellName(index, cols = 9) {
  return `r${Math.floor(index / cols) + 1}c${(index % cols) + 1}`;
}

/** The row-major index of `r4c5` (also accepts `r4c5=7`); -1 when it names no cell. */
export function cellIndex(name, cols = 9) {
  const m = /^\s*r(\d+)\s*c(\d+)/i.exec(name || '');
  return m ? (Number(m[1]) - 1) * cols + Number(m[2]) - 1 : -1;
}

/** The 3×3 section (box) of a cell of a 9×9 board, 0–8 row-major. */
export function sectionOf(index) {
  return Math.floor(Math.floor(index / 9) / 3) * 3 + Math.floor((index % 9) / 3);
}

/** `h('div', {class: 'x', onclick: f}, child, 'text')`: a small element builder. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG element with attributes. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'dataset') {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

const installed = new Set();

/** Adds a board's CSS to the document once. */
export function installStyle(id, css) {
  if (installed.has(id)) return;
  installed.add(id);
  document.head.append(h('style', {'data-board-style': id}, css));
}

/** The legal moves of a view grouped by the cell they name (`r4c5` → [moves]). */
export function movesByCell(view) {
  const out = new Map();
  for (const move of view.legal_moves || []) {
    const m = /^(r\d+c\d+)/i.exec(move);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(move);
  }
  return out;
}

/**
 * A rows×cols board of focusable cells (`data-cell="rRcC"`).
 *
 * Cells are laid out in a uniform CSS grid; the `under` and `over` SVG layers
 * use a viewBox of `cols × rows` so that cell (r, c) is the unit square at
 * (c, r): lines, tints, stripes and marks line up exactly with the cells at
 * any size. One cell at a time is the selection; it alone is in the tab order.
 */
export class Grid {
  constructor({rows, cols, label, className = ''}) {
    this.rows = rows;
    this.cols = cols;
    this.selected = -1;
    this.onActivate = () => {};
    this.onSelect = () => {};
    this.under = s('svg', {class: 'layer under', viewBox: `0 0 ${cols} ${rows}`,
      preserveAspectRatio: 'none', 'aria-hidden': 'true'});
    this.over = s('svg', {class: 'layer over', viewBox: `0 0 ${cols} ${rows}`,
      preserveAspectRatio: 'none', 'aria-hidden': 'true'});
    this.field = h('div', {class: 'cells', role: 'group', 'aria-label': label});
    this.cells = [];
    for (let i = 0; i < rows * cols; i++) {
      const cell = h('button', {
        type: 'button', class: 'cell', 'data-cell': cellName(i, cols),
        'data-index': i, tabindex: i === 0 ? 0 : -1, 'aria-label': cellName(i, cols),
      });
      cell.style.gridRow = String(Math.floor(i / cols) + 1);
      cell.style.gridColumn = String((i % cols) + 1);
      this.cells.push(cell);
      this.field.append(cell);
    }
    this.el = h('div', {class: `board ${className}`}, h('div', {class: 'board-inner'},
      this.under, this.field, this.over));
    this.el.style.setProperty('--rows', rows);
    this.el.style.setProperty('--cols', cols);
    this.field.addEventListener('keydown', (e) => this.#key(e));
    this.field.addEventListener('click', (e) => {
      const cell = e.target.closest('.cell');
      if (!cell) return;
      const i = Number(cell.dataset.index);
      this.select(i, false);
      this.onActivate(i, null, e.detail === 0 ? 'key' : 'pointer');
    });
    this.field.addEventListener('focusin', (e) => {
      const cell = e.target.closest('.cell');
      if (cell) this.select(Number(cell.dataset.index), false);
    });
  }

  /** Makes cell `i` the selection (and focuses it when `focus`). */
  select(i, focus = true) {
    if (i < 0 || i >= this.cells.length) return;
    if (this.selected !== i) {
      const old = this.cells[this.selected];
      if (old) {
        old.tabIndex = -1;
        old.classList.remove('is-selected');
      }
      this.selected = i;
      this.cells[i].classList.add('is-selected');
      this.onSelect(i);
    }
    this.cells.forEach((c, k) => { c.tabIndex = k === i ? 0 : -1; });
    if (focus) this.cells[i].focus();
  }

  /** No cell selected (after a refused move, so that the next pick does not go there). */
  deselect() {
    const old = this.cells[this.selected];
    if (!old) return;
    old.classList.remove('is-selected');
    this.selected = -1;
    this.onSelect(-1);
  }

  /** Keeps the selection only where `keep(name, index)` holds (a new position came). */
  keepSelectionIf(keep) {
    if (this.selected >= 0 && !keep(cellName(this.selected, this.cols), this.selected)) {
      this.deselect();
    }
  }

  #key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const cell = e.target.closest('.cell');
    if (!cell) return;
    const i = Number(cell.dataset.index);
    const r = Math.floor(i / this.cols), c = i % this.cols;
    const moves = {
      ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
    };
    if (moves[e.key]) {
      e.preventDefault();
      const [dr, dc] = moves[e.key];
      const nr = Math.min(this.rows - 1, Math.max(0, r + dr));
      const nc = Math.min(this.cols - 1, Math.max(0, c + dc));
      this.select(nr * this.cols + nc);
      return;
    }
    if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      this.select(r * this.cols + (e.key === 'Home' ? 0 : this.cols - 1));
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onActivate(i, null, 'key');
      return;
    }
    if (/^[1-9]$/.test(e.key)) {
      e.preventDefault();
      this.onActivate(i, Number(e.key), 'key');
      return;
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.onActivate(i, 'erase', 'key');
    }
  }

  /** Clears both SVG layers (boards redraw them on every update). */
  clearLayers() {
    this.under.replaceChildren();
    this.over.replaceChildren();
  }

  /** Sudoku-style lines: thin between cells, thick every `box` cells and around. */
  drawLines(layer, {box = 3, thin = 0.025, thick = 0.07, boxRows = box, boxCols = box} = {}) {
    // Widths are given for a 9-cell board; other sizes keep the same width on screen.
    const scale = Math.max(this.rows, this.cols) / 9;
    thin *= scale;
    thick *= scale;
    const g = s('g', {class: 'lines'});
    for (let c = 1; c < this.cols; c++) {
      const heavy = boxCols && c % boxCols === 0;
      g.append(s('line', {x1: c, y1: 0, x2: c, y2: this.rows,
        class: heavy ? 'thick' : 'thin', 'stroke-width': heavy ? thick : thin}));
    }
    for (let r = 1; r < this.rows; r++) {
      const heavy = boxRows && r % boxRows === 0;
      g.append(s('line', {x1: 0, y1: r, x2: this.cols, y2: r,
        class: heavy ? 'thick' : 'thin', 'stroke-width': heavy ? thick : thin}));
    }
    g.append(s('rect', {x: thick / 2, y: thick / 2, width: this.cols - thick,
      height: this.rows - thick, class: 'frame', fill: 'none', 'stroke-width': thick}));
    layer.append(g);
  }
}

/**
 * A row of digit (or colour) buttons for touch and mouse play: choose a cell,
 * then a digit; or choose a digit first, then cells.
 */
export class DigitPad {
  constructor({label = 'Digits', onPick, render}) {
    this.onPick = onPick;
    this.render = render || ((d) => String(d));
    this.armed = null;
    this.el = h('div', {class: 'digit-pad', role: 'group', 'aria-label': label});
    this.buttons = [];
    for (let d = 1; d <= 9; d++) {
      const b = h('button', {type: 'button', class: 'pad-key', 'data-digit': d,
        onclick: () => this.onPick(d)});
      this.buttons.push(b);
      this.el.append(b);
    }
  }

  /** `info(d)` → {enabled, label, extra} for each digit. */
  update(info) {
    this.buttons.forEach((b, k) => {
      const d = k + 1;
      const {enabled = true, label = String(d), content = null, pressed = false} = info(d) || {};
      b.setAttribute('aria-disabled', enabled ? 'false' : 'true');
      b.classList.toggle('is-off', !enabled);
      b.setAttribute('aria-label', label);
      b.setAttribute('aria-pressed', pressed ? 'true' : 'false');
      b.replaceChildren(...[content || this.render(d)].flat());
    });
  }
}

/**
 * Keeps `el` under the board on a narrow screen (`underBoard`, so a phone shows
 * the pad together with the board) and at `home` beside it on a wide one.
 * Returns the function that stops following the screen's width.
 */
export function placeByWidth(el, home, underBoard, query = '(max-width: 820px)') {
  const narrow = matchMedia(query);
  const place = () => {
    const target = narrow.matches && underBoard ? underBoard : home;
    if (el.parentNode !== target) target.append(el);
  };
  place();
  narrow.addEventListener('change', place);
  return () => narrow.removeEventListener('change', place);
}

/** A count-down text like `3:07` for a number of seconds. */
export function clockText(seconds) {
  const t = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(t / 60), sec = t % 60;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

/** `1st`, `2nd`, … for small numbers. */
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({1: 'st', 2: 'nd', 3: 'rd'}[n % 10] || 'th');
  return `${n}${tail}`;
}

/** Scrolls `container` (only it, never the page) so that `el` is in view. */
export function scrollWithin(container, el) {
  const box = el.getBoundingClientRect();
  const top = box.top - container.getBoundingClientRect().top + container.scrollTop;
  if (top < container.scrollTop) container.scrollTop = top - 4;
  else if (top + box.height > container.scrollTop + container.clientHeight) {
    container.scrollTop = top + box.height - container.clientHeight + 4;
  }
}
