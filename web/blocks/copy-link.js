// @ts-check
// blocks/copy-link.js: the "Copy link to this step" button of the training and induction pages.
// A module of its own, not part of dom.js: the explorer (dist/'s main file) never needs it, and
// each of the two pages' parts carries its own copy (tools/build-dist.mjs MAY_REPEAT).

/**
 * A "Copy link" button's click: writes the address (writeUrl), copies it, and says so on the
 * button for two seconds, or asks the reader to copy the address bar where the clipboard is refused.
 * @param {Window} win @param {HTMLElement} button @param {() => void} writeUrl @param {string} label the button's own text
 */
export async function copyLinkTo(win, button, writeUrl, label) {
  writeUrl();
  try {
    await win.navigator.clipboard.writeText(win.location.href);
    button.textContent = 'Link copied';
  } catch {
    button.textContent = 'Copy the address bar';
  }
  win.setTimeout(() => (button.textContent = label), 2000);
}
