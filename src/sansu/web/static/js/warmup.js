// The first-start banner: while the server is still building the computer players'
// compiled code (on a fresh install, a minute or two), a line at the top of every
// page says so, with how far it is ("Preparing the computer players: 2 of 5").
// The computer plays meanwhile (a simpler search, in the same time), so nothing
// waits for it. It asks /api/health every few seconds and goes once it is ready
// (the page's <html data-warmup> tells the last answer: building or ready).

import {h, installStyle} from './kit.js';

const EVERY_MS = 3_000;

const CSS = `
.warmup-banner { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap;
  padding: .35rem max(1rem, env(safe-area-inset-left)); border-bottom: 1px solid var(--border);
  background: var(--surface); color: var(--fg); font-size: .9rem; }
.warmup-banner[hidden] { display: none; }
.warmup-banner progress { width: 8rem; max-width: 40vw; }
`;

let banner = null;

function show(status) {
  if (!banner) {
    installStyle('warmup', CSS);
    const text = h('span', {class: 'warmup-text'});
    const bar = h('progress', {'aria-hidden': 'true'});
    banner = h('div', {class: 'warmup-banner', role: 'status', id: 'warmup-banner'}, text, bar);
    document.querySelector('header.topbar')?.after(banner);
  }
  const {done, total} = status;
  banner.querySelector('.warmup-text').textContent =
    `Preparing the computer players: ${done} of ${total}`;
  const bar = banner.querySelector('progress');
  bar.max = total;
  bar.value = done;
  banner.hidden = false;
}

async function poll() {
  let status;
  try {
    const res = await fetch('/api/health', {headers: {Accept: 'application/json'}});
    status = res.ok ? (await res.json()).warmup : null;
  } catch {
    status = null;
  }
  if (status) document.documentElement.dataset.warmup = status.ready ? 'ready' : 'building';
  if (status && status.ready) {
    banner?.remove();
    banner = null;
    return;
  }
  if (status) show(status);
  setTimeout(poll, EVERY_MS);
}

/** Shows the banner for as long as the computer players are being prepared. */
export function startWarmupBanner() {
  poll();
}
