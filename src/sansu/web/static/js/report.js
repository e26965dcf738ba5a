// Reporting an account to the moderators from its profile: a "Report" button that
// opens a dialog (dialog.js's, so the keyboard stays inside it and Escape cancels)
// with a reason and a few words. The server keeps one open report per reporter and
// account and refuses a flood; its refusal is shown as it says it.

import {confirmDialog} from './dialog.js';
import {h, installStyle} from './kit.js';
import {call} from './session.js';
import {announce} from './ui.js';

const CATEGORIES = [['abuse', 'Abuse or insults'], ['offensive_name', 'Offensive name'],
  ['cheating', 'Cheating (engine use)'], ['spam', 'Spam'], ['other', 'Something else']];
const MAX_TEXT = 500;

const CSS = `
.report-fields textarea { width: 100%; min-height: 5rem; font: inherit; }
.report-status:empty { display: none; }
`;

/** Asks for a category and a few words, then files the report; what happened, in words
 * (null when the dialog was cancelled). */
async function reportAccount(name, csrf) {
  const category = h('select', {id: 'report-category', name: 'category', required: true},
    ...CATEGORIES.map(([value, label]) => h('option', {value}, label)));
  const text = h('textarea', {id: 'report-text', name: 'text', maxlength: MAX_TEXT,
    'aria-describedby': 'report-text-help'});
  const fields = h('div', {class: 'report-fields'},
    h('div', {class: 'field'}, h('label', {for: 'report-category'}, 'Why'), category),
    h('div', {class: 'field'}, h('label', {for: 'report-text'}, 'What happened'), text,
      h('small', {id: 'report-text-help'}, `At most ${MAX_TEXT} characters; a game's link helps.`)));
  const sure = await confirmDialog({title: `Report ${name}`,
    text: 'The moderators read every report. Reports are private: the player is not told who sent one.',
    yes: 'Send the report', no: 'Cancel', fields: [fields], testid: 'report-dialog'});
  if (!sure) return null;
  await call('POST', `/api/users/${encodeURIComponent(name)}/report`,
    {category: category.value, text: text.value}, csrf);
  return `Reported ${name}. Thank you: a moderator will look at it.`;
}

/** A "Report" button for the profile of `name`, with its status line; `me`: the
 * signed-in account ({user, csrf_token}). */
export function reportButton(name, me) {
  installStyle('report', CSS);
  const status = h('p', {class: 'report-status', role: 'status'});
  const button = h('button', {type: 'button', class: 'btn small', 'data-testid': 'report-account'},
    `Report ${name}`);
  button.addEventListener('click', async () => {
    status.textContent = '';
    try {
      const said = await reportAccount(name, me.csrf_token);
      if (said) { status.textContent = said; announce(said); }
    } catch (error) {
      status.textContent = error.message;
    }
  });
  return h('div', {class: 'report-account'}, button, status);
}
