// Talking to the game server: its HTTP API and one WebSocket per game.
// Seat tokens are secrets handed out once, when a seat is taken; the browser
// keeps them in localStorage (per game id) so a reload, or coming back later,
// resumes the game in the same seat.

const TOKENS_KEY = 'sansu.seats';
const INVITES_KEY = 'sansu.invites';

// The signed-in account, if any (GET /api/account at start): every write carries its
// session's CSRF token, so the server counts it as the account's.
let session = {user: null, csrf_token: null};
let sessionLoaded = null;

/** Who is signed in in this browser ({user, csrf_token}; user null when nobody). */
export function account() {
  if (!sessionLoaded) {
    sessionLoaded = fetch('/api/account', {headers: {Accept: 'application/json'}})
      .then((res) => (res.ok ? res.json() : null))
      .then((data) => { if (data) session = data; return session; })
      .catch(() => session);
  }
  return sessionLoaded;
}

/** Forgets the account seen at start (after logging in or out). */
export function accountChanged() {
  sessionLoaded = null;
  session = {user: null, csrf_token: null};
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
    this.code = body?.error?.code ?? null;
  }
}

/** A call to the server's API: the parsed JSON answer, or an ApiError saying why not. */
export async function request(method, path, body, token) {
  const headers = {Accept: 'application/json'};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== 'GET') {
    const {csrf_token: csrf} = await account();
    if (csrf) headers['X-CSRF-Token'] = csrf;
  }
  let res;
  try {
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (error) {
    throw new ApiError(0, 'The server cannot be reached.', null);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) throw new ApiError(res.status, errorText(data) || `${res.status} ${res.statusText}`, data);
  return data;
}

/** The human-readable reason of an error answer: `{"error": {"code", "message"}}`. */
export function errorText(data) {
  if (!data) return '';
  if (typeof data === 'string') return data;
  const e = data.error;
  if (e && typeof e === 'object') return e.message || e.code || '';
  return typeof e === 'string' ? e : (data.message || '');
}

// -- seat tokens ---------------------------------------------------------------

function allSeats() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}'); } catch { return {}; }
}

/** The seats this browser holds in game `id`: {seat number: token}. */
export function heldSeats(id) {
  return allSeats()[id]?.seats || {};
}

/** Remembers that `token` holds `seats` (a list) in game `id`. */
export function keepSeats(id, seats, token) {
  const all = allSeats();
  const entry = all[id] || {seats: {}, at: Date.now()};
  for (const seat of seats) entry.seats[seat] = token;
  entry.at = Date.now();
  all[id] = entry;
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}

/** Forgets a token the server no longer knows. */
export function dropToken(id, token) {
  const all = allSeats();
  const entry = all[id];
  if (!entry) return;
  for (const [seat, t] of Object.entries(entry.seats)) if (t === token) delete entry.seats[seat];
  if (!Object.keys(entry.seats).length) delete all[id];
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}

/** Keeps a private game's invitation secret, for its invitation link. */
export function keepInvite(id, secret) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(INVITES_KEY) || '{}'); } catch { /* reset */ }
  all[id] = secret;
  localStorage.setItem(INVITES_KEY, JSON.stringify(all));
}

/** The invitation secret of a private game this browser created (null if unknown). */
export function inviteSecret(id) {
  try { return JSON.parse(localStorage.getItem(INVITES_KEY) || '{}')[id] || null; } catch { return null; }
}

/** Ids of the games this browser holds a seat in, most recent first. */
export function myGameIds() {
  return Object.entries(allSeats()).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).map(([id]) => id);
}

// -- the API ---------------------------------------------------------------------

const enc = encodeURIComponent;

