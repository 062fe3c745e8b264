// Reads llvm-cov's report (tools/coverage.sh) and checks issue 11's targets: at least 95% of
// the lines of c/attention.c and 90% of the lines of all of c/ reached. Prints the figures.
//   node tools/coverage-check.mjs build/cov/report.txt
import { readFileSync } from 'node:fs';

const TARGETS = { 'attention.c': 95, TOTAL: 90 };

const rows = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  // name, regions, missed, cover%, functions, missed, executed%, lines, missed, cover%, branches, missed, cover%
  const f = line.trim().split(/\s+/);
  if (f.length === 13 && /%$/.test(f[12])) rows.set(f[0], { lines: parseFloat(f[9]), branches: parseFloat(f[12]), linesOf: +f[7], missedLines: +f[8] });
}
let ok = true;
const said = [];
for (const [name, target] of Object.entries(TARGETS)) {
  const r = rows.get(name);
  if (!r) {
    console.error(`coverage: no row for ${name} in ${process.argv[2]}`);
    process.exit(1);
  }
  const what = name === 'TOTAL' ? 'all of c/' : 'c/' + name;
  said.push(`${what}: lines ${r.lines.toFixed(2)}% (${r.linesOf - r.missedLines} of ${r.linesOf}), branches ${r.branches.toFixed(2)}%`);
  if (r.lines < target) {
    ok = false;
    said.push(`  below the target of ${target}% of lines`);
  }
}
console.log('coverage: ' + said.join('; '));
if (!ok) process.exit(1);
