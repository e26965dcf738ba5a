// The rules pages (docs/rules/*.md) drawn by markdown-it, a CommonMark renderer
// (vendored: static/vendor/markdown-it.min.js, its licence beside it).
// Raw HTML is off, so a rules text can never inject markup; markdown-it also
// refuses javascript: and data: links. Two touches of ours: a link to another
// rules text (`sumodoku.md`) opens its page here, and code blocks (the worked
// examples' boards) and tables scroll sideways when wider than the screen, in
// a box the keyboard can focus to scroll.

import MarkdownIt from '../vendor/markdown-it.min.js';

const md = new MarkdownIt({html: false, linkify: false, typographer: false});

const defaultLink = md.renderer.rules.link_open
  || ((tokens, i, options, env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const rules = /^([\w-]+)\.md$/.exec(tokens[i].attrGet('href') || '');
  if (rules) tokens[i].attrSet('href', `#/rules/${rules[1]}`);
  return defaultLink(tokens, i, options, env, self);
};

for (const name of ['fence', 'code_block']) {
  const draw = md.renderer.rules[name];
  md.renderer.rules[name] = (...args) => draw(...args)
    .replace(/^<pre(?=[ >])/, '<pre tabindex="0"');
}

md.renderer.rules.table_open = (tokens, i, options, env, self) =>
  `<div class="scroll-x" tabindex="0">${self.renderToken(tokens, i, options)}`;
md.renderer.rules.table_close = (tokens, i, options, env, self) =>
  `${self.renderToken(tokens, i, options)}</div>`;

/** The HTML of the Markdown `text`. */
export function renderMarkdown(text) {
  return md.render(text);
}
