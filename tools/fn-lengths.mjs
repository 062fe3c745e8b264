// Lists the functions in web/ longer than a limit, longest first, measured with the TypeScript
// parser (first line to last line of the function, its JSDoc not counted). Issue 24 asks that
// none be over 150 lines: tests/tools/function-length.test.mjs runs functionLengths() on web/.
//   node tools/fn-lengths.mjs [limit=150] [folder=web]
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} dir @returns {string[]} every .js and .mjs file under dir, generated gen/ left out */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'gen' && entry.name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.m?js$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** @param {ts.Node} node @returns {string} the name a reader would search for */
function functionName(node) {
  if ('name' in node && node.name && ts.isIdentifier(/** @type {ts.Node} */ (node.name))) return /** @type {ts.Identifier} */ (node.name).text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

/**
 * Every function (declarations, expressions, arrows, methods) in the files under `dir`.
 * @param {string} [dir] folder to measure, relative to the repository
 * @returns {{ file: string, name: string, line: number, lines: number }[]} longest first
 */
export function functionLengths(dir = 'web') {
  const found = [];
  for (const path of sourceFiles(join(ROOT, dir))) {
    const text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    /** @param {ts.Node} node */
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ file: relative(ROOT, path), name: functionName(node), line: first + 1, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? 150);
  const over = functionLengths(process.argv[3] ?? 'web').filter((f) => f.lines > limit);
  for (const f of over) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
  if (!over.length) console.log(`no function over ${limit} lines`);
}
