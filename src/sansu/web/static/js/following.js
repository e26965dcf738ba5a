// The #/following page: the players you follow, online first, with the game each plays
// now to watch, a Challenge button and Unfollow; then who else is online, the ones you
// follow first. The page asks the server again every few seconds while it is shown.

import {challengeForm, twoPlayerGames} from './challenge.js';
import {h} from './kit.js';
import {POLL_MS, enc, onlineDot, onlineLine, playerLink, watchLink} from './relations.js';
import {route} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const PAGE = 50;

function followedItem(f, actions) {
  return h('li', {'data-player': f.name, 'data-online': f.online ? 'true' : 'false'},
    h('span', {class: 'who'}, onlineDot(f.online), playerLink(f.name),
      f.bot ? h('span', {class: 'bot-mark'}, 'BOT') : null),
    watchLink(f.playing) || h('span', {class: 'muted'}, f.online ? 'online' : 'offline'),
    h('span', {class: 'actions'}, ...actions(f)));
}

async function followingPage(main) {
  document.title = 'Following — sansu';
  main.append(h('h1', {}, 'Following'));
  const me = await call('GET', '/api/account');
  if (!me.user) {
    main.append(h('p', {}, h('a', {href: '#/account'}, 'Log in'),
      ' to follow players and see when they are online.'));
    const {line, stop} = onlineLine();
    main.append(line);
    return stop;
  }
  const mine = h('section', {'aria-labelledby': 'following-h'},
    h('h2', {id: 'following-h', tabindex: '-1'}, 'Players you follow'));
  const list = h('div', {'data-testid': 'following-list'});
  const challenge = h('div', {'data-testid': 'challenge-area'});
  const online = h('section', {'aria-labelledby': 'online-h'},
    h('h2', {id: 'online-h'}, 'Who is online'));
  const onlineList = h('div', {'data-testid': 'online-list'});
  const status = h('div', {'aria-live': 'polite'});
  mine.append(status, list, challenge);
  online.append(onlineList);
  main.append(mine, online);
  let games = null;
  let stopChallenge = () => {};
  let shown = PAGE;
  let timer = null;
  let last = '';
  let pollFailed = false;  // the notice of a failed refresh goes once one succeeds

  async function openChallenge(name) {
    stopChallenge();
    games = games || await twoPlayerGames();
    const {form, stop} = challengeForm(name, games, me);
    stopChallenge = stop;
    challenge.replaceChildren(form);
    form.querySelector('select')?.focus();
  }

  async function unfollow(name) {
    try {
      await call('DELETE', `/api/users/${enc(name)}/follow`, undefined, me.csrf_token);
      announce(`You no longer follow ${name}.`);
      await refresh();
      mine.querySelector('h2').focus();  // the row and its button are gone
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  }

  const actions = (f) => [
    f.bot ? h('a', {class: 'btn small', href: `#/bot/${enc(f.name)}`}, 'Challenge')
      : h('button', {type: 'button', class: 'btn small', 'data-action': 'challenge',
        'aria-label': `Challenge ${f.name}`, onclick: () => openChallenge(f.name)}, 'Challenge'),
    h('button', {type: 'button', class: 'btn small', 'data-action': 'unfollow',
      'aria-label': `Unfollow ${f.name}`, onclick: () => unfollow(f.name)}, 'Unfollow'),
  ];

  function drawLists(followed, o) {
    list.replaceChildren(followed.following.length
      ? h('ul', {class: 'follow-list'}, ...followed.following.map((f) => followedItem(f, actions)))
      : h('p', {class: 'muted'}, 'You follow nobody yet: follow players from their profiles.'));
    const more = o.players > shown && shown < 100
      ? h('button', {type: 'button', class: 'btn small', 'data-action': 'more-online',
        onclick: () => { shown += PAGE; refresh(); }}, 'Show more')
      : null;
    onlineList.replaceChildren(
      h('p', {'data-testid': 'online-count'},
        `${o.players} player${o.players === 1 ? '' : 's'} online · ${o.games} game${o.games === 1 ? '' : 's'} in play`),
      h('ul', {class: 'follow-list'}, ...o.online.map((p) => h('li', {'data-player': p.name},
        h('span', {class: 'who'}, onlineDot(true), playerLink(p.name),
          p.bot ? h('span', {class: 'bot-mark'}, 'BOT') : null),
        p.you_follow ? h('span', {class: 'muted'}, 'you follow') : null))));
    if (more) onlineList.append(more);
  }

  async function refresh() {
    clearTimeout(timer);
    try {
      const [followed, o] = await Promise.all([call('GET', '/api/account/following'),
        call('GET', `/api/online?limit=${Math.min(shown, 100)}`)]);
      // Drawn again only when something changed, so that keyboard focus stays put.
      if (pollFailed) status.replaceChildren();
      pollFailed = false;
      const now = JSON.stringify([followed, o]);
      if (now !== last) {
        const focused = document.activeElement?.closest('li')?.dataset.player;
        const action = document.activeElement?.dataset.action;
        last = now;
        drawLists(followed, o);
        if (focused && action) {
          list.querySelector(`li[data-player="${CSS.escape(focused)}"] [data-action="${action}"]`)
            ?.focus();
        }
      }
    } catch (error) {
      pollFailed = true;
      status.replaceChildren(errorNotice(error.message));
    }
    if (main.isConnected) timer = setTimeout(refresh, POLL_MS);
  }
  await refresh();
  return () => { clearTimeout(timer); stopChallenge(); };
}

route(/^\/following$/, 'account', followingPage);
