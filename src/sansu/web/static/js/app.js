// The app's entry point: loads every page (home, a game's page with its rules
// and "Play" choices, a live game, the join page, games to watch, the archive
// and replays, the lobby, accounts, bots, analysis, tournaments, ratings, lessons, puzzles,
// moderation),
// each of which registers its routes with router.js, adds the board gallery,
// then starts the router. Nothing imports this module.

import {notificationSwitch} from './attention.js';
import {renderGallery} from './gallery.js';
import {startPlayingStrip} from './playing.js';
import {route, startRouter} from './router.js';
import {setupToggles} from './ui.js';
import {startWarmupBanner} from './warmup.js';

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
  const notify = notificationSwitch();
  document.getElementById('sound-toggle')?.before(...(notify ? [notify] : []));
  startPlayingStrip();
  startWarmupBanner();
  const pages = await Promise.allSettled([import('./home.js'), import('./play.js'),
    import('./lobby.js'), import('./account.js'), import('./seeks.js'),
    import('./bots.js'), import('./analysis.js'), import('./tournament.js'), import('./ratings.js'),
    import('./settings.js'), import('./learn.js'), import('./puzzles.js'), import('./trainer.js'),
    import('./following.js'), import('./recovery.js'), import('./mod.js')]);
  for (const p of pages) if (p.status === 'rejected') console.error(p.reason);
  await startRouter();
  document.documentElement.dataset.ready = 'true';
}

start();
