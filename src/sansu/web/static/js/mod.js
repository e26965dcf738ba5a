// The moderators' page (#/mod): the reports queue (open ones first, a reported message
// with the few before it in its room), an account's lookup with what a moderator may do
// to it (close, reopen, rename, mark engine use), and the audit log. Every action asks
// for a reason, which the audit log keeps. The "Moderation" link in the top bar shows
// only to a signed-in moderator or admin; the server refuses everyone else anyway.

import {confirmDialog} from './dialog.js';
import {h, installStyle} from './kit.js';
import {route} from './router.js';
import {call} from './session.js';
import {announce, errorNotice} from './ui.js';

const CSS = `
.topnav a[data-nav="mod"][hidden] { display: none; }
.mod-page section { margin-block: 1rem; }
.mod-list { list-style: none; padding: 0; display: grid; gap: .8rem; }
.mod-report h3 { margin: 0 0 .3rem; font-size: 1.05rem; }
.mod-report[data-status="closed"] { opacity: .85; }
.mod-report blockquote { margin: .4rem 0; padding-left: .7rem; border-left: 3px solid var(--border); }
.mod-context { margin: .4rem 0; padding-left: 1.2rem; }
.mod-context .reported { font-weight: 600; }
.mod-actions { display: flex; flex-wrap: wrap; gap: .4rem; margin-top: .4rem; }
.mod-form .field input { width: 100%; max-width: 24rem; }
.mod-account dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .4rem 0; }
.mod-account dt { color: var(--muted); }
.mod-account dd { margin: 0; }
.mod-audit { padding-left: 1.2rem; }
.mod-audit li { margin-block: .3rem; overflow-wrap: anywhere; }
`;
installStyle('mod', CSS);

const enc = encodeURIComponent;
const WHAT = {
  close: 'closed the account of', reopen: 'reopened the account of', rename: 'renamed',
  engine: 'marked engine use by', unengine: 'took the engine mark off', grant: 'set the role of',
  remove_message: 'removed a message of', close_report: 'closed a report on',
};
let forms = 0;

function when(at) {
  return new Date(at * 1000).toLocaleString();
}

/** The top bar's "Moderation" link, shown to a signed-in moderator or admin only. It asks
 * the server itself: the shared `account()` is read once and kept, and reading it as the
 * app starts would keep an account signed in later elsewhere (another tab) unseen. */
async function showLink() {
  const link = document.querySelector('[data-nav="mod"]');
  if (!link) return;
  try {
    const r = await fetch('/api/account', {headers: {Accept: 'application/json'}});
    const me = r.ok ? await r.json() : null;
    link.hidden = !me?.user?.role;
  } catch {
    link.hidden = true;
  }
}
showLink();
window.addEventListener('hashchange', showLink);

/** A form of one reason (required) and buttons; `act(button name, reason)` runs the
 * one pressed. `extra`: more fields. */
function actionForm(label, buttons, act, extra = []) {
  const id = `mod-reason-${++forms}`;
  const reason = h('input', {id, name: 'reason', type: 'text', required: true, maxlength: 200,
    autocomplete: 'off'});
  const status = h('p', {class: 'mod-status', role: 'status'});
  const form = h('form', {class: 'mod-form'},
    h('div', {class: 'field'}, h('label', {for: id}, label), reason), ...extra,
    h('div', {class: 'mod-actions'}, ...buttons), status);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.textContent = '';
    try {
      await act(e.submitter?.name, reason.value.trim());
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });
  return form;
}

function button(name, text, primary = false) {
  return h('button', {type: 'submit', name, class: primary ? 'btn small primary' : 'btn small',
    'data-action': name}, text);
}

