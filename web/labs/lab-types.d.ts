// Types the labs share that only tsc reads (JSDoc `import('./lab-types').X`): the labs page never
// loads this file and the package does not ship it.

/** A lab view's options (mountXLab(root, options); labs/mount.js Lab.mount passes them). */
export interface ViewOptions<S> {
  attn: import('../../types/attention').Attention;
  doc?: Document;
  /** the lab's state (its pure module's defaultState() when left out) */
  state?: S;
  /** called with writeState(state) after every change */
  onState?: (params: Record<string, unknown>) => void;
}
