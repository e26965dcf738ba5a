// Home (the games, each with its pitch, a picture of its board, its rules
// and "Play"), a game's own page with the choices of how to play, and the
// rules pages rendered from the project's rules texts.

import {account, api, heldSeats, keepInvite, keepSeats, myGameIds} from './api.js';
import {catalog, gameInfo, games, levelRatings} from './catalog.js';
import {boardModule} from './games.js';
import {h} from './kit.js';
import {drawDiagrams} from './diagrams.js';
import {onlineLine} from './relations.js';
import {lessonOffer, newcomerEntry} from './newcomer.js';
import {renderMarkdown} from './markdown.js';
import {go, route} from './router.js';
import {ago, errorNotice} from './ui.js';

/** A non-interactive picture of a game's board, drawn from its sample position. */
export async function boardPicture(id) {
  const mod = await boardModule(id);
  const holder = h('div', {class: 'thumb', 'aria-hidden': 'true'});
  try {
    const view = await api.sample(id);
    const board = mod.createBoard({propose() {}, explain() {},
      playerName: (p) => mod.meta.playerName(p, view)});
    board.update(view, {canPlay: false});
    board.el.classList.add('static');
    board.el.querySelectorAll('button').forEach((e) => e.setAttribute('tabindex', '-1'));
    holder.append(board.el);
  } catch {
    // A game without a sample position simply has no picture.
  }
  return holder;
}

route(/^\/$/, 'home', async (main) => {
  main.append(h('section', {class: 'hero'},
    h('h1', {}, 'Games of grids and digits'),
    h('p', {}, 'Play against the computer, with a friend on this device, or online by sending a '
      + 'link — and watch others play.'), newcomerEntry(), onlineLine().line));
  const cards = h('div', {class: 'cards'});
  main.append(cards);
  const list = await games();
  const mods = await Promise.all(list.map((g) => boardModule(g.id)));
  for (const [k, g] of list.entries()) {
    const mod = mods[k];
    const title = g.title || mod.meta.title;
    const card = h('article', {class: 'card', 'data-game': g.id},
      h('h2', {}, h('a', {href: `#/game/${g.id}`}, title)),
      h('p', {}, mod.meta.pitch || g.description || ''),
      h('div', {class: 'row'},
        h('a', {class: 'btn primary', href: `#/game/${g.id}`, 'aria-label': `Play ${title}`}, 'Play'),
        h('a', {class: 'btn', href: `#/rules/${g.id}`, 'aria-label': `Rules of ${title}`}, 'Rules')));
    cards.append(card);
    boardPicture(g.id).then((pic) => card.insertBefore(pic, card.children[1]));
  }
  const mine = h('section', {'aria-labelledby': 'mine-h'});
  main.append(mine);
  renderMyGames(mine);
});

async function renderMyGames(section) {
  // This browser's seats, and (signed in) the account's games from any browser.
  const {user} = await account();
  const bound = user ? (await api.myGames().catch(() => ({games: []}))).games.map((g) => g.id) : [];
  const ids = [...new Set([...myGameIds(), ...bound])].slice(0, 12);
  const found = await Promise.all(ids.map(async (id) => {
    try {
      return await api.game(id, Object.values(heldSeats(id))[0]);
    } catch {
      return null;  // a game the server no longer has
    }
  }));
  const ongoing = found.filter((g) => g && g.status === 'active');
  if (!ongoing.length) return;
  const items = await Promise.all(ongoing.map(async (g) => {
    const mod = await boardModule(g.game);
    const mine = g.view?.to_move !== null && (String(g.view?.to_move) in heldSeats(g.id)
      || (g.you || []).includes(g.view?.to_move));
    return h('li', {'data-game-id': g.id},
      h('strong', {}, g.title || mod.meta.title),
      h('span', {class: 'grow muted'}, `${g.moves.length} moves · ${mine ? 'your move' : 'waiting'}`
        + ` · ${ago(g.updated_at)}`),
      h('a', {class: 'btn small', href: `#/play/${g.id}`}, 'Continue'));
  }));
  section.append(h('h2', {class: 'section-title', id: 'mine-h'}, 'Your games in progress'),
    h('ul', {class: 'list'}, ...items));
}

// -- a game's page: how to play it ---------------------------------------------

