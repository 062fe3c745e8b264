// Types of `attention-explorer/element` (web/element/attention-explorer.js): the <attention-explorer>
// custom element, defined when the module is imported in a browser. docs/embedding.md describes
// every attribute, property and event.
import type { Attention, ForwardResult } from './attention.js';
import type { Cell, Config, ConfigInput, MatrixName, Planes, Step } from './config.js';
import type { PresetName } from './presets.js';

export { loadAttention, LIMITS } from './attention.js';

// lists.mjs: LayoutSetting (generated from web/element/layout.js by `node tools/lists.mjs`; edit the module, not these lines)
/** The values of the `layout` attribute: compact for a slide, full, or auto (compact when the box is short). */
export type LayoutSetting = 'auto' | 'full' | 'compact';
// lists.mjs: end

// lists.mjs: ControlGroup (generated from web/explorer/state.js by `node tools/lists.mjs`; edit the module, not these lines)
/** The control groups the `controls` attribute names ("classroom mode": "steps follow explain"). */
export type ControlGroup = 'presets' | 'theme' | 'link' | 'geometry' | 'steps' | 'follow' | 'explain' | 'edit' | 'config' | 'export';
// lists.mjs: end
// lists.mjs: ExplorerMode (generated from web/element/modes.js by `node tools/lists.mjs`; edit the module, not these lines)
/** The modes that are the explorer itself: its attributes and API work in each (geometry opens the geometry view). */
export type ExplorerMode = 'explorer' | 'geometry';
// lists.mjs: end
/** light, dark, or auto: the host page's color-scheme where it sets one, else the reader's system setting. */
export type ThemeSetting = 'light' | 'dark' | 'auto';
// lists.mjs: LabMode (generated from web/labs/catalog.js and web/element/modes.js by `node tools/lists.mjs`; edit the module, not these lines)
/** The built-in labs, each a value of the `mode` attribute. */
export type LabMode = 'sqrt-dk-lab' | 'stability-lab' | 'misconceptions-lab' | 'predict-lab' | 'multihead-lab' | 'cross-lab' | 'fused-lab' | 'tiles-lab';
/** The built-in modes that are not labs: a panel with the explorer of its head under it. */
export type PanelMode = 'train' | 'induction';
// lists.mjs: end
/** What the element shows; registerMode() adds more names. */
export type Mode = ExplorerMode | LabMode | PanelMode | (string & {});

/** The detail of each event the element fires (bubbling, composed). */
export interface AttentionExplorerEventDetails {
  /** the step shown changed (null: every step) */
  'explorer-step': { step: Step | null };
  /** the learner selected a cell or a token to follow */
  'explorer-select': { cell: Cell | null; follow: number | null };
  /** the learner changed the head */
  'explorer-change': { config: Config };
  /** something could not be shown; the message says what to fix */
  'explorer-error': { message: string };
  /** the core has loaded and the head (or the mode) is drawn */
  'explorer-ready': { mode?: Mode };
  /** a lab's or train's state changed: `params` reopens it */
  'explorer-state': { mode: Mode; params: string };
}
/** The element's events, with the standard ones of any HTML element. */
export type AttentionExplorerEventMap = HTMLElementEventMap & {
  [K in keyof AttentionExplorerEventDetails]: CustomEvent<AttentionExplorerEventDetails[K]>;
};

/** The <attention-explorer> element. Properties read the live state; setting one reflects to its attribute. */
export declare class AttentionExplorer extends HTMLElement {
  static readonly observedAttributes: string[];
  preset: PresetName | string | null;
  step: Step | null;
  follow: number | null;
  causal: boolean | undefined;
  get controls(): ControlGroup[];
  set controls(v: readonly ControlGroup[] | string);
  /** The layout asked for: "compact" (a 960 × 700 slide), "full", or "auto" (compact when the page gives the element less height than the full layout needs). The one shown is the data-layout attribute. */
  get layout(): LayoutSetting;
  set layout(v: LayoutSetting);
  theme: ThemeSetting | null;
  mode: Mode;
  src: string | null;
  /** A lab's or train's state, as the params attribute takes it ("dk=64&n=32&seed=1"). */
  params: string;
  /** The head now shown (a copy); setting takes a config object or JSON text (parsed strictly, throws on error). */
  get config(): Config | null;
  set config(v: ConfigInput | string);
  /** Resolves when the core has loaded and the head is set up. */
  readonly ready: Promise<void>;
  /** The core's result for the head now shown (copies), or null before it is ready. */
  readonly result: ForwardResult | null;
  exportCSV(m: MatrixName): string;
  /** One matrix, or (no argument) the config and every matrix. */
  exportJSON(m?: MatrixName | null): string;
  /** One heatmap, or (no argument) the whole view, as SVG text. */
  exportSVG(m?: MatrixName | null): string;
  exportPNG(m?: MatrixName | null): Promise<Blob>;
  /** The head as a PyTorch script in the lesson's style. */
  exportPyTorch(): string;

