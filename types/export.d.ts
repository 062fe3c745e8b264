// Types of `attention-explorer/export` (web/explorer/export.js): the pictures and numbers a learner can
// take away, as pure functions of a view (paintPNG is given the document).
import type { ForwardResult } from './attention.js';
import type { Config, MatrixName, Step } from './config.js';

/** What the explorer shows: a config, forward's result for it, and its scores with scale 1. */
export interface View {
  config: Config;
  r: ForwardResult;
  /** the result with scale 1 (the unscaled scores Q·Kᵀ, shown at the Score step) */
  raw: Pick<ForwardResult, 'S'>;
  /** the step shown (null: every step) */
  step: Step | null;
}
export type Theme = 'light' | 'dark';
export declare const EXPORTABLE: MatrixName[];

/** One matrix as CSV, exactly the values its panel shows (full float32 precision). */
export declare function matrixCSV(view: View, m: MatrixName): string;
/** One matrix as JSON: a masked entry is null, and the object says so in "null_means". */
export declare function matrixJSON(view: View, m: MatrixName): string;
/** The config and every matrix of the head. */
export declare function headJSON(view: View): string;

/** A display-list operation of layoutHeatmap / layoutView. */
export type DrawOp =
  | { t: 'rect'; x: number; y: number; w: number; h: number; fill: string }
  | { t: 'text'; x: number; y: number; text: string; fill: string; size: number; anchor: 'start' | 'middle' | 'end'; bold?: boolean };
export interface Layout {
  w: number;
  h: number;
  ops: DrawOp[];
}
export declare function layoutHeatmap(view: View, m: MatrixName, theme?: Theme, x0?: number, y0?: number): Layout;
export declare function layoutView(view: View, options?: { theme?: Theme; matrices?: readonly MatrixName[] }): Layout;
/** One heatmap as an SVG document. */
export declare function heatmapSVG(view: View, m: MatrixName, options?: { theme?: Theme }): string;
/** The whole view as one SVG document. */
export declare function viewSVG(view: View, options?: { theme?: Theme; matrices?: readonly MatrixName[] }): string;
/** One heatmap (m) or the whole view painted on a canvas; resolves to a PNG Blob. */
export declare function paintPNG(doc: Document, view: View, options?: { theme?: Theme; m?: MatrixName | null; matrices?: readonly MatrixName[]; scale?: number }): Promise<Blob>;
/** The head as a PyTorch script in the lesson's style, checked against scaled_dot_product_attention. */
export declare function pytorchScript(config: Config, r: ForwardResult): string;