export const api = {
  /** {games: [{id, title, players, options}], levels: [...]} */
  catalog: () => request('GET', '/api/catalog'),
  rules: async (game) => {
    const res = await fetch(`/api/catalog/${enc(game)}/rules`,
      {headers: {Accept: 'text/markdown, text/plain'}});
    if (!res.ok) throw new ApiError(res.status, 'The rules page is not available.', null);
    return res.text();
  },
  /** A sample position of a game, for the picture on the home page. */
  sample: (game) => request('GET', `samples/${enc(game)}.json`),
  create: (body) => request('POST', '/api/games', body),
  game: (id, token) => request('GET', `/api/games/${enc(id)}`, undefined, token),
  join: (id, seat, name, token, secret) => request('POST', `/api/games/${enc(id)}/join`,
    {seat, name: name || null, ...(secret ? {secret} : {})}, token),
  watching: (id, token, watchable) => request('POST', `/api/games/${enc(id)}/watching`,
    {watchable}, token),
  /** The signed-in player's games in play: {games: [{id, game, you, your_turn, ...}]} */
  myGames: () => request('GET', '/api/account/games'),
  seeks: () => request('GET', '/api/lobby/seeks'),
  postSeek: (body) => request('POST', '/api/lobby/seeks', body),
  lookSeek: (id, ticket) => request('GET', `/api/lobby/seeks/${enc(id)}`, undefined, ticket),
  acceptSeek: (id, name, ticket) => request('POST', `/api/lobby/seeks/${enc(id)}/accept`,
    {name: name || null}, ticket),
  cancelSeek: (id, ticket) => request('DELETE', `/api/lobby/seeks/${enc(id)}`, undefined, ticket),
  wait: (body) => request('POST', '/api/lobby/pairing', body),
  lookWait: (ticket) => request('GET', '/api/lobby/pairing', undefined, ticket),
  stopWaiting: (ticket) => request('DELETE', '/api/lobby/pairing', undefined, ticket),
  move: (id, token, move, state) => request('POST', `/api/games/${enc(id)}/moves`,
    {move, state}, token),
  resign: (id, token, state) => request('POST', `/api/games/${enc(id)}/resign`, {state}, token),
  abort: (id, token, state) => request('POST', `/api/games/${enc(id)}/abort`, {state}, token),
  takeback: (id, token, state) => request('POST', `/api/games/${enc(id)}/takeback`, {state}, token),
  claim: (id, token, state, draw) => request('POST', `/api/games/${enc(id)}/claim`, {state, draw}, token),
  offer: (id, token, kind, state) => request('POST', `/api/games/${enc(id)}/offers/${kind}`, {state}, token),
  answerOffer: (id, token, kind, accept) => request(accept ? 'POST' : 'DELETE',
    `/api/games/${enc(id)}/offers/${kind}${accept ? '/accept' : ''}`, undefined, token),
  hint: (id, token, cell) => request('GET',
    `/api/games/${enc(id)}/hint${cell ? `?cell=${enc(cell)}` : ''}`, undefined, token),
  rematch: (id, token) => request('POST', `/api/games/${enc(id)}/rematch`, undefined, token),
  declineRematch: (id, token) => request('DELETE', `/api/games/${enc(id)}/rematch`, undefined, token),
  list: (params = {}) => {
    const qs = new URLSearchParams(Object.entries(params)
      .filter(([, v]) => v !== undefined && v !== null && v !== ''));
    return request('GET', `/api/games${qs.toString() ? `?${qs}` : ''}`);
  },
  position: (id, ply) => request('GET', `/api/games/${enc(id)}/positions/${ply}`),
  recordUrl: (id) => `/api/games/${enc(id)}/record`,
  /** Starts (or finds) the engine's review of a game that is over: {status, percent | review} */
  review: (id) => request('POST', `/api/games/${enc(id)}/review`),
  reviewStatus: (id) => request('GET', `/api/games/${enc(id)}/review`),
  /** Sets up a position for the analysis board: {id, view, moves, base, ...} */
  analyse: (body) => request('POST', '/api/analysis', body),
  /** The analysis once deeper than step `after` (the server waits a few seconds for it). */
  analysisNews: (id, after) => request('GET', `/api/analysis/${enc(id)}?after=${after}`),
  stopAnalysis: (id) => request('DELETE', `/api/analysis/${enc(id)}`),
  analysisHint: (id, cell) => request('GET',
    `/api/analysis/${enc(id)}/hint${cell ? `?cell=${enc(cell)}` : ''}`),
};

// A socket's liveness: a handshake not done within OPEN_WITHIN is abandoned and tried
// again (a proxy or server that never answers would otherwise leave the page silent); a
// socket quiet for PING_AFTER is pinged, and one that leaves the ping unanswered for
// PONG_WITHIN is taken for dead (a laptop that slept, a network that changed) and
// replaced. Timers are checked every CHECK_EVERY; a background tab's throttled timers only
// ping later, never drop a socket that answers.
const OPEN_WITHIN = 10000;
const PING_AFTER = 15000;
const PONG_WITHIN = 10000;
const CHECK_EVERY = 2500;

/**
 * The live connection to one game. Reconnects with backoff when dropped or found dead and
 * calls `onEvent` for every message; `onStatus('open'|'closed')` on changes.
 */
export class Live {
  constructor(id, token, {onEvent, onStatus, since}) {
    this.id = id;
    this.token = token;
    this.since = since || (() => null);
    this.onEvent = onEvent;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.tries = 0;
    this.queue = [];
    this.checker = setInterval(() => this.check(), CHECK_EVERY);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const params = new URLSearchParams();
    const since = this.since();
    if (since !== null && since !== undefined) params.set('since', since);
    const qs = params.toString() ? `?${params}` : '';
    // The seat's token travels as a subprotocol, never in the URL (servers log URLs).
    const protocols = this.token ? ['sansu', `token.${this.token}`] : ['sansu'];
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${enc(this.id)}/ws${qs}`, protocols);
    this.ws = ws;
    this.started = Date.now();
    this.pingedAt = null;
    ws.onopen = () => {
      this.tries = 0;
      this.heard = Date.now();
      this.onStatus('open');
      for (const msg of this.queue.splice(0)) ws.send(JSON.stringify(msg));
    };
    ws.onmessage = (e) => {
      this.heard = Date.now();
      this.pingedAt = null;
      let data;
      try { data = JSON.parse(e.data); } catch { return; }
      if (data.type === 'pong' && data.id === 'alive') return;
      this.onEvent(data);
    };
    ws.onclose = () => this.dropped(ws);
    ws.onerror = () => ws.close();
  }

  /** Abandons the socket ``ws`` (if still the current one) and tries again after a backoff. */
  dropped(ws) {
    if (this.closed || ws !== this.ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try { ws.close(); } catch { /* already gone */ }
    this.ws = null;
    this.onStatus('closed');
    const wait = Math.min(8000, 300 * 2 ** this.tries++);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** The liveness checks: a handshake too slow, a ping due, a ping unanswered. */
  check() {
    const ws = this.ws;
    if (this.closed || !ws) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.started > OPEN_WITHIN) this.dropped(ws);
    } else if (ws.readyState === WebSocket.OPEN) {
      if (this.pingedAt !== null) {
        if (now - this.pingedAt > PONG_WITHIN) this.dropped(ws);
      } else if (now - this.heard > PING_AFTER) {
        this.pingedAt = now;
        ws.send(JSON.stringify({type: 'ping', id: 'alive'}));
      }
    }
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.checker);
    try { this.ws?.close(); } catch { /* already gone */ }
  }
}
