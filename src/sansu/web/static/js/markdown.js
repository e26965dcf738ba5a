// The rules pages (docs/rules/*.md) drawn by markdown-it, a CommonMark renderer
// (vendored: static/vendor/markdown-it.min.js, its licence beside it).
// Raw HTML is off, so a rules text can never inject markup; markdown-it also
// refuses javascript: and data: links. Touches of ours: a link to another
// rules text (`sumodoku.md`, `../sumodoku.md`) or to a reference page
// (`reference/sumodoku.md`) opens its page here, and code blocks (the worked
// examples' boards) and tables scroll sideways when wider than the screen, in
// a box the keyboard can focus to scroll. A ```diagram block becomes a figure
// placeholder (its position, caption and link to the analysis board) that
// js/diagrams.js draws with the game's board module.

import MarkdownIt from '../vendor/markdown-it.min.js';
import {analysisLink, parseDiagram} from './diagrams.js';

const md = new MarkdownIt({html: false, linkify: false, typographer: false});

const defaultLink = md.renderer.rules.link_open
  || ((tokens, i, options, env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const href = tokens[i].attrGet('href') || '';
  const rules = /^(?:\.\.\/)?([\w-]+)\.md$/.exec(href);
  const reference = /^reference\/([\w-]+)\.md$/.exec(href);
  if (rules) tokens[i].attrSet('href', `#/rules/${rules[1]}`);
  else if (reference) tokens[i].attrSet('href', `#/reference/${reference[1]}`);
  return defaultLink(tokens, i, options, env, self);
};

for (const name of ['fence', 'code_block']) {
  const draw = md.renderer.rules[name];
  md.renderer.rules[name] = (...args) => draw(...args)
    .replace(/^<pre(?=[ >])/, '<pre tabindex="0"');
}

const drawFence = md.renderer.rules.fence;
md.renderer.rules.fence = (tokens, i, options, env, self) => {
  if (tokens[i].info.trim() !== 'diagram') return drawFence(tokens, i, options, env, self);
  const esc = md.utils.escapeHtml;
  let spec;
  try {
    spec = parseDiagram(tokens[i].content);
  } catch (error) {
    return `<p class="diagram-error" role="alert">This diagram could not be read: ${
      esc(error.message)}</p>\n`;
  }
  return `<figure class="diagram" data-diagram="${esc(JSON.stringify(spec))}">`
    + '<div class="diagram-board" aria-busy="true">Drawing the board…</div>'
    + `<figcaption>${md.renderInline(spec.caption)} `
    + `<a class="open" href="${esc(analysisLink(spec))}">Open on a board</a></figcaption>`
    + '</figure>\n';
};

md.renderer.rules.table_open = (tokens, i, options, env, self) =>
  `<div class="scroll-x" tabindex="0">${self.renderToken(tokens, i, options)}`;
md.renderer.rules.table_close = (tokens, i, options, env, self) =>
  `${self.renderToken(tokens, i, options)}</div>`;

/** The HTML of the Markdown `text`. */
export function renderMarkdown(text) {
  return md.render(text);
}