route(/^\/game\/([\w-]+)$/, 'home', async (main, m) => {
  const id = m[1];
  const info = await gameInfo(id);
  const mod = await boardModule(info.id || id);
  const title = info.title || mod.meta.title;
  document.title = `${title} — sansu`;
  main.append(h('h1', {}, title), h('p', {class: 'muted'}, mod.meta.pitch || '',
    ' ', h('a', {href: `#/analysis/${info.id || id}`, 'data-action': 'analysis-board'},
      'Explore positions on the analysis board'),
    ['challenge', 'sumodoku'].includes(info.id || id)
      ? [' · ', h('a', {href: '#/trainer', 'data-action': 'trainer'}, 'Train Sudoku techniques')] : null));
  const offer = lessonOffer(info.id || id, title);
  if (offer) main.append(offer);
  main.append(h('div', {class: 'game-intro'}, await boardPicture(info.id || id),
    playForm(info, mod, (await catalog()).levels || ['easy'], await catalog())));
  const rules = h('section', {class: 'prose', id: 'rules'}, h('p', {class: 'muted'}, 'Loading the rules…'));
  main.append(h('h2', {class: 'section-title'}, 'Rules'), rules);
  loadRules(info.id || id, rules);
});

route(/^\/rules\/([\w-]+)$/, 'home', async (main, m) => {
  const info = await gameInfo(m[1]);
  const mod = await boardModule(info.id || m[1]);
  document.title = `How to play ${info.title || mod.meta.title} — sansu`;
  const rules = h('article', {class: 'prose'}, h('p', {class: 'muted'}, 'Loading the rules…'));
  main.append(h('p', {}, h('a', {class: 'btn', href: `#/game/${info.id || m[1]}`},
    `Play ${info.title || mod.meta.title}`)), rules);
  loadRules(info.id || m[1], rules);
});

route(/^\/reference\/([\w-]+)$/, 'home', async (main, m) => {
  const info = await gameInfo(m[1]);
  const mod = await boardModule(info.id || m[1]);
  const title = info.title || mod.meta.title;
  document.title = `${title}: reference for programmers — sansu`;
  const text = h('article', {class: 'prose'}, h('p', {class: 'muted'}, 'Loading the reference…'));
  main.append(h('p', {}, h('a', {class: 'btn', href: `#/rules/${info.id || m[1]}`},
    `How to play ${title}`)), text);
  loadRules(info.id || m[1], text, 'reference');
});

/** Draws a game's rules page (`what` = 'rules') or its reference for programmers into `target`. */
async function loadRules(id, target, what = 'rules') {
  try {
    const res = await fetch(`/api/catalog/${encodeURIComponent(id)}/${what}`,
      {headers: {Accept: 'text/markdown, text/plain'}});
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    target.innerHTML = renderMarkdown(await res.text());
    await drawDiagrams(target);
  } catch (error) {
    target.replaceChildren(errorNotice(`The ${what === 'rules' ? 'rules' : 'reference'} could `
      + `not be loaded: ${error.message}`));
  }
}

// -- the form that starts a game --------------------------------------------------

function label(spec) {
  const text = spec.name.replace(/_/g, ' ');
  return text[0].toUpperCase() + text.slice(1);
}

function optionField(spec) {
  const id = `opt-${spec.name}`;
  const help = spec.help ? h('small', {}, spec.help) : null;
  const kind = spec.kind || spec.type;
  let input;
  if (kind === 'bool' || kind === 'boolean' || typeof spec.default === 'boolean') {
    input = h('input', {type: 'checkbox', id, name: spec.name, checked: spec.default === true});
    return h('div', {class: 'field'}, h('label', {class: 'choice'}, input, label(spec)), help);
  }
  if (spec.choices && spec.choices.length) {
    input = h('select', {id, name: spec.name},
      ...spec.choices.map((c) => h('option', {value: c, selected: c === spec.default}, String(c))));
  } else if (kind === 'int' || kind === 'integer' || typeof spec.default === 'number') {
    input = h('input', {type: 'number', id, name: spec.name, value: spec.default ?? '',
      min: spec.low ?? undefined, max: spec.high ?? undefined});
  } else {
    input = h('input', {type: 'text', id, name: spec.name, value: spec.default ?? '',
      placeholder: 'default'});
  }
  return h('div', {class: 'field'}, h('label', {for: id}, label(spec)), input, help);
}

