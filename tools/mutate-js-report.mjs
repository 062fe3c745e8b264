#!/usr/bin/env node
// mutate-js-report.mjs: the short reading of a StrykerJS run (`make mutate-js` calls it after
// Stryker): per file, killed / survived / no coverage / timeout and the score, then every
// survivor with file:line:column, the mutator and the change. Written to the terminal and to
// build/mutate-js/report.txt (and survivors.txt: each survivor as an entry for the equivalents
// file); the full report is build/mutate-js/report.html.
//
// Survivors listed in tests/mutation/js-equivalents.txt (mutants that cannot change any result,
// each read and explained) are counted as equivalent and left out of the score. They are matched
// by file, mutator and the source line(s) before and after the mutation (spaces squashed), so an
// edited line is read again.
//
// score = (killed + timeout) / (killed + timeout + survived + no coverage), equivalents left out.
// Usage: node tools/mutate-js-report.mjs [build/mutate-js/report.json]

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEquivalents, squash } from './equivalents.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EQUIVALENTS = 'tests/mutation/js-equivalents.txt';
const reportPath = process.argv[2] ?? join(ROOT, 'build/mutate-js/report.json');
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const equivalents = readEquivalents(join(ROOT, EQUIVALENTS));
const used = new Set();

// The mutated code, and the whole line(s) it stands on before and after the mutation.
function texts(source, { start, end }, replacement) {
  const lines = source.split('\n').slice(start.line - 1, end.line);
  const whole = lines.join('\n');
  const from = start.column - 1, to = whole.length - (lines[lines.length - 1].length - (end.column - 1));
  return { code: whole.slice(from, to), line: whole, mutated: whole.slice(0, from) + replacement + whole.slice(to) };
}

const rows = [], survivors = [], equivalent = [];
const total = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, equivalent: 0, other: 0 };
for (const [file, data] of Object.entries(report.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const t = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, equivalent: 0, other: 0 };
  for (const m of data.mutants) {
    t.mutants++;
    const t3 = texts(data.source, m.location, m.replacement ?? '');
    const before = squash(t3.line), after = squash(t3.mutated);
    const m2 = { file, line: m.location.start.line, column: m.location.start.column, mutator: m.mutatorName, code: squash(t3.code), replacement: squash(m.replacement ?? ''), before, after, status: m.status };
    if (m.status === 'Killed') t.killed++;
    else if (m.status === 'Timeout') t.timeout++;
    else if (m.status === 'Survived' || m.status === 'NoCoverage') {
      const eq = equivalents.find((e) => e.file === file && e.where === m.mutatorName && e.before === before && e.after === after);
      if (eq) { t.equivalent++; used.add(eq); equivalent.push({ ...m2, reason: eq.reason }); }
      else { t[m.status === 'Survived' ? 'survived' : 'noCoverage']++; survivors.push(m2); }
    } else t.other++; // CompileError, RuntimeError, Ignored: not mutants the tests could see
  }
  rows.push([file, t]);
  survivors.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : 0));
  for (const k of Object.keys(total)) total[k] += t[k];
}

const pct = (t) => {
  const caught = t.killed + t.timeout, valid = caught + t.survived + t.noCoverage;
  return valid ? ((100 * caught) / valid).toFixed(1) + '%' : '-';
};
const line = (name, t) =>
  `${name.padEnd(30)} ${[t.mutants, t.killed, t.timeout, t.survived, t.noCoverage, t.equivalent, t.other].map((v, k) => String(v).padStart([7, 7, 8, 9, 8, 11, 6][k])).join(' ')} ${pct(t).padStart(7)}`;
const clip = (s) => (s.length > 90 ? s.slice(0, 87) + '…' : s);
const out = [
  `make mutate-js: StrykerJS over the pure JS modules with the Node tests (${total.mutants} mutants)`,
  '',
  `${'file'.padEnd(30)} mutants  killed  timeout  survived  no-cov  equivalent  other   score`,
  ...rows.map(([f, t]) => line(f, t)),
  line('total', total),
  '',
  'score = (killed + timeout) / (killed + timeout + survived + no coverage); equivalent mutants',
  `(${EQUIVALENTS}) and ones that do not run ("other": compile or runtime errors) are left out.`,
  '',
  `Survivors (${survivors.length}): no test notices these. Kill each with a test, or, if it cannot change any result,`,
  `list it in ${EQUIVALENTS} with the reason.`,
  ...survivors.map((m) => `  ${m.file}:${m.line}:${m.column}  ${m.mutator}${m.status === 'NoCoverage' ? ' (no test runs it)' : ''}: ${clip(m.code)}  ->  ${clip(m.replacement)}`),
  '',
  `Equivalent (${equivalent.length}):`,
  ...equivalent.map((m) => `  ${m.file}:${m.line}:${m.column}  ${m.mutator}: ${clip(m.code)}  ->  ${clip(m.replacement)}\n      = ${m.reason}`),
];
const stale = equivalents.filter((e) => !used.has(e) && Object.keys(report.files).includes(e.file));
if (stale.length) out.push('', `Listed as equivalent but not seen surviving (killed now, or the code changed): ${stale.length}`, ...stale.map((e) => `  ${e.file} ${e.where}: ${clip(e.before)}`));
// Every survivor as an entry for the equivalents file, for the ones a reader finds equivalent.
writeFileSync(join(dirname(reportPath), 'survivors.txt'), survivors.map((m) => `${m.file} ${m.mutator}\n- ${m.before}\n+ ${m.after}\n= (why it cannot change a result)\n`).join('\n'));
const text = out.join('\n');
console.log(text);
writeFileSync(join(dirname(reportPath), 'report.txt'), text + '\n');
