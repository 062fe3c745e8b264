// catalog.js: every lab by its mode and title, with a loader of its two modules (its state and
// numbers, its view), so the labs page downloads only the lab it shows. This is the one list of
// the labs: web/labs/index.js loads all of it (for the tests), the element's lab modes and the
// site's build (tools/build-site.mjs: what each lab's page preloads, one line per lab) read it.

/** @typedef {{ mode: string, title: string, core: 'forward' | 'trainer', load: () => Promise<import('./mount.js').Lab> }} LabEntry */

/**
 * A lab: its mode, title, modules and mount, and the core it needs: 'forward' (the smallest), or
 * 'trainer' for a lab that calls an export only the trainer and full cores have (attn.tileWalk).
 * @param {string} mode @param {string} title @param {() => Promise<[any, any]>} modules @param {string} mount
 * @param {'forward' | 'trainer'} [core] @returns {LabEntry}
 */
const entry = (mode, title, modules, mount, core = /** @type {'forward' | 'trainer'} */ ('forward')) => ({
  mode, title, core,
  load: () => modules().then(([state, view]) => ({ mode, title, state, mount: view[mount] })),
});

/** @type {LabEntry[]} */
export const CATALOG = [
  entry('sqrt-dk-lab', 'Why divide by √dk?', () => Promise.all([import('./sqrtdk.js'), import('./sqrtdk-view.js')]), 'mountSqrtDkLab'),
  entry('stability-lab', 'Numerical stability', () => Promise.all([import('./stability.js'), import('./stability-view.js')]), 'mountStabilityLab'),
  entry('misconceptions-lab', 'Misconceptions', () => Promise.all([import('./misconceptions.js'), import('./misconceptions-view.js')]), 'mountMisconceptionsLab'),
  entry('predict-lab', 'Predict, then reveal', () => Promise.all([import('./predict.js'), import('./predict-view.js')]), 'mountPredictLab'),
  entry('multihead-lab', 'Several heads', () => Promise.all([import('./multihead.js'), import('./multihead-view.js')]), 'mountMultiHeadLab'),
  entry('cross-lab', 'Cross-attention', () => Promise.all([import('./cross.js'), import('./cross-view.js')]), 'mountCrossLab'),
  entry('fused-lab', 'Fused form and n²', () => Promise.all([import('./fused.js'), import('./fused-view.js')]), 'mountFusedLab'),
  entry('tiles-lab', 'FlashAttention, tile by tile', () => Promise.all([import('./tiles.js'), import('./tiles-view.js')]), 'mountTilesLab', 'trainer'),
];
