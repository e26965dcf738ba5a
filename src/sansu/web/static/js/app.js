// The app shell: a hash router over the pages (home, a game's page with its
// rules and "Play" choices, a live game, the join page, games to watch, the
// archive and replays, the board gallery). Hash routes keep every link
// working from the static files alone: #/play/<game id> is a game to play,
// #/join/<game id> invites to a free seat.

import {renderGallery} from './gallery.js';
import {h} from './kit.js';
import {setupToggles} from './ui.js';

const routes = [];
let leave = null;

/** Registers a page: `pattern` is a RegExp over the hash path, `render(main, match, query)`. */
export function route(pattern, nav, render) {
  routes.push({pattern, nav, render});
}

/** Goes to a hash route (`#/…`). */
export function go(hash) {
  if (location.hash === hash) dispatch();
  else location.hash = hash;
}

async function dispatch() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, qs] = raw.split('?');
  const query = new URLSearchParams(qs || '');
  const main = document.getElementById('main');
  if (leave) {
    try { leave(); } catch { /* a page that failed to clean up must not block the next */ }
    leave = null;
  }
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    document.querySelectorAll('[data-nav]').forEach((a) => {
      if (a.dataset.nav === r.nav) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
    main.replaceChildren();
    try {
      const cleanup = await r.render(main, m, query);
      if (typeof cleanup === 'function') leave = cleanup;
    } catch (error) {
      console.error(error);
      main.append(h('p', {class: 'notice error', role: 'alert'},
        `Something went wrong: ${error.message || error}`));
    }
    return;
  }
  main.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, h('a', {href: '#/'}, 'Back to the games')));
}

route(/^\/gallery$/, 'gallery', async (main) => {
  const items = window.sansuGalleryItems || [];
  await renderGallery(main, items);
});

window.sansu = {
  async showGallery(items) {
    window.sansuGalleryItems = items;
    const main = document.getElementById('main');
    await renderGallery(main, items);
  },
};

async function start() {
  setupToggles();
  const pages = await Promise.allSettled([import('./home.js'), import('./play.js'),
    import('./lobby.js'), import('./account.js'), import('./seeks.js'),
    import('./bots.js'), import('./analysis.js'), import('./tournament.js'), import('./ratings.js')]);
  for (const p of pages) if (p.status === 'rejected') console.error(p.reason);
  window.addEventListener('hashchange', dispatch);
  await dispatch();
  document.documentElement.dataset.ready = 'true';
}

start();
