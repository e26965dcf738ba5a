// Bot accounts: the BOT badge marking a bot's name wherever it is shown, and the
// account page's panels for becoming a bot or managing a bot's API tokens. Apart
// from the bots pages so that the account page does not import another page.

import {h, installStyle} from './kit.js';
import {call} from './session.js';
import {copyText, errorNotice} from './ui.js';

installStyle('bot-account', `
.bot-badge { display: inline-block; padding: 0 .35em; border-radius: .3em; font-size: .75em;
  font-weight: 700; letter-spacing: .05em; vertical-align: middle;
  background: var(--accent); color: var(--accent-fg); }
.token-list { padding-left: 1.2rem; }
.token-list li { margin: .3rem 0; }
`);

/** The BOT badge shown beside a bot account's name. */
export function botBadge() {
  return h('span', {class: 'bot-badge', title: 'a program playing through the bot API'}, 'BOT');
}

/** The account page's bot panels: becoming a bot, or a bot's API tokens. */
export async function botPanels(me, redraw) {
  if (!me.user.bot) {
    const button = h('button', {type: 'button', class: 'btn'}, 'Make this a bot account');
    const status = h('div', {'aria-live': 'polite'});
    button.addEventListener('click', async () => {
      try {
        await call('POST', '/api/account/bot', undefined, me.csrf_token);
        await redraw('This is now a bot account.');
      } catch (error) {
        status.replaceChildren(errorNotice(error.message));
      }
    });
    return [h('section', {class: 'panel', 'aria-labelledby': 'become-bot-h'},
      h('h2', {id: 'become-bot-h'}, 'Bot account'),
      h('p', {class: 'muted'}, 'A bot account is played by a program through the bot API ',
        '(see docs/bots.md), never from a browser. Only an account that has not played yet ',
        'can become one, for good.'), status, button)];
  }
  const {tokens} = await call('GET', '/api/account/tokens');
  const shown = h('div', {'aria-live': 'polite', 'data-testid': 'token-shown'});
  const list = h('ul', {class: 'token-list'}, ...tokens.map((t) => {
    const revoke = h('button', {type: 'button', class: 'btn', 'data-revoke': t.id}, 'Revoke');
    revoke.addEventListener('click', async () => {
      try {
        await call('DELETE', `/api/account/tokens/${t.id}`, undefined, me.csrf_token);
        await redraw(`Token "${t.label}" revoked.`);
      } catch (error) {
        shown.replaceChildren(errorNotice(error.message));
      }
    });
    return h('li', {}, `${t.label} `, h('span', {class: 'muted'},
      `(made ${new Date(t.created_at * 1000).toLocaleDateString()})`), ' ', revoke);
  }));
  const label = h('input', {id: 'token-label', name: 'label', required: true, maxlength: 40});
  const form = h('form', {class: 'panel', 'aria-labelledby': 'tokens-h'},
    h('h2', {id: 'tokens-h'}, 'API tokens'),
    h('p', {class: 'muted'}, 'A token lets a program play as this bot: ',
      h('code', {}, 'sansu bot --token-file FILE'), '. It is shown once, when made.'),
    tokens.length ? list : h('p', {}, 'No token yet.'),
    h('div', {class: 'field'}, h('label', {for: 'token-label'}, 'Label of a new token'), label),
    shown,
    h('button', {type: 'submit', class: 'btn primary'}, 'Create a token'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await call('POST', '/api/account/tokens', {label: label.value}, me.csrf_token);
      await redraw('Token created: copy it now, it will not be shown again.');
      const again = document.querySelector('[data-testid=token-shown]');
      const note = h('span', {'aria-live': 'polite', 'data-testid': 'copy-note'});
      const copy = h('button', {type: 'button', class: 'btn small', 'data-action': 'copy-token',
        onclick: async () => {
          note.textContent = (await copyText(made.token)) ? 'Copied.' : 'Select the token and copy it.';
        }}, 'Copy');
      again?.replaceChildren(h('p', {}, 'Your new token: ',
        h('code', {'data-testid': 'new-token'}, made.token), ' ', copy, ' ', note));
    } catch (error) {
      shown.replaceChildren(errorNotice(error.message));
    }
  });
  return [form];
}
