// explorer.js: the explorer's public entry. The explorer itself lives in web/explorer/:
//   state.js     the state, the actions that change it and the values derived from it (pure)
//   *-view.js    one view per region of the page, each drawn from (state, view)
//   events.js    the wiring: events -> actions
//   mount.js     mountExplorer: state + views + the one core call + the one scheduled redraw
// docs/architecture.md walks through the whole data flow.

export { mountExplorer, sharedCore, computeView } from './mount.js';
export { MARKUP } from './markup.js';
export { LIM, CONTROLS } from './state.js';
