// @ts-check
// host-theme.js: what theme="auto" means for the <attention-explorer> element. A site with its
// own dark-mode toggle usually says so in CSS with `color-scheme` (Docusaurus sets
// `color-scheme: dark` on <html> in dark mode); the element inherits that property, so auto
// follows the page where the page sets one, and the reader's system setting
// (prefers-color-scheme) where it does not ("normal", or both "light dark").

/** @typedef {'light' | 'dark'} Theme */

/**
 * The scheme the page around `el` asks for, or null where it leaves the choice to the reader.
 * Read from the parent, not from `el`: the element's own stylesheet sets color-scheme on it.
 * @param {Element} el @returns {Theme | null}
 */
export function pageScheme(el) {
  const win = /** @type {Window} */ (el.ownerDocument.defaultView);
  const root = el.getRootNode();
  // inside another component's shadow root, its host; at the top, <html>
  const around = el.parentElement || /** @type {ShadowRoot} */ (root).host || el.ownerDocument.documentElement;
  const words = (win.getComputedStyle(around).colorScheme || 'normal').split(/\s+/);
  const light = words.includes('light'), dark = words.includes('dark');
  return dark && !light ? 'dark' : light && !dark ? 'light' : null;
}

/** Where the reader's own choice (the explorer's theme button) is remembered across visits. */
export const THEME_KEY = 'attention-explorer-theme';

/**
 * The reader's remembered choice, or null (none, or storage refused, as in a sandboxed frame).
 * @param {Window} win @returns {Theme | null}
 */
export function rememberedTheme(win) {
  try {
    const t = win.localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : null;
  } catch {
    return null;
  }
}

/**
 * The theme to draw: `setting` when it is light or dark; otherwise (auto, or no attribute) the
 * reader's remembered choice, else the page's color-scheme, else the reader's system setting.
 * @param {string | null} setting @param {Element} el @returns {Theme}
 */
export function resolveTheme(setting, el) {
  if (setting === 'light' || setting === 'dark') return setting;
  return rememberedTheme(/** @type {Window} */ (el.ownerDocument.defaultView)) ?? pageScheme(el) ?? (/** @type {Window} */ (el.ownerDocument.defaultView).matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

/**
 * Calls `onChange` whenever what auto resolves to may have changed: the reader's system setting,
 * or an attribute of <html> or <body> (where sites' toggles put their class or data-theme).
 * Returns the function that stops watching.
 * @param {Element} el @param {() => void} onChange @returns {() => void}
 */
export function watchTheme(el, onChange) {
  const doc = el.ownerDocument, win = /** @type {Window} */ (doc.defaultView);
  const query = win.matchMedia('(prefers-color-scheme: dark)');
  query.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  for (const node of [doc.documentElement, doc.body]) if (node) observer.observe(node, { attributes: true });
  return () => {
    query.removeEventListener('change', onChange);
    observer.disconnect();
  };
}
