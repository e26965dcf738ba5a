// The chat of a game page. Players talk in the players' room while they play;
// spectators in theirs, which the players see only once the game is over (so that
// nobody is helped from the gallery). Messages arrive on the game's socket (`chat`,
// `chat_removed`); the rooms are read again whenever the socket says hello. Text is
// only ever text (never HTML). Muting someone hides their messages in this browser
// only (kept in localStorage); a report goes to the moderators.

import {account, errorText} from './api.js';
import {h, installStyle} from './kit.js';
import {announce} from './ui.js';

const MAX = 140;
const GREETINGS = ['Hello', 'Good luck', 'Good game', 'Thanks'];
const MUTED_KEY = 'sansu.chat.muted';
const REASONS = [['spam', 'Spam'], ['insult', 'Insult'], ['other', 'Other']];
const ROOM_NAMES = {players: 'Players', spectators: 'Spectators'};

installStyle('chat', `
.chat .chat-tabs { display: flex; gap: .3rem; margin-bottom: .5rem; }
.chat .chat-tabs [aria-selected="true"] { background: var(--accent); color: var(--accent-fg);
  border-color: var(--accent); }
.chat-log { list-style: none; margin: 0 0 .5rem; padding: 0; max-height: 13rem; overflow: auto;
  display: grid; gap: .15rem; overflow-wrap: anywhere; }
.chat-log:empty::before { content: "No messages yet."; color: var(--muted); font-size: .9rem; }
.chat-log li { display: flex; align-items: flex-start; gap: .3rem; font-size: .95rem; }
.chat-log .chat-body { flex: 1; min-width: 0; }
.chat-log .chat-author { font-weight: 650; margin-right: .35rem; }
.chat-log .mine .chat-author { color: var(--muted); }
.chat-menu { position: relative; flex: none; }
.chat-menu summary { list-style: none; cursor: pointer; border-radius: 6px; padding: 0 .5rem;
  color: var(--muted); min-height: 1.5rem; min-width: 1.8rem; text-align: center; }
.chat-menu summary::-webkit-details-marker { display: none; }
.chat-menu[open] summary { background: var(--surface-2); }
.chat-menu .chat-actions { position: absolute; right: 0; z-index: 5; display: grid; gap: .25rem;
  background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: .4rem;
  min-width: 9.5rem; box-shadow: 0 4px 14px rgb(0 0 0 / .18); }
.chat-greetings { display: flex; flex-wrap: wrap; gap: .3rem; margin-bottom: .4rem; }
.chat-form { display: flex; gap: .4rem; align-items: center; }
.chat-form input { flex: 1; min-width: 0; }
.chat-count { font-size: .8rem; color: var(--muted); font-variant-numeric: tabular-nums;
  min-width: 3.6rem; text-align: right; }
.chat-count.full { color: var(--danger); }
.chat-note { font-size: .85rem; color: var(--muted); margin: .4rem 0 0; }
.chat-note:empty { display: none; }
.chat-muted { margin-top: .4rem; font-size: .9rem; }
.chat-muted ul { list-style: none; padding: 0; margin: .3rem 0 0; display: grid; gap: .25rem; }
`);

/** The muted authors of this browser: {author key: name}. */
function loadMuted() {
  try {
    const muted = JSON.parse(localStorage.getItem(MUTED_KEY) || '{}');
    return muted && typeof muted === 'object' && !Array.isArray(muted) ? muted : {};
  } catch {
    return {};
  }
}

