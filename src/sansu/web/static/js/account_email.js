// The account page's ownership sections: the email address (set, changed, verified by
// the link mailed to it), the download of the account's data, and the account's
// deletion behind a confirm dialog. A server without mail (no --smtp) shows no email
// form and no "Forgot password?" link.

import {accountForm, field} from './account_forms.js';
import {confirmDialog} from './dialog.js';
import {h, installStyle} from './kit.js';
import {call} from './session.js';
import {errorNotice} from './ui.js';

const CSS = `
.email-state { margin: 0 0 .6rem; overflow-wrap: anywhere; }
.forgot { margin: 0 0 .6rem; }
.danger-zone { border-color: var(--danger); }
.danger-zone .btn.primary { background: var(--danger); border-color: var(--danger); }
`;

/** `GET /api/account/email`: whether mail is sent here, and the account's address. */
export async function emailState() {
  try {
    return await call('GET', '/api/account/email');
  } catch {
    return {configured: false};
  }
}

/** The sign-in form's "Forgot password?" link (nothing when the server sends no mail). */
export function forgotLink(email) {
  if (!email.configured) return '';
  installStyle('account-email', CSS);
  return h('p', {class: 'forgot'}, h('a', {href: '#/forgot', 'data-testid': 'forgot'},
    'Forgot password?'));
}

function shownState(email) {
  const now = email.email
    ? [h('strong', {'data-testid': 'email'}, email.email), ' (verified)']
    : ['No verified address: a forgotten password cannot be reset.'];
  const waiting = email.pending
    ? [h('br'), 'Waiting for verification: ', h('strong', {'data-testid': 'email-pending'},
      email.pending), ' (follow the link mailed to it).']
    : [];
  return h('p', {class: 'email-state', 'data-testid': 'email-state'}, ...now, ...waiting);
}

function emailPanel(me, email, redraw) {
  if (!email.configured) {
    return h('section', {class: 'panel', 'aria-labelledby': 'email-h'},
      h('h2', {id: 'email-h'}, 'Email address'),
      h('p', {class: 'muted'}, 'This server sends no mail: no address can be set, and a '
        + 'forgotten password cannot be reset by mail.'));
  }
  return accountForm('email', 'Email address', [
    shownState(email),
    field('email-new', email.email ? 'New address' : 'Address',
      {name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: 254}),
    field('email-password', 'Password',
      {name: 'password', type: 'password', autocomplete: 'current-password', required: true}),
  ], 'Send the verification link',
  (v) => call('POST', '/api/account/email', v, me.csrf_token)
    .then((r) => `A link was mailed to ${r.pending || v.email}: follow it to verify the address.`),
  redraw);
}

/** Downloads the account's data, with this browser's own settings added. */
async function download(status) {
  status.replaceChildren();
  try {
    const data = await call('GET', '/api/account/export');
    const browser = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith('sansu.')) browser[key] = localStorage.getItem(key);
    }
    data.browser_settings = browser;
    const blob = new Blob([JSON.stringify(data, null, 2)], {type: 'application/json'});
    const link = h('a', {href: URL.createObjectURL(blob),
      download: `sansu-${data.profile.name}.json`, hidden: true});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    status.replaceChildren(h('p', {role: 'status'}, 'Your data was downloaded.'));
  } catch (error) {
    status.replaceChildren(errorNotice(error.message));
  }
}

function exportPanel() {
  const status = h('div', {'aria-live': 'polite'});
  return h('section', {class: 'panel', 'aria-labelledby': 'export-h'},
    h('h2', {id: 'export-h'}, 'Your data'),
    h('p', {}, 'A JSON file of your profile, games, ratings, chat messages and settings.'),
    status,
    h('button', {type: 'button', class: 'btn', 'data-testid': 'export',
      onclick: () => download(status)}, 'Download my data'));
}

function deletePanel(me, redraw) {
  const ask = () => confirmDialog({
    title: 'Delete your account?',
    text: [`${me.user.name} will be gone for good: you will be signed out everywhere, your `
      + 'API tokens and address will stop working, and nobody can take the name again.',
    'Your games stay, under the name "deleted user".'],
    yes: 'Delete my account', no: 'Keep it', testid: 'delete-dialog'});
  return accountForm('delete', 'Delete the account', [
    h('p', {}, 'Your games stay for the other players; your name in them becomes '
      + '"deleted user N".'),
    field('delete-password', 'Password',
      {name: 'password', type: 'password', autocomplete: 'current-password', required: true}),
  ], 'Delete my account…',
  async (v) => {
    if (!await ask()) return null;
    const done = await call('POST', '/api/account/delete', v, me.csrf_token);
    return `The account was deleted; its games now name ${done.name}.`;
  }, redraw, {class: 'panel danger-zone'});
}

/** The signed-in account page's sections of ownership. */
export function ownershipPanels(me, email, redraw) {
  installStyle('account-email', CSS);
  return [emailPanel(me, email, redraw), exportPanel(), deletePanel(me, redraw)];
}
