// The account pages' forms: a labelled field, and a form that posts its fields and then
// redraws its page with the answer's message (or shows the refusal in place).

import {accountChanged} from './api.js';
import {h} from './kit.js';
import {announce, errorNotice} from './ui.js';

export function field(id, text, attrs) {
  return h('div', {class: 'field'}, h('label', {for: id}, text), h('input', {id, ...attrs}));
}

/** A form that posts its fields to `path`, then redraws the page. */
export function accountForm(id, title, fields, button, submit, redraw, extra = {}) {
  const status = h('div', {'aria-live': 'polite'});
  const form = h('form', {class: 'panel', 'aria-labelledby': `${id}-h`, ...extra},
    h('h2', {id: `${id}-h`}, title), ...fields, status,
    h('button', {type: 'submit', class: 'btn primary'}, button));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.replaceChildren();
    const values = Object.fromEntries(new FormData(form));
    try {
      const message = await submit(values);
      if (message === null) return;  // the owner changed their mind
      accountChanged();
      announce(message);
      await redraw(message);
    } catch (error) {
      status.replaceChildren(errorNotice(error.message));
    }
  });
  return form;
}