class ModPage {
  constructor(main, me) {
    this.main = main;
    this.csrf = me.csrf_token;
    this.queue = h('ul', {class: 'mod-list', 'data-testid': 'mod-reports'});
    this.status = h('select', {id: 'mod-status'},
      h('option', {value: 'open'}, 'Open'), h('option', {value: 'closed'}, 'Closed'),
      h('option', {value: 'all'}, 'All'));
    this.status.addEventListener('change', () => this.reports());
    this.found = h('div', {class: 'mod-account', 'data-testid': 'mod-account', 'aria-live': 'polite'});
    this.log = h('ol', {class: 'mod-audit', 'data-testid': 'mod-audit'});
    this.name = h('input', {id: 'mod-name', name: 'name', type: 'text', required: true,
      maxlength: 20, autocomplete: 'off'});
    const lookup = h('form', {class: 'mod-form', role: 'search'},
      h('div', {class: 'field'}, h('label', {for: 'mod-name'}, 'Account name'), this.name),
      h('button', {type: 'submit', class: 'btn small'}, 'Look up'));
    lookup.addEventListener('submit', (e) => { e.preventDefault(); this.lookUp(this.name.value.trim()); });
    main.append(h('div', {class: 'mod-page'},
      h('h1', {}, 'Moderation'),
      h('section', {'aria-labelledby': 'mod-reports-h'}, h('h2', {id: 'mod-reports-h'}, 'Reports'),
        h('div', {class: 'field'}, h('label', {for: 'mod-status'}, 'Show'), this.status), this.queue),
      h('section', {'aria-labelledby': 'mod-account-h'}, h('h2', {id: 'mod-account-h'}, 'Accounts'),
        lookup, this.found),
      h('section', {'aria-labelledby': 'mod-audit-h'}, h('h2', {id: 'mod-audit-h'}, 'Audit log'),
        this.log)));
  }

  post(path, body) {
    return call('POST', path, body, this.csrf);
  }

  async refresh() {
    await Promise.all([this.reports(), this.audit()]);
    if (this.shown) await this.lookUp(this.shown);  // its open reports may have changed
  }

  async reports() {
    const {reports} = await call('GET', `/api/mod/reports?status=${this.status.value}`);
    this.queue.replaceChildren(...reports.map((r) => this.report(r)));
    if (!reports.length) this.queue.append(h('li', {class: 'muted'}, 'No report here.'));
  }

  report(r) {
    const about = r.kind === 'message' ? 'A chat message' : 'An account';
    const item = h('li', {class: 'panel mod-report', 'data-report': r.id, 'data-status': r.status},
      h('h3', {}, `${about} · ${r.category.replace('_', ' ')} · ${r.status}`),
      h('p', {}, `${r.reporter} reported `, r.target ? h('strong', {}, r.target) : 'a guest',
        h('span', {class: 'muted'}, ` · ${when(r.at)}`)),
      r.text ? h('blockquote', {}, r.text) : null,
      r.message ? this.context(r.message) : null);
    if (r.status === 'closed') {
      item.append(h('p', {class: 'muted'}, `Closed by ${r.closed_by}: ${r.resolution}`));
      return item;
    }
    const buttons = [button('close_report', 'Close the report', true)];
    if (r.message && !r.message.removed) buttons.unshift(button('remove', 'Remove the message'));
    if (r.target_id) {
      buttons.push(h('button', {type: 'button', class: 'btn small', 'data-action': 'look',
        onclick: () => this.lookUp(r.target)}, `Look up ${r.target}`));
    }
    item.append(actionForm('Reason or resolution', buttons, async (pressed, reason) => {
      if (pressed === 'remove') {
        await this.post(`/api/mod/messages/${r.message.id}/remove`, {reason});
        announce('The message is removed.');
      } else {
        await this.post(`/api/mod/reports/${r.id}/close`, {resolution: reason});
        announce('The report is closed.');
      }
      await this.refresh();
    }));
    return item;
  }

  context(m) {
    const line = (x, reported = false) => h('li', {class: reported ? 'reported' : ''},
      `${x.name}: ${x.text}`, x.removed ? h('span', {class: 'muted'}, ' (removed)') : null);
    return h('div', {},
      h('ol', {class: 'mod-context', 'aria-label': 'The message and the ones before it'},
        ...m.before.map((x) => line(x)), line(m, true)),
      h('p', {}, h('a', {href: `#/watch/${enc(m.game)}`}, 'The game')));
  }

