// The written rules every generated sentence is checked against (tests/explorer/sentences.test.mjs).
// Each rule returns a list of problems (empty when the text keeps it), so a failing test says
// which rule broke and where.
import { fmt } from '../web/blocks/format.js';
import { largest } from '../web/blocks/words.js';

// Nouns the sentences count, with their plurals.
const NOUNS = [
  ['token', 'tokens'], ['key', 'keys'], ['term', 'terms'], ['entry', 'entries'], ['score', 'scores'],
  ['row', 'rows'], ['column', 'columns'], ['value', 'values'], ['weight', 'weights'], ['component', 'components'],
  ['smaller term', 'smaller terms'], ['more term', 'more terms'], ['masked key', 'masked keys'], ['masked score', 'masked scores'],
];
const SINGULAR_VERBS = ['is', 'adds', 'has', 'was'];
const PLURAL_VERBS = ['are', 'add', 'have', 'were'];

/** Rule 1: singular and plural agree with the number (nouns and the verb that follows them). */
export function agreement(text) {
  const out = [];
  for (const [one, many] of NOUNS) {
    for (const m of text.matchAll(new RegExp(`(?<![\\w.\\[])(\\d+) (${one}|${many})\\b(?: after it)?(?: (\\w+))?`, 'g'))) {
      const n = Number(m[1]);
      if (n === 1 && m[2] === many) out.push(`“${m[0]}”: 1 with a plural noun`);
      if (n !== 1 && m[2] === one && one !== many) out.push(`“${m[0]}”: ${n} with a singular noun`);
      if (m[3] && n === 1 && PLURAL_VERBS.includes(m[3])) out.push(`“${m[0]}”: 1 … ${m[3]}`);
      if (m[3] && n !== 1 && SINGULAR_VERBS.includes(m[3])) out.push(`“${m[0]}”: ${n} … ${m[3]}`);
    }
  }
  if (/\bthe token after it are\b|\bthe tokens after it is\b/.test(text)) out.push('verb after “the token(s) after it”');
  for (const m of text.matchAll(/\b(\d+) after it (is|are)\b/g)) if ((m[1] === '1') !== (m[2] === 'is')) out.push(`“${m[0]}”: the verb does not agree`);
  for (const m of text.matchAll(/\b(it|they) (\w+ing)\b/g)) out.push(`“${m[0]}”: a verb is missing`);
  return out;
}

/** Rule 2: no range of one item ("1 to 1", "tokens 3 to 3"). */
export function noRangeOfOne(text) {
  return [...text.matchAll(/\b(\d+) to (\d+)\b/g)].filter((m) => m[1] === m[2]).map((m) => `“${m[0]}”: a range of one`);
}

/** Rule 5: no "undefined", "null", "[object", and NaN only where a value really is NaN. */
export function noBlanks(text, { nanAllowed = false } = {}) {
  const out = [];
  for (const w of ['undefined', 'null', '[object', 'Infinity']) if (text.includes(w)) out.push(`contains “${w}”`);
  if (!nanAllowed && /\bNaN\b/.test(text)) out.push('contains NaN');
  return out;
}

/** Typography: no double spaces, no space before punctuation, no doubled punctuation, no "“1” (1)". */
export function typography(text) {
  const out = [];
  if (/ {2}/.test(text)) out.push('two spaces in a row');
  if (/ [,.;:](?!\d)/.test(text)) out.push('a space before punctuation');
  if (/(?<!\.)\.\.(?!\.)|,,|;;/.test(text)) out.push('doubled punctuation');
  for (const m of text.matchAll(/“(\d+)” \((\d+)\)/g)) if (m[1] === m[2]) out.push(`“${m[0]}”: a number named by its own position`);
  return out;
}

/** Every decimal number in the text ("1.500", "−0.250", "2.72e38"). */
export function decimals(text) {
  return [...text.matchAll(/[−-]?\d+\.\d+(?:e[−-]?\d+)?/g)].map((m) => m[0].replace('-', '−'));
}

/** Rule 4: every number quoted is one of the allowed (displayed or derived) values. */
export function numbersFrom(text, allowed) {
  return decimals(text).filter((x) => !allowed.has(x)).map((x) => `the number ${x} is not a value the page shows or derives`);
}

/** The formatted values of every matrix of a view, as the page shows them. */
export function shownNumbers(view, displayed) {
  // float32's own facts: largest, smallest normal, smallest positive, and how far below the
  // row's largest exp reaches that last one
  const set = new Set(['3.40e38', '1.18e−38', '1.4e−45', '103.97']);
  const add = (v) => set.add(fmt(v));
  for (const m of ['X', 'Wq', 'Wk', 'Wv', 'Q', 'K', 'V', 'S', 'M', 'A', 'O']) if (view.r[m]) for (const v of displayed(view, m)) add(v);
  for (const v of view.r.S) add(v);
  for (const v of view.r.A) if (v > 0 && v < 1.1754943508222875e-38) set.add(v.toExponential(2).replace('-', '−')); // a subnormal weight, quoted whole
  for (const v of view.raw.S) add(v);
  add(view.r.scale);
  add(Math.sqrt(view.r.dk));
  add(1 / Math.sqrt(view.r.dk));
  return set;
}

/**
 * Rule 3: a tie is never called a single winner. `phrase` is the sentence's part naming the
 * winners ("… to “cat” (2)." or "… “thing”, 0.528."): it must name exactly the indices that tie
 * for the largest value (as shown), with "each" when there are several.
 */
export function namesTheTie(phrase, values, among, nameOf) {
  const tops = largest(values, among);
  const out = [];
  const named = tops.filter((k) => phrase.includes(nameOf(k)));
  if (named.length !== tops.length) out.push(`names ${named.length} of the ${tops.length} tied largest (${tops.map(nameOf).join(', ')}): “${phrase}”`);
  const others = (among ?? values.map((_, k) => k)).filter((k) => !tops.includes(k) && phrase.includes(nameOf(k)) && !tops.some((t) => nameOf(t).includes(nameOf(k))));
  if (others.length) out.push(`names a non-largest one (${others.map(nameOf).join(', ')}): “${phrase}”`);
  if ((tops.length > 1) !== /\beach\b/.test(phrase)) out.push(`“each” ${tops.length > 1 ? 'missing from' : 'wrongly in'} “${phrase}”`);
  if (tops.length && !phrase.includes(fmt(values[tops[0]]))) out.push(`the largest value ${fmt(values[tops[0]])} is not quoted: “${phrase}”`);
  return out;
}

/** Every grammar rule at once. */
export function grammar(text, opts) {
  return [...agreement(text), ...noRangeOfOne(text), ...noBlanks(text, opts), ...typography(text)];
}
