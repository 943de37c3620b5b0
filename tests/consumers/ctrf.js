// Reads a CTRF document on stdin and validates it with the `ctrf`
// reference implementation (its `validate`, against its JSON schema);
// prints the result and what a CTRF reader makes of the document as JSON.
const { validate } = require('ctrf');
const doc = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const r = validate(doc);
const tests = ((doc.results || {}).tests || []).map(t => ({ name: t.name, status: t.status, message: t.message || null }));
console.log(JSON.stringify({ valid: r.valid, errors: r.errors, summary: (doc.results || {}).summary || null, tests }));