  addEventListener<K extends keyof AttentionExplorerEventMap>(type: K, listener: (this: AttentionExplorer, ev: AttentionExplorerEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof AttentionExplorerEventMap>(type: K, listener: (this: AttentionExplorer, ev: AttentionExplorerEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
}

/** What a mode's mount function returns; `ready` resolves once it is drawn. */
export interface ModeApp {
  ready?: Promise<unknown>;
  destroy(): void;
  params?(): string;
  redraw?(): void;
  setTheme?(theme: ThemeSetting): void;
  pause?(): void;
}
export interface ModeContext {
  doc: Document;
  /** the element's params attribute */
  params: string;
  /** fires explorer-<type> on the element */
  emit(type: string, detail?: unknown): void;
}
/** Adds a mode: <attention-explorer mode="my-lab">. css is adopted in the shadow root while it shows. */
export declare function registerMode(name: string, mount: (container: HTMLElement, element: AttentionExplorer, ctx: ModeContext) => ModeApp, options?: { css?: string }): void;

/** Fetches a config's text, refusing anything past MAX_JSON characters before reading it all. */
/** How long a src may take, in ms, before the element gives up on it and says so (15000). */
export declare const SRC_TIMEOUT_MS: number;
/**
 * Fetches a config's text, refusing anything past MAX_JSON characters before reading it all;
 * `signal` aborts it, and after `timeout` ms (SRC_TIMEOUT_MS) it rejects with a message.
 */
export declare function fetchConfigText(url: string, fetchFn?: typeof fetch, options?: { signal?: AbortSignal; timeout?: number }): Promise<string>;

/** The one core every explorer on the page shares (loaded on first use). */
export declare function sharedCore(): Promise<Attention>;

/** Where an explorer starts (ExplorerOptions.initial). */
export interface ExplorerStart { preset?: string | null; config?: string | ConfigInput | null; step?: Step | null; follow?: number | string | null; causal?: boolean; theme?: ThemeSetting }

export interface ExplorerOptions {
  doc?: Document;
  /** an element to fill with the explorer's markup */
  container?: Element;
  /** the element that carries data-theme and data-ready (default the document's root) */
  host?: HTMLElement;
  /** true: keep the state in the page's URL */
  url?: boolean;
  scroll?: boolean;
  /**
   * the start when url is false; a follow given as text (an attribute's) is checked, and one left
   * out is said. A function is called once, when the core has loaded, so what is set meanwhile counts.
   */
  initial?: ExplorerStart | (() => ExplorerStart);
  controls?: readonly ControlGroup[];
  core?: Promise<Attention>;
  emit?(type: string, detail: unknown): void;
}
/** A mounted explorer (what the element wraps). */
export interface Explorer {
  readonly ready: Promise<void>;
  readonly result: ForwardResult | null;
  setStep(step: Step | null): void;
  setFollow(row: number | null): void;
  /** Shows the geometry view with these planes (true: the first two dimensions of each), or hides it (null). */
  setGeometry(planes: Planes | true | null): void;
  setPreset(name: PresetName): void;
  setConfig(input: ConfigInput | string): void;
  setCausal(on: boolean): void;
  setTheme(setting: ThemeSetting): void;
  setControls(list: readonly ControlGroup[]): void;
  config(): Config;
  destroy(): void;
}
/** Draws an explorer inside root (a Document, ShadowRoot or Element) and returns its API. */
export declare function mountExplorer(root: Document | ShadowRoot | Element, options?: ExplorerOptions): Explorer;

declare global {
  interface HTMLElementTagNameMap {
    'attention-explorer': AttentionExplorer;
  }
}