function readOptions(form, specs) {
  const out = {};
  for (const spec of specs) {
    const el = form.elements[spec.name];
    if (!el) continue;
    let value;
    if (el.type === 'checkbox') value = el.checked;
    else if (el.type === 'number') value = el.value === '' ? null : Number(el.value);
    else value = el.value === '' ? null : el.value;
    if (value !== null && value !== spec.default) out[spec.name] = value;
  }
  return out;
}

const SEAT_CHOICES = [
  ['here', 'You, on this device'],
  ['computer', 'The computer'],
  ['invite', 'A friend, by link'],
];

const CLOCKS = [
  ['', 'No clock'],
  ['180+2', '3 minutes + 2 s a move'],
  ['600+5', '10 minutes + 5 s a move'],
  ['1800+0', '30 minutes each'],
];

function playForm(info, mod, levels, cat = null) {
  const specs = info.options || [];
  const playersSpec = specs.find((o) => o.name === 'players');
  const status = h('div', {'aria-live': 'polite'});
  const name = (p) => mod.meta.playerName(p, null);
  const defaultLevel = levels.includes('easy') ? 'easy' : levels[0];
  const mode = h('fieldset', {class: 'modes'}, h('legend', {}, 'Play'),
    ...[['computer', 'Against the computer'], ['local', 'With a friend on this device'],
      ['online', 'With a friend online (send a link)']].map(([value, label], k) =>
      h('label', {class: 'choice', style: 'display:flex'},
        h('input', {type: 'radio', name: 'mode', value, checked: k === 0}), label)));
  const rated = levelRatings(cat, info.id);
  const levelSelect = h('select', {name: 'level', id: 'level'},
    ...levels.map((l) => h('option', {value: l, selected: l === defaultLevel},
      rated[l] ? `${l} (rated ${rated[l]})` : l)));
  const ratedBox = h('input', {type: 'checkbox', id: 'rated', name: 'rated', 'data-testid': 'rated'});
  const countSelect = playersSpec ? h('select', {name: 'players', id: 'players-count'},
    ...Array.from({length: (playersSpec.high ?? 5) - (playersSpec.low ?? 2) + 1}, (_, k) => {
      const n = (playersSpec.low ?? 2) + k;
      return h('option', {value: n, selected: n === playersSpec.default}, `${n} players`);
    })) : null;
  const sideSelect = h('select', {name: 'side', id: 'side'});
  const seatsBox = h('div', {class: 'seat-rows'});
  const clockSelect = h('select', {name: 'clock', id: 'clock'},
    ...CLOCKS.map(([v, label]) => h('option', {value: v}, label)));
  const optionSpecs = specs.filter((o) => o.name !== 'players' && o.name !== 'aids');
  const optionsBox = optionSpecs.length ? h('details', {class: 'options'},
    h('summary', {}, 'Game options'), ...optionSpecs.map(optionField)) : null;
  // Aids (hints, highlighting) follow the seats — on against the computer, off between
  // people — until the player sets them; then the box says what is sent.
  const aidsSpec = specs.find((o) => o.name === 'aids');
  let aidsTouched = false;
  const aidsBox = aidsSpec ? h('input', {type: 'checkbox', id: 'opt-aids', name: 'aids',
    'data-testid': 'aids', onchange: () => { aidsTouched = true; }}) : null;
  const aidsField = aidsBox ? h('div', {class: 'field'},
    h('label', {class: 'choice'}, aidsBox, 'Aids: hints and highlighting'),
    h('small', {}, aidsSpec.help || 'hints on request; changes no rule')) : null;
  const form = h('form', {class: 'panel play-form', 'aria-label': `Start a game of ${mod.meta.title}`},
    mode,
    countSelect ? h('div', {class: 'field'}, h('label', {for: 'players-count'}, 'Players'), countSelect)
      : null,
    h('div', {class: 'field', 'data-for': 'computer'}, h('label', {for: 'level'}, 'Computer level'),
      levelSelect),
    h('div', {class: 'field', 'data-for': 'computer'}, h('label', {for: 'side'}, 'You play'), sideSelect),
    h('details', {class: 'seats-editor'}, h('summary', {}, 'Seats'), seatsBox),
    h('div', {class: 'field', 'data-for': 'online'}, h('label', {for: 'clock'}, 'Clock'), clockSelect),
    h('div', {class: 'field', 'data-for': 'online'}, h('label', {class: 'choice'}, ratedBox,
      'Rated (both players signed in; no takebacks)')),
    h('div', {class: 'field', 'data-for': 'online'}, h('label', {class: 'choice'},
      h('input', {type: 'checkbox', id: 'watchable', name: 'watchable', checked: true}),
      'Others may watch by link')),
    aidsField,
    optionsBox,
    h('div', {class: 'row', style: 'margin-top:.6rem'},
      h('button', {type: 'submit', class: 'btn primary', 'data-action': 'start'}, 'Start the game')),
    status);

  const count = () => (countSelect ? Number(countSelect.value) : (info.players || 2));
  const fillSides = () => {
    const keep = sideSelect.value;
    sideSelect.replaceChildren(...Array.from({length: count()}, (_, p) => h('option', {value: p},
      `${name(p)}${p === 0 ? ' (moves first)' : ''}`)), h('option', {value: 'random'}, 'Any, at random'));
    if ([...sideSelect.options].some((o) => o.value === keep)) sideSelect.value = keep;
  };
  const fillSeats = () => {
    const m = form.elements.mode.value;
    const mine = sideSelect.value === 'random' ? -1 : Number(sideSelect.value || 0);
    seatsBox.replaceChildren(...Array.from({length: count()}, (_, p) => {
      let choice = 'here';
      if (m === 'computer') choice = p === mine || (mine < 0 && p === 0) ? 'here' : 'computer';
      if (m === 'online') choice = p === 0 ? 'here' : 'invite';
      return h('div', {class: 'field'}, h('label', {for: `seat-${p}`}, name(p)),
        h('select', {id: `seat-${p}`, name: `seat-${p}`, 'data-seat': p},
          ...SEAT_CHOICES.map(([v, label]) => h('option', {value: v, selected: v === choice}, label))));
    }));
  };
  const sync = (e) => {
    if (!e || e.target === countSelect) fillSides();
    if (!e || !e.target.name?.startsWith('seat-')) fillSeats();
    const m = form.elements.mode.value;
    form.querySelectorAll('[data-for]').forEach((el) => { el.hidden = el.dataset.for !== m; });
    if (aidsBox && !aidsTouched) {
      aidsBox.checked = [...seatsBox.querySelectorAll('select')].some((s) => s.value === 'computer');
    }
  };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = readOptions(form, optionSpecs);
    if (countSelect) options.players = count();
    if (aidsBox) options.aids = aidsBox.checked;
    let choices = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    if (sideSelect.value === 'random' && form.elements.mode.value === 'computer') {
      const pick = Math.floor(Math.random() * count());
      choices = choices.map((_, p) => (p === pick ? 'here' : 'computer'));
    }
    const seats = choices.map((c) => (c === 'computer'
      ? {kind: 'computer', level: levelSelect.value} : {kind: 'human'}));
    const take = choices.map((c, p) => (c === 'here' ? p : -1)).filter((p) => p >= 0);
    if (!take.length) {
      status.replaceChildren(errorNotice('Take at least one seat yourself.'));
      return;
    }
    const body = {game: info.id, options, seats, take};
    // A game for a friend is private: only its invitation link (with its secret) joins it.
    if (choices.includes('invite')) {
      body.private = true;
      body.watchable = form.elements.watchable.checked;
    }
    const clock = clockSelect.value;
    if (clock && choices.includes('invite')) {
      const [initial, increment] = clock.split('+').map(Number);
      body.time_control = {initial_seconds: initial, increment_seconds: increment};
    }
    const name = localStorage.getItem('sansu.name');
    if (name) body.name = name;
    status.replaceChildren(h('p', {class: 'muted'}, 'Setting up the game…'));
    try {
      if (ratedBox.checked && form.elements.mode.value === 'online') body.casual = false;
      const id = await createGame(body);
      go(`#/play/${id}`);
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });
  return form;
}

/** Creates a game and keeps the token of the seats taken; answers the game's id. */
export async function createGame(body) {
  const res = await api.create(body);
  if (res.token) keepSeats(res.id, res.seats, res.token);
  if (res.join_secret) keepInvite(res.id, res.join_secret);
  return res.id;
}
