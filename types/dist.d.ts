// Types of `attention-explorer/dist` (dist/attention-explorer.js): the element, its modes and the
// core in one classic script. It exports nothing: loading it defines <attention-explorer> and
// sets globalThis.AttentionExplorer.
import type * as Element from './element.js';

declare global {
  /** The API of the one-file build: the same names as attention-explorer/element. */
  var AttentionExplorer: typeof Element;
}
export {};
