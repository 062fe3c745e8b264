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

// ------------------------------------------------------------------ ui.js's helpers

/** h()'s props: a class, text (textContent), attributes (null and false left out, true as ''), listeners. */
export interface HProps {
  class?: string;
  text?: string | null;
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: Record<string, EventListener>;
}
/** A child h() appends: a node, text, or nothing (null and undefined are skipped). */
export type Child = Node | string | null | undefined;

/** slider()'s options: bounds, the value shown, data-control's name, and an optional <datalist> id. */
export interface SliderOptions { min: number; max: number; value: number; name: string; list?: string }
/** A slider: its label element, and where to say what to do with a new (integer, clamped) value. */
export interface Slider { el: HTMLLabelElement; onChange(fn: (v: number) => void): void }

/** matrixFigure()'s matrix: values [rows][cols] flat; kind defaults from the name; hidden cells show "?". */
export interface MatrixFigureOptions {
  name: string;
  id?: string;
  about?: string;
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  rowLabels: readonly string[];
  colLabels: readonly string[];
  kind?: import('../blocks/colors.js').ScaleKind;
  format?: (v: number) => string;
  hidden?: boolean;
}

/** histogramSvg()'s bins: counts over [lo, hi], equal widths. */
export interface Histogram { lo: number; hi: number; counts: readonly number[] }
/** histogramSvg()'s options: marks are vertical lines at `at` (e.g. ± one standard deviation). */
export interface HistogramOptions { title: string; summary: string; marks?: readonly { at: number }[]; cls?: string }

/** table()'s options: cellClass(row, column) of the body's cells; label names it when it has no caption. */
export interface TableOptions { caption?: string; cellClass?: (i: number, j: number) => string; label?: string }

/** labShell()'s options: render(state, out) draws the output part from the state. */
export interface LabShellOptions<S> {
  doc: Document;
  title: string;
  lede: string;
  /** the lab's mode: data-lab */
  kind: string;
  state: S;
  writeState: (state: S) => Record<string, unknown>;
  onState?: (params: Record<string, unknown>) => void;
  render: (state: S, out: HTMLElement) => void;
}
/** What labShell() returns: the lab's parts and state; set(patch) changes the state and redraws. */
export interface LabShell<S> {
  el: HTMLElement;
  controls: HTMLElement;
  out: HTMLElement;
  state: S;
  set(patch: Partial<S>): void;
  redraw(): void;
  destroy(): void;
}

// ------------------------------------------------------------------ the labs' states
// Each lab's pure module reads its state from URL parameters and writes it back (readState, writeState).

export interface SqrtDkState { dk: number; n: number; seed: number; row: number }
/** scores: the learner's own row (it wins over top) */
export interface StabilityState { top: number; scores: number[] | null }
export interface MisconceptionsState { preset: import('../../types/presets').PresetName; values: 'silent' | 'lesson' }
/** exercise: one of the lesson's questions, or '' for a guess on the preset */
export interface PredictState {
  preset: import('../../types/presets').PresetName; hide: 'A' | 'S' | 'O'; target: 'cell' | 'row';
  row: number; col: number; exercise: '' | keyof typeof import('./predict.js').EXERCISES;
}
export interface FusedState { n: number; causal: boolean; seed: number }
/** What a parser of the learner's text gives (predict.js parseGuess, stability.js parseScores): the numbers, or what to fix. */
export type Parsed<T> = ({ ok: true } & T) | { ok: false; error: string };

/** ui.js's helpers: each is typed `@type {UI['name']}` there (see ui.js for what each draws). */
export interface UI {
  h<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, props?: HProps, ...children: Child[]): HTMLElementTagNameMap[K];
  /** options: [value, text] */
  select(doc: Document, label: string, options: [string | number, string][], value: string | number, onChange: (v: string) => void, name: string): HTMLLabelElement;
  checkbox(doc: Document, label: string, checked: boolean, onChange: (c: boolean) => void, name: string): HTMLLabelElement;
  slider(doc: Document, label: string, options: SliderOptions): Slider;
  button(doc: Document, text: string, onClick: () => void, name: string, attrs?: HProps['attrs']): HTMLButtonElement;
  paragraphs(doc: Document, lines: readonly string[], cls?: string): HTMLDivElement;
  matrixFigure(doc: Document, o: MatrixFigureOptions): { el: HTMLElement; hm: import('../blocks/heatmap.js').Heatmap };
  svg(doc: Document, tag: string, attrs?: Record<string, string | number>): SVGElement;
  histogramSvg(doc: Document, hist: Histogram, options: HistogramOptions): SVGElement;
  weightBars(doc: Document, weights: readonly number[] | Float32Array, options: { title: string; labels?: readonly string[] }): SVGElement;
  table(doc: Document, head: readonly string[], rows: readonly (readonly string[])[], options?: TableOptions): HTMLDivElement;
}

/** One of the lesson's knowledge-check questions (labs/predict.js EXERCISES); whole: answers shown as 5, not 5.000. */
export interface Exercise {
  title: string;
  question: string;
  fields: string[];
  explanation: string;
  whole?: boolean;
}