/** A call of the chat API as this page's player (its seat token) or signed-in account. */
async function send(method, path, body, token) {
  const headers = {Accept: 'application/json'};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const {csrf_token: csrf} = await account();
  if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = csrf;
  const res = await fetch(path, {method, headers,
    body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await res.json().catch(() => null);
  if (!res.ok) throw Object.assign(new Error(errorText(data) || res.statusText), {status: res.status});
  return data;
}

/** Mounts the chat panel on `page` (a GamePage) and listens to its socket's events; not
 *  for a player with nobody to talk to (the computer, or every seat theirs). */
export function mountChat(page) {
  const seats = page.g.seats;
  if (Object.keys(page.held).length && seats.every((seat, i) => seat.kind === 'computer'
    || page.mine(i))) return null;
  const chat = new Chat(page);
  const handle = page.event.bind(page);
  page.event = (e) => {
    handle(e);
    chat.event(e);
  };
  return chat;
}

class Chat {
  constructor(page) {
    this.page = page;
    this.rooms = {players: [], spectators: []};
    this.loaded = new Set();
    this.room = null;
    this.muted = loadMuted();
    this.me = null;
    this.build();
    account().then((a) => { this.me = a.user; this.render(); });
    this.refresh();
  }

  get id() { return this.page.id; }

  get playing() { return Object.keys(this.page.held).length > 0; }

  get over() { return this.page.g?.status !== 'active'; }

  /** The rooms this browser may read now, its own first. */
  get open() {
    if (!this.playing) return ['spectators'];
    return this.over ? ['players', 'spectators'] : ['players'];
  }

  build() {
    this.heading = h('h3', {id: 'chat-heading'}, 'Chat');
    this.tabs = h('div', {class: 'chat-tabs', role: 'tablist', 'aria-labelledby': 'chat-heading'});
    this.log = h('ol', {class: 'chat-log', id: 'chat-log', tabindex: '0', 'data-testid': 'chat-log'});
    this.input = h('input', {type: 'text', id: 'chat-input', maxlength: String(MAX),
      autocomplete: 'off', 'aria-describedby': 'chat-count', placeholder: 'Say something…',
      'data-testid': 'chat-input', oninput: () => this.count()});
    this.counter = h('span', {class: 'chat-count', id: 'chat-count'});
    this.form = h('form', {class: 'chat-form', onsubmit: (e) => {
      e.preventDefault();
      this.say(this.input.value);
    }}, h('label', {for: 'chat-input', class: 'visually-hidden'}, 'Message'), this.input,
    this.counter, h('button', {type: 'submit', class: 'btn small'}, 'Send'));
    this.greetings = h('div', {class: 'chat-greetings', role: 'group', 'aria-label': 'Greetings'},
      GREETINGS.map((text) => h('button', {type: 'button', class: 'btn small',
        'data-greeting': text, onclick: () => this.say(text)}, text)));
    this.note = h('p', {class: 'chat-note', role: 'status', 'data-testid': 'chat-note'});
    this.mutedEl = h('div', {class: 'chat-muted', 'data-testid': 'chat-muted'});
    this.writer = h('div', {}, this.greetings, this.form);
    this.el = h('section', {class: 'panel chat', 'aria-labelledby': 'chat-heading',
      'data-testid': 'chat'}, this.heading, this.tabs,
    h('div', {id: 'chat-panel', role: 'tabpanel', 'aria-labelledby': 'chat-heading'}, this.log,
      this.writer, this.note, this.mutedEl));
    this.page.main.querySelector('.side').append(this.el);
    this.count();
  }

  count() {
    const n = [...this.input.value.trim()].length;  // characters, as the server counts
    this.counter.textContent = `${n}/${MAX}`;
    this.counter.classList.toggle('full', n >= MAX);
  }

  // -- the server ---------------------------------------------------------------------------

  async refresh() {
    for (const room of this.open) {
      try {
        const data = await send('GET', `/api/games/${encodeURIComponent(this.id)}/chat?room=${room}`,
          undefined, this.page.token);
        // Messages the socket brought while this was read are newer: keep them after.
        const last = Math.max(0, ...data.messages.map((m) => m.id));
        this.rooms[room] = [...data.messages, ...this.rooms[room].filter((m) => m.id > last)];
        this.loaded.add(room);
      } catch (error) {
        this.note.textContent = `The ${room}' chat cannot be read: ${error.message}`;
      }
    }
    this.render();
  }

  async say(text) {
    const room = this.current();
    if (!text.trim()) return;
    try {
      const {message} = await send('POST', `/api/games/${encodeURIComponent(this.id)}/chat`,
        {room, text}, this.page.token);
      this.add(message);
      if (text === this.input.value) this.input.value = '';
      this.note.textContent = '';
      this.count();
    } catch (error) {
      this.note.textContent = error.message;
    }
  }

  async report(message, reason, menu) {
    menu.open = false;
    try {
      await send('POST', `/api/chat/${message.id}/report`, {reason}, this.page.token);
      this.note.textContent = `Reported ${this.label(message)}'s message. Thank you.`;
    } catch (error) {
      this.note.textContent = error.message;
    }
  }

  // -- the socket -----------------------------------------------------------------------

  event(e) {
    if (e.type === 'hello') {
      this.refresh();
    } else if (e.type === 'chat') {
      const m = e.message;
      if (this.add(m) && !this.mine(m) && !this.muted[m.author]) {
        const where = this.open.length > 1 ? ` (${ROOM_NAMES[m.room].toLowerCase()})` : '';
        announce(`${this.label(m)}${where}: ${m.text}`);
      }
    } else if (e.type === 'chat_removed') {
      this.rooms[e.room] = (this.rooms[e.room] || []).filter((m) => m.id !== e.id);
      this.render();
    } else if (this.open.some((room) => !this.loaded.has(room))) {
      // The game ended: the players may read the spectators now. Their tab shows at
      // once, with the end, and its messages once read.
      this.render();
      this.refresh();
    }
  }

  /** Adds a message once (the socket and the answer to a post both bring one's own). */
  add(message) {
    const list = this.rooms[message.room];
    if (!list || list.some((m) => m.id === message.id)) return false;
    list.push(message);
    this.render();
    return true;
  }

  // -- drawing --------------------------------------------------------------------------

  current() {
    const open = this.open;
    if (!open.includes(this.room)) this.room = open[0];
    return this.room;
  }

  /** The author as this page names them: a seat without a name of its own by its colour
   *  (X, O, ...), anyone else by the name the message carries. */
  label(m) {
    const seated = m.seat !== null && m.seat !== undefined;
    return seated && !this.page.g.seats[m.seat]?.name ? this.page.seatName(m.seat) : m.name;
  }

  mine(m) {
    if (m.seat !== null && m.seat !== undefined) return this.page.mine(m.seat);
    return !!this.me && m.author === `user:${this.me.id}`;
  }

  /** Draws the panel again, keeping what a keyboard user had: the focused tab, menu or
   *  button, and the menus open (a message arriving must not move anyone). */
  render() {
    const active = this.el.contains(document.activeElement) ? document.activeElement : null;
    const item = active?.closest('li[data-message]');
    const open = [...this.log.querySelectorAll('details[open]')]
      .map((menu) => menu.closest('li').dataset.message);
    let selector = null;
    if (active?.dataset.room) selector = `[data-room="${active.dataset.room}"]`;
    else if (active?.dataset.report) selector = `[data-report="${active.dataset.report}"]`;
    else if (active?.dataset.action) selector = `[data-action="${active.dataset.action}"]`;
    else if (active?.tagName === 'SUMMARY' && item) selector = 'summary';
    this.draw();
    const line = (id) => this.log.querySelector(`li[data-message="${id}"]`);
    for (const id of open) line(id)?.querySelector('details')?.setAttribute('open', '');
    const scope = item ? line(item.dataset.message) : this.el;
    if (selector && !scope?.contains(document.activeElement)) scope?.querySelector(selector)?.focus();
  }

  draw() {
    const room = this.current();
    const open = this.open;
    this.heading.textContent = open.length > 1 ? 'Chat' : `Chat — ${ROOM_NAMES[room].toLowerCase()}`;
    this.tabs.hidden = open.length < 2;
    this.tabs.replaceChildren(...open.map((name) => h('button', {type: 'button', role: 'tab',
      class: 'btn small', id: `chat-tab-${name}`, 'aria-selected': String(name === room),
      'aria-controls': 'chat-panel', tabindex: name === room ? '0' : '-1', 'data-room': name,
      onclick: () => { this.room = name; this.note.textContent = ''; this.show(); },
      onkeydown: (e) => this.tabKey(e, name)}, ROOM_NAMES[name])));
    this.log.setAttribute('aria-label', `${ROOM_NAMES[room]}' messages`);
    const atEnd = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    this.log.replaceChildren(...this.rooms[room].filter((m) => !this.muted[m.author])
      .map((m) => this.line(m)));
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
    const canWrite = this.playing || !!this.me;
    this.writer.hidden = !canWrite;
    this.greetings.hidden = room !== 'players';
    if (!canWrite) {
      this.note.replaceChildren('Spectators chat under an account: ',
        h('a', {href: `#/account?next=${encodeURIComponent(location.hash)}`}, 'log in'), '.');
    }
    this.renderMuted();
  }

  line(m) {
    const mine = this.mine(m);
    return h('li', {class: mine ? 'mine' : '', 'data-message': m.id, 'data-author': m.author},
      h('span', {class: 'chat-body'}, h('span', {class: 'chat-author'}, `${this.label(m)}:`),
        h('span', {class: 'chat-text'}, m.text)),
      mine ? null : this.menu(m));
  }

  menu(m) {
    const name = this.label(m);
    const menu = h('details', {class: 'chat-menu'});
    menu.append(
      h('summary', {'aria-label': `Actions on ${name}'s message`, title: 'Mute or report'}, '⋯'),
      h('div', {class: 'chat-actions'},
        h('button', {type: 'button', class: 'btn small', 'data-action': 'mute',
          onclick: () => this.mute(m.author, name)}, `Mute ${name}`),
        ...REASONS.map(([reason, label]) => h('button', {type: 'button', class: 'btn small',
          'data-report': reason, onclick: () => this.report(m, reason, menu)}, `Report: ${label}`))));
    menu.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && menu.open) {
        menu.open = false;
        menu.querySelector('summary').focus();
      }
    });
    return menu;
  }

  tabKey(e, name) {
    const open = this.open;
    const step = {ArrowRight: 1, ArrowLeft: -1}[e.key];
    if (!step) return;
    e.preventDefault();
    this.room = open[(open.indexOf(name) + step + open.length) % open.length];
    this.show();
    this.tabs.querySelector(`[data-room="${this.room}"]`).focus();
  }

  /** Draws the room chosen, reading it first if it was never read (a room that opened
   *  when the game ended may have been refused by a read that crossed the end). */
  show() {
    if (this.loaded.has(this.room)) this.render();
    else this.refresh();
  }

  mute(author, name) {
    this.muted[author] = name;
    this.saveMuted();
    this.note.textContent = `${name} is muted in this browser.`;
    this.render();
    this.input.focus();
  }

  unmute(author) {
    const name = this.muted[author];
    delete this.muted[author];
    this.saveMuted();
    this.note.textContent = `${name} is no longer muted.`;
    this.render();
    this.input.focus();
  }

  saveMuted() {
    try {
      localStorage.setItem(MUTED_KEY, JSON.stringify(this.muted));
    } catch { /* private mode: muted for this page only */ }
  }

  renderMuted() {
    const names = Object.entries(this.muted);
    this.mutedEl.hidden = !names.length;
    this.mutedEl.replaceChildren(...(names.length ? [h('details', {},
      h('summary', {}, `Muted (${names.length})`),
      h('ul', {}, names.map(([author, name]) => h('li', {}, `${name} `,
        h('button', {type: 'button', class: 'btn small', 'data-unmute': author,
          onclick: () => this.unmute(author)}, `Unmute ${name}`)))))] : []));
  }
}
