// Renders Markdown on stdin with marked (GFM, its default) and markdown-it
// (with bare-URL linkify and raw HTML on, as GitHub has them) and prints
// both HTML renderings as JSON: {"marked": "...", "markdown-it": "..."}.
const { marked } = require('marked');
const MarkdownIt = require('markdown-it');
const input = require('fs').readFileSync(0, 'utf8');
const it = new MarkdownIt({ html: true, linkify: true });
console.log(JSON.stringify({ marked: marked.parse(input, { gfm: true }), 'markdown-it': it.render(input) }));
