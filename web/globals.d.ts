// Globals the pages set for the browser tests and the frame benchmark (read-only use there).
// Only tsc reads this file (tsconfig.json); it is not part of the package.
export {};
declare global {
  /** The page's explorer (web/app.js, web/train/panel.js, web/induction/panel.js). */
  var __explorer: import('./explorer/mount.js').ExplorerApi | undefined;
  /** The training panel (?mode=train). */
  var __train: unknown;
  /** The induction page (?mode=induction). */
  var __induction: unknown;
  /** The lab on the labs page (web/labs/labs-page.js). */
  var __lab: unknown;
}
