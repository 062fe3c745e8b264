// index.js: every lab, by its mode name (the ?mode= of the page and the mode="" of the element).
// mountLab(mode, root, { attn, doc, params, onState }) mounts one lab with its state read from
// URL parameters; onState(paramsObject) is called with the lab's new URL state on every change.
import * as sqrtdk from './sqrtdk.js';
import * as stability from './stability.js';
import * as misconceptions from './misconceptions.js';
import * as predict from './predict.js';
import * as multihead from './multihead.js';
import * as cross from './cross.js';
import * as fused from './fused.js';
import { mountSqrtDkLab } from './sqrtdk-view.js';
import { mountStabilityLab } from './stability-view.js';
import { mountMisconceptionsLab } from './misconceptions-view.js';
import { mountPredictLab } from './predict-view.js';
import { mountMultiHeadLab } from './multihead-view.js';
import { mountCrossLab } from './cross-view.js';
import { mountFusedLab } from './fused-view.js';

export const LABS = [
  { mode: sqrtdk.MODE, title: 'Why divide by √dk?', state: sqrtdk, mount: mountSqrtDkLab },
  { mode: stability.MODE, title: 'Numerical stability', state: stability, mount: mountStabilityLab },
  { mode: misconceptions.MODE, title: 'Misconceptions', state: misconceptions, mount: mountMisconceptionsLab },
  { mode: predict.MODE, title: 'Predict, then reveal', state: predict, mount: mountPredictLab },
  { mode: multihead.MODE, title: 'Several heads', state: multihead, mount: mountMultiHeadLab },
  { mode: cross.MODE, title: 'Cross-attention', state: cross, mount: mountCrossLab },
  { mode: fused.MODE, title: 'Fused form and n²', state: fused, mount: mountFusedLab },
];
export const LAB_MODES = LABS.map((l) => l.mode);

export function labOf(mode) {
  return LABS.find((l) => l.mode === mode) || null;
}

/** The query string for a lab's state object ({ mode, dk: 64, ... } -> "?mode=...&dk=64"). */
export function queryOf(stateParams) {
  return '?' + new URLSearchParams(Object.entries(stateParams).map(([k, v]) => [k, String(v)])).toString();
}

export function mountLab(mode, root, { attn, doc = root.ownerDocument, params = new URLSearchParams(), onState } = {}) {
  const lab = labOf(mode);
  if (!lab) throw new Error(`unknown lab "${mode}": the labs are ${LAB_MODES.join(', ')}`);
  return lab.mount(root, { attn, doc, state: lab.state.readState(params), onState });
}
