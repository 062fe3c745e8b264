// frame-height.js: an element in a frame (an LMS, a sandboxed iframe) tells the page around the
// frame how tall the frame's document is, so the page can show it whole without a scroll bar:
//
//   parent.postMessage({ type: 'attention-explorer:height', height }, '*')
//
// height is the frame document's height in CSS pixels (its <html> box), sent when the first
// element in the frame is put on the page and again whenever it changes (the head drawn, a bigger
// head, a step that opens a matrix, a narrower window). Nothing else is sent: a page that does not listen loses
// nothing. docs/embedding.md has the ten lines a parent page needs. The element loads this
// module only when it is in a frame (in dist/, its own part).

export const HEIGHT_MESSAGE = 'attention-explorer:height';

/** @type {WeakSet<Window>} */
const watched = new WeakSet();

/**
 * Starts reporting the height of `win`'s document to its parent (once per window).
 * @param {Window & typeof globalThis} win
 */
export function reportFrameHeight(win) {
  if (win.parent === win || watched.has(win) || !win.ResizeObserver) return;
  watched.add(win);
  const html = win.document.documentElement;
  let sent = -1;
  const send = () => {
    const height = Math.ceil(html.getBoundingClientRect().height);
    if (height === sent) return;
    sent = height;
    win.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  new win.ResizeObserver(send).observe(html);
  send();
}
