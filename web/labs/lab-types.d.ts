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

/** The predict lab's state (labs/predict.js). */
export interface PredictState {
  preset: import('../../types/presets').PresetName;
  hide: 'A' | 'S' | 'O';
  target: 'cell' | 'row';
  row: number;
  col: number;
  exercise: '' | 'q1' | 'q2' | 'q3';
}
/** One of the lesson's knowledge-check questions (labs/predict.js EXERCISES); whole: answers shown as 5, not 5.000. */
export interface Exercise {
  title: string;
  question: string;
  fields: string[];
  explanation: string;
  whole?: boolean;
}
/** The misconceptions lab's state (labs/misconceptions.js). */
export interface MisconceptionsState {
  preset: import('../../types/presets').PresetName;
  values: 'lesson' | 'silent';
}
