// Lists of games: those being played now (to watch) and the archive of
// finished games (to replay, filter by game, download the record).

import {api} from './api.js';
import {games} from './catalog.js';
import {boardModule} from './games.js';
import {h} from './kit.js';
import {route} from './router.js';
import {ago, errorNotice} from './ui.js';

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function rows(data) {
  return Array.isArray(data) ? data : (data?.matches || data?.games || data?.items || []);
}

async function seatLine(m) {
  const mod = await boardModule(m.game);
  const seats = m.seats || [];
  return seats.map((s, k) => {
    const who = s.kind === 'computer' ? `computer${s.level ? ` (${s.level})` : ''}`
      : `${s.name || 'guest'}${s.bot ? ' (BOT)' : ''}`;
    return `${mod.meta.playerName(s.seat ?? k, null)}: ${who}`;
  }).join(' · ');
}

async function listItem(m, action) {
  const mod = await boardModule(m.game);
  const result = m.result || m.view?.result;
  let outcome = '';
  if (result) {
    outcome = result.draw ? 'draw' : `${(result.winners || []).map((p) => mod.meta.playerName(p, null))
      .join(' and ')} won`;
    const reason = (result.reason || '')
      .replace(/\bseat (\d+)/g, (_, s) => mod.meta.playerName(Number(s), null));
    if (reason) outcome += ` — ${reason}`;
  }
  return h('li', {'data-match': m.id},
    h('strong', {}, m.title || mod.meta.title),
    h('span', {class: 'grow muted'}, await seatLine(m),
      outcome ? h('span', {}, ` · ${outcome}`) : null,
      ` · ${plural(m.ply ?? (m.moves || []).length, 'move')}`,
      m.updated_at || m.finished_at || m.created_at ? ` · ${ago(m.finished_at || m.updated_at || m.created_at)}` : ''),
    action);
}

route(/^\/watch$/, 'watch', async (main) => {
  main.append(h('h1', {}, 'Games being played'));
  main.append(h('p', {}, h('a', {href: '#/bots', class: 'btn'}, 'Challenge a bot')));
  const holder = h('div', {'aria-live': 'polite'});
  // Games in play that nobody plays any more (a page closed for a while, no
  // move since) are kept apart: they are not being played, but not lost either.
  const left = h('section', {'data-testid': 'abandoned', 'aria-labelledby': 'abandoned-h', hidden: true});
  main.append(holder, left);
  const load = async () => {
    try {
      const [list, gone] = await Promise.all([api.list({status: 'active'}), api.list({status: 'abandoned'})]
        .map((p) => p.then(rows)));
      if (!list.length) {
        holder.replaceChildren(h('p', {class: 'muted'}, 'Nobody is playing right now.'));
      } else {
        const items = await Promise.all(list.map((m) => listItem(m,
          h('a', {class: 'btn small', href: `#/watch/${m.id}`}, 'Watch'))));
        holder.replaceChildren(h('ul', {class: 'list'}, ...items));
      }
      left.hidden = !gone.length;
      const items = await Promise.all(gone.map((m) => listItem(m,
        h('a', {class: 'btn small', href: `#/watch/${m.id}`}, 'Look'))));
      left.replaceChildren(
        h('h2', {class: 'section-title', id: 'abandoned-h'}, 'Left unfinished'),
        h('p', {class: 'muted'}, 'Nobody has moved or had these games open for a while.'
          + ' Their players can still go on by their link.'),
        h('ul', {class: 'list'}, ...items));
    } catch (error) {
      holder.replaceChildren(errorNotice(`The list of games is not available: ${error.message}`));
    }
  };
  await load();
  const timer = setInterval(load, 5000);
  return () => clearInterval(timer);
});

route(/^\/archive$/, 'archive', async (main, m, query) => {
  main.append(h('h1', {}, 'Finished games'));
  const list = await games();
  const filter = h('select', {id: 'archive-filter', class: 'wide'},
    h('option', {value: ''}, 'All games'),
    ...await Promise.all(list.map(async (g) => h('option', {value: g.id, selected: query.get('game') === g.id},
      g.title || (await boardModule(g.id)).meta.title))));
  const holder = h('div');
  main.append(h('div', {class: 'row', style: 'margin-bottom:.8rem'},
    h('label', {for: 'archive-filter'}, 'Show'), filter), holder);
  const load = async () => {
    holder.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    try {
      const found = rows(await api.list({status: 'archive', game: filter.value}));
      if (!found.length) {
        holder.replaceChildren(h('p', {class: 'muted'}, 'No finished games yet.'));
        return;
      }
      const items = await Promise.all(found.map((g) => listItem(g, h('span', {class: 'row'},
        h('a', {class: 'btn small', href: `#/replay/${g.id}`}, 'Replay'),
        h('a', {class: 'btn small', href: api.recordUrl(g.id), download: `sansu-${g.id}.json`},
          'Record')))));
      holder.replaceChildren(h('ul', {class: 'list'}, ...items));
    } catch (error) {
      holder.replaceChildren(errorNotice(`The archive is not available: ${error.message}`));
    }
  };
  filter.addEventListener('change', load);
  await load();
});