  async lookUp(name) {
    if (!name) return;
    this.name.value = name;
    try {
      const {user} = await call('GET', `/api/mod/users/${enc(name)}`);
      this.showAccount(user);
    } catch (error) {
      this.found.replaceChildren(errorNotice(error.message));
    }
  }

  showAccount(u) {
    this.shown = u.name;
    const newName = h('input', {id: 'mod-new-name', name: 'new_name', type: 'text', maxlength: 20,
      autocomplete: 'off', 'aria-describedby': 'mod-new-name-help'});
    const buttons = [
      u.closed ? button('reopen', 'Reopen the account') : button('close', 'Close the account', true),
      button('rename', 'Rename'),
      u.engine ? button('unengine', 'Take the engine mark off') : button('engine', 'Mark engine use'),
    ];
    const path = `/api/mod/users/${enc(u.name)}`;
    const form = actionForm('Reason', buttons, async (pressed, reason) => {
      if (pressed === 'close' && !await confirmDialog({title: `Close ${u.name}'s account?`,
        text: ['It can no longer sign in, and its sessions end now.',
          'Its seeks and challenges go, and its games in play are resigned.'],
        yes: 'Close the account', no: 'Keep it open', testid: 'mod-confirm'})) return;
      const body = {reason};
      if (pressed === 'rename') body.name = newName.value.trim() || null;
      if (pressed === 'engine' || pressed === 'unengine') body.on = pressed === 'engine';
      const action = pressed === 'unengine' ? 'engine' : pressed;
      const {user} = await this.post(`${path}/${action}`, body);
      announce(`Done: ${user.name}.`);
      this.shown = user.name;
      await this.refresh();
    }, [h('div', {class: 'field'}, h('label', {for: 'mod-new-name'}, 'New name (to rename)'), newName,
      h('small', {id: 'mod-new-name-help'}, 'Empty: a neutral name. The player may then choose one, once.'))]);
    this.found.replaceChildren(h('div', {class: 'panel', 'data-account': u.name},
      h('h3', {}, h('a', {href: `#/@/${enc(u.name)}`}, u.name)),
      h('dl', {},
        h('dt', {}, 'Status'), h('dd', {'data-testid': 'mod-account-status'}, u.closed ? 'closed' : 'open'),
        h('dt', {}, 'Role'), h('dd', {}, u.role || 'player'),
        h('dt', {}, 'Engine mark'), h('dd', {}, u.engine ? 'yes' : 'no'),
        h('dt', {}, 'Open reports'), h('dd', {}, String(u.open_reports)),
        h('dt', {}, 'Member since'), h('dd', {}, when(u.created_at))),
      form));
  }

  async audit() {
    const {entries} = await call('GET', '/api/mod/audit?limit=50');
    this.log.replaceChildren(...entries.map((e) => {
      const {reason, resolution, ...rest} = e.detail;
      const more = Object.entries(rest).map(([k, v]) => `${k}: ${v}`).join(', ');
      return h('li', {'data-action': e.action},
        h('span', {class: 'muted'}, `${when(e.at)} · `), h('strong', {}, e.actor),
        ` ${WHAT[e.action] || e.action} ${e.target || ''}`,
        reason || resolution ? `: “${reason || resolution}”` : '',
        more ? h('span', {class: 'muted'}, ` (${more})`) : null);
    }));
    if (!entries.length) this.log.append(h('li', {class: 'muted'}, 'Nothing yet.'));
  }
}

async function modPage(main) {
  document.title = 'Moderation — sansu';
  const me = await call('GET', '/api/account');
  if (!me.user?.role) {
    main.append(h('h1', {}, 'Moderation'),
      h('p', {}, 'This page is for moderators. ', h('a', {href: '#/account'}, 'Sign in'),
        ' with a moderator\'s account.'));
    return;
  }
  const page = new ModPage(main, me);
  try {
    await page.refresh();
  } catch (error) {
    main.append(errorNotice(error.message));
  }
}

route(/^\/mod$/, 'mod', (main) => modPage(main));
