// A small Markdown renderer for the rules pages (docs/rules/*.md): headings,
// paragraphs, ordered and unordered lists (nested by indentation), tables,
// fenced and indented code, block quotes, emphasis, inline code and links.
// Everything is escaped first, so a rules file can never inject markup.

function escape(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function inline(text) {
  const codes = [];
  let out = escape(text).replace(/`([^`]+)`/g, (_, code) => {
    codes.push(code);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => {
      const safe = /^(https?:|#|\.{0,2}\/|[\w-]+\.md)/i.test(href) ? href : '#';
      return `<a href="${safe}">${label}</a>`;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?=[^*\w]|$)/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_([^_\s][^_]*?)_(?=[^_\w]|$)/g, '$1<em>$2</em>');
  return out.replace(/\u0000(\d+)\u0000/g, (_, k) => `<code>${codes[Number(k)]}</code>`);
}

function splitRow(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** The HTML of a Markdown text. */
export function renderMarkdown(source) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let i = 0;
  const isBlank = (l) => /^\s*$/.test(l);
  const listItem = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;

  function list(start, indent) {
    const first = listItem.exec(lines[start]);
    const ordered = /\d/.test(first[2]);
    const html = [ordered ? '<ol>' : '<ul>'];
    let k = start;
    while (k < lines.length) {
      const m = listItem.exec(lines[k]);
      if (!m || m[1].length !== indent) break;
      const paras = [m[3]];
      k++;
      const nested = [];
      while (k < lines.length && !isBlank(lines[k]) && !listItem.exec(lines[k])
        && /^\s+/.test(lines[k])) {
        paras[paras.length - 1] += ` ${lines[k].trim()}`;
        k++;
      }
      // A blank line followed by an indented continuation stays in the item.
      while (k < lines.length) {
        const m2 = listItem.exec(lines[k]);
        if (m2 && m2[1].length > indent) {
          const [sub, next] = list(k, m2[1].length);
          nested.push(sub);
          k = next;
        } else if (isBlank(lines[k]) && k + 1 < lines.length
          && /^\s{2,}\S/.test(lines[k + 1]) && !listItem.exec(lines[k + 1])) {
          k++;
          paras.push(lines[k].trim());
          k++;
          while (k < lines.length && /^\s{2,}\S/.test(lines[k]) && !listItem.exec(lines[k])) {
            paras[paras.length - 1] += ` ${lines[k].trim()}`;
            k++;
          }
        } else {
          break;
        }
      }
      html.push(`<li>${paras.map(inline).join('<br><br>')}${nested.join('')}</li>`);
      if (k < lines.length && isBlank(lines[k])) {
        const after = listItem.exec(lines[k + 1] || '');
        if (after && after[1].length === indent) k++;
      }
    }
    html.push(ordered ? '</ol>' : '</ul>');
    return [html.join(''), k];
  }

  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) { i++; continue; }
    let m;
    if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      const level = m[1].length;
      const id = m[2].toLowerCase().replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');
      out.push(`<h${level} id="${id}">${inline(m[2])}</h${level}>`);
      i++;
    } else if (/^\s*```/.test(line)) {
      const body = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i])) body.push(lines[i++]);
      i++;
      out.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
    } else if (/^( {4}|\t)/.test(line)) {
      const body = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i]) || (isBlank(lines[i])
        && /^( {4}|\t)/.test(lines[i + 1] || '')))) {
        body.push(lines[i].replace(/^( {4}|\t)/, ''));
        i++;
      }
      out.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
    } else if (/^\s*\|/.test(line) && /^\s*\|?\s*:?-+/.test(lines[i + 1] || '')) {
      const head = splitRow(line);
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(splitRow(lines[i++]));
      out.push(`<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead>`
        + `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`);
    } else if (listItem.test(line)) {
      const [html, next] = list(i, listItem.exec(line)[1].length);
      out.push(html);
      i = next;
    } else if (/^>\s?/.test(line)) {
      const body = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(body.join('\n'))}</blockquote>`);
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      out.push('<hr>');
      i++;
    } else {
      const body = [];
      while (i < lines.length && !isBlank(lines[i]) && !/^(#{1,6}\s|\s*```|>)/.test(lines[i])
        && !listItem.test(lines[i]) && !/^\s*\|/.test(lines[i])) {
        body.push(lines[i++].trim());
      }
      out.push(`<p>${inline(body.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}
