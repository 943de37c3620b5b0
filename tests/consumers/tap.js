// Reads TAP on stdin with tap-parser (strict) and prints what it made of
// it as JSON: the plan, each test point with its YAML diagnostics, lines
// it did not read as TAP, and its own errors.
const { Parser } = require('tap-parser');
const input = require('fs').readFileSync(0, 'utf8');
const p = new Parser({ strict: true });
const asserts = [];
const extra = [];
p.on('assert', a => asserts.push({ ok: a.ok, id: a.id, name: a.name, skip: a.skip || false, diag: a.diag || null }));
p.on('extra', e => extra.push(e));
p.on('complete', r => {
  const errors = (r.failures || []).filter(f => f.tapError).map(f => f.tapError);
  console.log(JSON.stringify({ ok: r.ok, count: r.count, pass: r.pass, fail: r.fail, plan: r.plan, asserts, extra, errors }));
});
p.end(input);
