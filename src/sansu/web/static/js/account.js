// The account page: sign up, log in, log out, change the password. Accounts
// are optional (games work without one). The session lives in an HttpOnly
// cookie the page never sees; every write the cookie authenticates carries
// the session's CSRF token, which only this site's pages can read from the
// server's answers.

import {accountForm, field} from './account_forms.js';
import {emailState, forgotLink, ownershipPanels} from './account_email.js';
import {botBadge, botPanels} from './bot_account.js';
import {h} from './kit.js';
import {go, route} from './router.js';
import {call} from './session.js';

async function draw(main, message, signedIn = null) {
  const [me, email] = await Promise.all([call('GET', '/api/account'), emailState()]);
  const redraw = (text) => draw(main, text);
  // After logging in or signing up from another page's link, back to that page.
  const enter = signedIn || redraw;
  main.replaceChildren(h('h1', {}, 'Account'));
  if (message) main.append(h('p', {class: 'notice', role: 'status'}, message));
  if (me.user) {
    main.append(
      h('p', {}, 'Signed in as ', h('strong', {'data-testid': 'account-name'}, me.user.name),
        me.user.bot ? ' ' : '', me.user.bot ? botBadge() : '', '. ',
        h('a', {href: `#/@/${encodeURIComponent(me.user.name)}`}, 'Your profile'), ' · ',
        h('a', {href: '#/following'}, 'Following'), ' · ',
        h('a', {href: '#/settings'}, 'Settings')),
      ...await botPanels(me, redraw),
      ...(me.user.rename_once ? [accountForm('rename', 'Choose your name', [
        field('rename-name', 'A moderator renamed this account: you may choose a name, once',
          {name: 'name', autocomplete: 'username', required: true, minlength: 2, maxlength: 20,
            pattern: '[A-Za-z0-9_\\-]{2,20}'}),
      ], 'Choose this name', (v) => call('POST', '/api/account/name', v, me.csrf_token)
        .then((r) => `Your name is now ${r.user.name}.`), redraw)] : []),
      accountForm('logout', 'Log out', [], 'Log out',
        () => call('POST', '/api/account/logout', undefined, me.csrf_token).then(() => 'Logged out.'),
        redraw),
      accountForm('password', 'Change the password', [
        field('current-password', 'Current password',
          {name: 'current_password', type: 'password', autocomplete: 'current-password', required: true}),
        field('new-password', 'New password (8 characters or more)',
          {name: 'new_password', type: 'password', autocomplete: 'new-password', required: true,
            minlength: 8}),
      ], 'Change the password',
      (v) => call('POST', '/api/account/password', v, me.csrf_token)
        .then(() => 'Password changed; your other sessions were logged out.'), redraw),
      ...ownershipPanels(me, email, redraw));
    return;
  }
  main.append(
    h('p', {class: 'muted'}, 'An account is optional: every game can be played without one. ',
      h('a', {href: '#/settings'}, 'Settings'), ' (theme, boards, sounds, zen mode) are kept in '
      + 'this browser.'),
    accountForm('login', 'Log in', [
      field('login-name', 'User name', {name: 'name', autocomplete: 'username', required: true}),
      field('login-password', 'Password',
        {name: 'password', type: 'password', autocomplete: 'current-password', required: true}),
      forgotLink(email),
    ], 'Log in', (v) => call('POST', '/api/account/login', v).then((r) => `Welcome back, ${r.user.name}.`),
    enter),
    accountForm('signup', 'Sign up', [
      field('signup-name', 'User name (2–20 letters, digits, _ or -)',
        {name: 'name', autocomplete: 'username', required: true, minlength: 2, maxlength: 20,
          pattern: '[A-Za-z0-9_\\-]{2,20}'}),
      field('signup-password', 'Password (8 characters or more)',
        {name: 'password', type: 'password', autocomplete: 'new-password', required: true,
          minlength: 8}),
      h('div', {class: 'field'}, h('label', {},
        h('input', {type: 'checkbox', name: 'bot', id: 'signup-bot'}),
        ' Bot account (a program plays it through the bot API)')),
    ], 'Sign up', (v) => call('POST', '/api/account/signup', {...v, bot: v.bot === 'on'})
      .then((r) => `Welcome, ${r.user.name}.`),
    enter));
}

/** Where to go back to after logging in: a page of this site (`#/…`) only. */
function backTo(query) {
  const next = query.get('next') || '';
  return /^#\/[\w/@-]*$/.test(next) ? next : null;
}

route(/^\/account$/, 'account', (main, m, query) => {
  const next = backTo(query);
  return draw(main, '', next ? (message) => { go(next); return message; } : null);
});
