// A question asked before something that cannot be undone (a Sumodoku claim): a modal
// <dialog>, so the keyboard stays inside it, Escape answers "no", and screen readers
// read its heading and text. The focus starts on the safe answer and goes back to
// where it was once the dialog closes.

import {h, installStyle} from './kit.js';

const CSS = `
.confirm-dialog { max-width: min(30rem, 92vw); border: 1px solid var(--border);
  border-radius: var(--radius); background: var(--surface); color: var(--fg); padding: 1rem 1.2rem; }
.confirm-dialog::backdrop { background: rgb(0 0 0 / .45); }
.confirm-dialog h2 { margin: 0 0 .6rem; font-size: 1.2rem; }
.confirm-dialog p { margin: 0 0 .6rem; }
.confirm-dialog .row { justify-content: flex-end; margin-top: .8rem; }
`;

let count = 0;

/**
 * Asks `title` with the paragraphs `text`; resolves true for `yes`, false for `no`
 * (or Escape). `fields`: form fields shown before the answers (checked before `yes`
 * closes the dialog; the caller reads them once it resolves). `testid` names the
 * dialog for tests.
 */
export function confirmDialog({title, text, yes, no, fields = [], testid = 'confirm-dialog'}) {
  installStyle('confirm-dialog', CSS);
  const id = `confirm-${++count}`;
  const back = document.activeElement;
  const paragraphs = [text].flat().map((p, k) => h('p', {id: `${id}-text-${k}`}, p));
  const dialog = h('dialog', {class: 'confirm-dialog', 'aria-labelledby': `${id}-title`,
    'aria-describedby': paragraphs.map((p) => p.id).join(' '), 'data-testid': testid},
  h('form', {method: 'dialog'}, h('h2', {id: `${id}-title`}, title), ...paragraphs, ...fields,
    h('div', {class: 'row'},
      h('button', {type: 'submit', class: 'btn', value: 'no', autofocus: true,
        formnovalidate: true, 'data-answer': 'no'}, no),
      h('button', {type: 'submit', class: 'btn primary', value: 'yes', 'data-answer': 'yes'}, yes))));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (back?.isConnected) back.focus();
      resolve(dialog.returnValue === 'yes');
    });
    dialog.showModal();
  });
}
