// equivalents.mjs: reads tests/mutation/*-equivalents.txt, the mutants a person read and found
// equivalent (no input can tell them from the real code), for tools/mutate-c.mjs and
// tools/mutate-js-report.mjs. Blocks separated by blank lines or # lines (comments):
//   <file> <where>        where: the function (C) or the mutator (JS)
//   - <the source line(s) before the mutation>
//   + <the same line(s) mutated>
//   = <why no input can tell them apart> (may continue on more "=" lines)
// Text is compared with runs of spaces squashed to one, so indentation does not matter.

import { existsSync, readFileSync } from 'node:fs';

export const squash = (s) => s.replace(/\s+/g, ' ').trim();

/** [{ file, where, before, after, reason }] from the file at path ([] when there is none). */
export function readEquivalents(path) {
  if (!existsSync(path)) return [];
  const out = [];
  let cur = null;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    if (raw.startsWith('#')) { cur = null; continue; } // a comment ends a block, as a blank line does
    if (!raw.trim()) { cur = null; continue; }
    if (!cur) {
      const [file, where] = raw.trim().split(/\s+/);
      out.push((cur = { file, where, before: '', after: '', reason: '' }));
      continue;
    }
    const text = squash(raw.slice(2));
    if (raw[0] === '-') cur.before = text;
    else if (raw[0] === '+') cur.after = text;
    else if (raw[0] === '=') cur.reason += (cur.reason ? ' ' : '') + text;
  }
  return out;
}
