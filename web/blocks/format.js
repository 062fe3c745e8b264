// @ts-check
// format.js: the one number formatter of the page. A value reads the same in a matrix cell,
// in its explanation, in the narration and in the follow-a-row sentence.
//
// Three decimals is the precision at which the lesson's worked example reads exactly as the
// lesson prints it (weights 0.401 0.198 0.401, outputs 1.604 0.797, ...).

export const DECIMALS = 3;
const MINUS = '\u2212'; // a real minus sign, as wide as a digit's neighbours in tabular figures

/** fmt(-0.5) -> "−0.500", fmt(-Infinity) -> "−∞"; never prints "−0.000". @param {number} v @returns {string} */
export function fmt(v) {
  if (v === -Infinity) return MINUS + '\u221e';
  if (v === Infinity) return '\u221e';
  if (Number.isNaN(v)) return 'NaN';
  const a = Math.abs(v);
  let s;
  if (a >= 1e5) s = a.toExponential(2).replace('e+', 'e');
  else s = a.toFixed(DECIMALS);
  if (v < 0 && /[1-9]/.test(s)) s = MINUS + s; // −0.000 would be a minus on nothing (a mantissa d.dd is never 0)
  return s;
}

/** Short form for legends and axis ticks: at most 3 decimals, trailing zeros dropped. @param {number} v @returns {string} */
export function fmtShort(v) {
  return fmt(v).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/**
 * A decimal number's text, unsigned: "3", "3.", "3.25", ".5", "1e-3". Every reader of numbers uses
 * this one pattern. Its shape matters: after the digits before the point, digits come only after
 * a point, so a long run of digits followed by something else fails in steps linear in its length
 * (the older "\d+\.?\d*" could split the run between its two digit groups in every way, which
 * made '[[' + 30,000 digits + 'x]]' in a link freeze the page for seconds).
 */
export const DECIMAL = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const NUMBER_TEXT = new RegExp(`^[-+]?${DECIMAL}$`);

/**
 * Parses what a learner types: accepts "−" (U+2212) as well as "-", and "," as a decimal point.
 * @param {string | number} text @returns {number} NaN when it is not a number
 */
export function parseNumber(text) {
  const t = String(text).trim().replace(/\u2212/g, '-').replace(',', '.');
  if (!NUMBER_TEXT.test(t)) return NaN;
  return Number(t);
}

/**
 * A token as it appears in sentences: “cat” (2), numbered from 1 as in the lesson. A token
 * named by its own position ("1", "2", … as in the lesson's worked example) is "token 2", and
 * another number is “7” (token 2), so a number never reads as a position or the other way round.
 * @param {readonly string[]} tokens @param {number} i @returns {string}
 */
export function tokenRef(tokens, i) {
  const t = tokens[i];
  if (t === String(i + 1)) return `token ${i + 1}`;
  if (/^\s*[-+\u2212]?[\d.,]+\s*$/.test(t)) return `\u201c${t}\u201d (token ${i + 1})`;
  return '\u201c' + t + '\u201d (' + (i + 1) + ')';
}

/**
 * fmt, except that a non-zero value too small for 3 decimals keeps its digits in short
 * scientific form: fmtFine(2.06e-9) -> "2.06e−9", fmtFine(0) -> "0.000". For gradients, steps
 * and weights that underflow, where "0.000" would hide that the number is not 0.
 */
export function fmtFine(/** @type {number} */ v) {
  return v !== 0 && Math.abs(v) < 0.001 ? v.toExponential(2).replace(/-/g, MINUS).replace('e+', 'e') : fmt(v);
}
