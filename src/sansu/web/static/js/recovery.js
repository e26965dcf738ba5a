// The pages a mailed link opens, and the one that asks for it: #/forgot (a reset link
// for a name or an address), #/reset/TOKEN (a new password) and #/verify/TOKEN (an
// address verified). The token lives in the link's fragment, which the browser never
// sends to a server; the page takes it out of the address bar and history at once and
// posts it in a request's body.

import {accountForm, field} from './account_forms.js';
import {h, installStyle} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';
import {errorNotice} from './ui.js';

const CSS = `
.recovery { max-width: 34rem; }
.recovery .panel { margin-bottom: 1rem; }
`;

/** The token of the address bar's link, which then leaves the address bar and history. */
function takeToken(match, page) {
  history.replaceState(null, '', `#/${page}`);
  return decodeURIComponent(match[1]);
}

function page(main, title) {
  installStyle('recovery', CSS);
  const body = h('div', {class: 'recovery'});
  main.replaceChildren(h('h1', {}, title), body);
  return body;
}

function done(body, text) {
  body.replaceChildren(h('p', {class: 'notice', role: 'status', 'data-testid': 'recovery-done'},
    text), h('p', {}, h('a', {href: '#/account'}, 'Go to the account page')));
}

route(/^\/forgot$/, 'account', async (main) => {
  const body = page(main, 'Forgot password');
  const state = await call('GET', '/api/account/email').catch(() => ({configured: false}));
  if (!state.configured) {
    body.append(h('p', {}, 'This server sends no mail, so a password cannot be reset by mail. '
      + 'Ask the server\'s administrator.'));
    return;
  }
  body.append(h('p', {}, 'A link to set a new password goes to the account\'s verified '
    + 'address. It works for an hour, once.'),
  accountForm('forgot', 'Send a reset link', [
    field('forgot-who', 'User name or email address',
      {name: 'who', autocomplete: 'username', required: true, maxlength: 254}),
  ], 'Send the link', (v) => call('POST', '/api/account/reset/request', v).then((r) => r.message),
  (message) => done(body, message)));
});

route(/^\/reset\/([A-Za-z0-9_%-]+)$/, 'account', (main, match) => {
  const token = takeToken(match, 'reset');
  const body = page(main, 'Set a new password');
  body.append(accountForm('reset', 'New password', [
    field('reset-password', 'New password (8 characters or more)',
      {name: 'new_password', type: 'password', autocomplete: 'new-password', required: true,
        minlength: 8}),
  ], 'Set the password',
  (v) => call('POST', '/api/account/reset', {token, new_password: v.new_password})
    .then(() => 'Your password was set, and every session of the account was signed out: '
      + 'log in with the new password.'),
  (message) => done(body, message)));
});

route(/^\/verify\/([A-Za-z0-9_%-]+)$/, 'account', async (main, match) => {
  const token = takeToken(match, 'verify');
  const body = page(main, 'Verify the address');
  body.append(h('p', {role: 'status'}, 'Verifying…'));
  try {
    const r = await call('POST', '/api/account/email/verify', {token});
    done(body, `${r.email} is now the account's verified address.`);
  } catch (error) {
    body.replaceChildren(errorNotice(error.message),
      h('p', {}, h('a', {href: '#/account'}, 'Ask for a new link from the account page')));
  }
});

route(/^\/(?:reset|verify)$/, 'account', (main) => {
  page(main, 'Link used').append(h('p', {}, 'This page has done its work. ',
    h('a', {href: '#/account'}, 'Go to the account page')));
});
