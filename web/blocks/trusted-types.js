// trusted-types.js: the policy "attention-explorer" for pages that enforce Trusted Types. It
// blesses only our own strings: constant markup, dist/'s part files, the worker (docs/embedding.md).
/** @type {any} */
let policy; // undefined: not asked for yet; null: none to be had (used as they are)

/** @param {'createHTML' | 'createScriptURL'} kind @param {string} s @returns {any} */
function bless(kind, s) {
  if (policy === undefined) {
    const tt = /** @type {any} */ (globalThis).trustedTypes, same = (/** @type {string} */ x) => x;
    try {
      policy = tt ? tt.createPolicy('attention-explorer', { createHTML: same, createScriptURL: same }) : null;
    } catch {
      policy = null; // a trusted-types directive without the name
    }
  }
  return policy ? policy[kind](s) : s;
}

/** Runs set(value) with value blessed; a refusal says what to add. @param {'createHTML' | 'createScriptURL'} kind @param {string} s @param {(v: any) => void} set */
function put(kind, s, set) {
  try {
    set(bless(kind, s));
  } catch (e) {
    throw Object.assign(new Error(`this page enforces Trusted Types and its Content-Security-Policy does not allow the policy “attention-explorer”: add attention-explorer to its trusted-types directive. (${/** @type {Error} */ (e).message})`), { code: 'AE_TRUSTED_TYPES' });
  }
}

/** Fills a <template> with constant markup (never user text). @param {HTMLTemplateElement} t @param {string} markup */
export const setMarkup = (t, markup) => put('createHTML', markup, (v) => (t.innerHTML = v));
/** Sets a <script>'s src to one of our files. @param {HTMLScriptElement} el @param {string} url */
export const setScriptSrc = (el, url) => put('createScriptURL', url, (v) => (el.src = v));
/** A worker script's URL in the form the page accepts. @param {string | URL} url */
export const scriptUrl = (url) => bless('createScriptURL', String(url));
