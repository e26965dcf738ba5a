// The hash router: pages register their routes here, and links and code go
// from page to page through it. Hash routes keep every link working from the
// static files alone: #/play/<game id> is a game to play, #/join/<game id>
// invites to a free seat. Pages import this module, never app.js, so no page
// depends on the entry point that loads them all.

import {h} from './kit.js';

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

/** Draws the current route, then every route the hash changes to. */
export async function startRouter() {
  window.addEventListener('hashchange', dispatch);
  await dispatch();
}

let drawn = 0;  // how many routes were drawn: a page still drawing when the next one starts is stale

async function dispatch() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, qs] = raw.split('?');
  const query = new URLSearchParams(qs || '');
  // Each page draws into a main of its own, so that a page still drawing when the hash
  // changes again (a player taken to a new game at once) draws into a detached element.
  const old = document.getElementById('main');
  const main = old.cloneNode(false);
  old.replaceWith(main);
  const mine = ++drawn;
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
    try {
      const cleanup = await r.render(main, m, query);
      if (typeof cleanup !== 'function') return;
      if (mine === drawn) leave = cleanup;
      else cleanup();  // another page is shown already
    } catch (error) {
      console.error(error);
      main.append(h('p', {class: 'notice error', role: 'alert'},
        `Something went wrong: ${error.message || error}`));
    }
    return;
  }
  main.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, h('a', {href: '#/'}, 'Back to the games')));
}
