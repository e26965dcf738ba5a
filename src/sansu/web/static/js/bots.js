// Bots: the "challenge a bot" list (#/bots) and a bot's profile with its challenge
// form (#/bot/<name>, the form is challenge.js's); the account page's bot panels are
// in bot_account.js. A challenge is answered by the bot's program.

import {botBadge} from './bot_account.js';
import {challengeForm, twoPlayerGames} from './challenge.js';
import {h, installStyle} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';

installStyle('bots', `
.bot-list { list-style: none; padding: 0; }
.bot-list li { padding: .4rem 0; }
.bot-list .online { font-weight: 600; }
`);

function botLink(bot) {
  return h('li', {class: 'bot-item'},
    h('a', {href: `#/bot/${encodeURIComponent(bot.name)}`, 'data-bot': bot.name}, bot.name), ' ',
    botBadge(), ' ',
    h('span', {class: bot.online ? 'online' : 'muted'}, bot.online ? 'online' : 'offline'));
}

route(/^\/bots$/, 'bots', async (main) => {
  main.append(h('h1', {}, 'Challenge a bot'),
    h('p', {class: 'muted'}, 'Programs playing online. Pick one to challenge it; ',
      'online bots answer at once. Run your own with ', h('code', {}, 'sansu bot'), '.'));
  const {bots} = await call('GET', '/api/bots');
  if (!bots.length) {
    main.append(h('p', {}, 'No bot has an account here yet.'));
    return;
  }
  main.append(h('ul', {class: 'bot-list', 'data-testid': 'bot-list'}, ...bots.map(botLink)));
});

route(/^\/bot\/([\w-]+)$/, 'bots', async (main, m) => {
  const name = m[1];
  const {bots} = await call('GET', '/api/bots');
  const bot = bots.find((b) => b.name.toLowerCase() === name.toLowerCase());
  if (!bot) {
    main.append(h('h1', {}, 'No such bot'), h('p', {}, h('a', {href: '#/bots'}, 'All bots')));
    return undefined;
  }
  main.append(h('h1', {}, h('span', {'data-testid': 'bot-name'}, bot.name), ' ', botBadge()),
    h('p', {}, bot.online ? 'Online: it answers challenges now.' : 'Offline for now.'));
  const me = await call('GET', '/api/account');
  if (!me.user) {
    main.append(h('p', {}, h('a', {href: '#/account'}, 'Log in'), ' to challenge this bot.'));
    return undefined;
  }
  if (me.user.bot) {
    main.append(h('p', {class: 'muted'}, 'A bot account challenges through the bot API.'));
    return undefined;
  }
  if (!bot.online) {
    // Nothing would answer: a challenge waits for a bot whose program is running.
    main.append(h('p', {class: 'muted', 'data-testid': 'bot-offline'},
      `${bot.name} can be challenged when its program is running again.`));
    return undefined;
  }
  const {form, stop} = challengeForm(bot.name, await twoPlayerGames(), me);
  main.append(form);
  return stop;
});
