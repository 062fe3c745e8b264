// A TypeScript user of the package, by its export names (resolved through package.json
// `exports` and their `types` conditions). `make test-types` type-checks this file: every line
// must pass, and every line after `@ts-expect-error` must be refused, or tsc fails.
import { loadAttention, LIMITS, type ForwardResult, type Trainer, type Matrix } from 'attention-explorer';
import { parseConfig, forwardArgs, isDirect, STEPS, ConfigError, type Config, type Step } from 'attention-explorer/config';
import { PRESETS, DEFAULT_PRESET } from 'attention-explorer/presets';
import { matrixCSV, headJSON, pytorchScript, type View } from 'attention-explorer/export';
import { AttentionExplorer, registerMode, type AttentionExplorerEventMap } from 'attention-explorer/element';
import 'attention-explorer/dist';

export async function core(): Promise<number> {
  const attn = await loadAttention();
  const big: number = LIMITS.maxTokens;
  const X: Matrix = [[1, 0], [0, 1], [1, 1]];
  const r: ForwardResult = attn.forward({ X, Wq: X.slice(0, 2), Wk: [[1, 0], [0, 1]], Wv: { shape: [2, 2], data: new Float32Array(4) }, causal: true });
  const weights: Float32Array = r.A;
  const d: number | null = r.d;
  const direct = attn.forward({ Q: X, K: X, V: X, mask: [[true, false, false], [true, true, false], [true, true, true]], scale: null });
  const onlyO = attn.forward({ Q: X, K: X, V: X }, { outputs: ['O'] });
  const o: Float32Array = onlyO.O;
  const a: null = onlyO.A;
  const again = attn.forward({ Q: X, K: X, V: X }, { outputs: ['O'], into: onlyO });
  const work: number = attn.workspace().buffers.work + again.O.length;
  const y = attn.multiHead({ Q: { shape: [1, 2, 3, 2], data: new Float32Array(12) }, K: { shape: [1, 2, 3, 2], data: new Float32Array(12) }, V: { shape: [1, 2, 3, 2], data: new Float32Array(12) } });
  const row: Float32Array = attn.softmaxRow([1, 2, -Infinity], { naive: true });
  const { entropy } = attn.softmaxStats(row);
  const t: Trainer = attn.createTrainer({ task: 'find-the-noun', seed: 3, optimizer: 'sgd', lr: 0.1 });
  const losses: Float32Array = t.step(10);
  const { accuracy } = t.evaluate();
  const example = t.example({ seed: 0 });
  t.dispose();
  const model = attn.createInduction({ layers: 1, seed: 2 });
  const heads: Float32Array = model.example(0).heads[0].A;
  const kc: number[][] | null = model.composition();
  model.dispose();
  const which: 'full' | 'trainer' | 'forward' | null = attn.core;

  // @ts-expect-error a shape has two sizes, rows and columns
  attn.forward({ Q: { shape: [6], data: new Float32Array(6) }, K: X, V: X });
  // @ts-expect-error the direct and the projection form do not mix
  attn.forward({ Q: X, K: X, V: X, Wq: X });
  // @ts-expect-error causal is a boolean
  attn.forward({ Q: X, K: X, V: X, causal: 'yes' });
  // @ts-expect-error there is no matrix "P"
  attn.forward({ Q: X, K: X, V: X }, { outputs: ['P'] });
  // @ts-expect-error the arrays left out of `outputs` are null
  const s: Float32Array = onlyO.S;
  // @ts-expect-error there is no task "copy"
  attn.createTrainer({ task: 'copy' });
  // @ts-expect-error an induction model's option is weightDecay, not decay
  attn.createInduction({ decay: 0.1 });
  return big + weights.length + (d ?? 0) + direct.n + o.length + (a ?? 0) + y.data.length + entropy + losses.length + accuracy + example.X.length + s.length + work + heads.length + (kc ? kc.length : 0) + (which ? 1 : 0);
}

export function config(text: string): string {
  const c: Config = parseConfig(text);
  const args = forwardArgs(c);
  const steps: Step[] = STEPS;
  const fromPreset = parseConfig(PRESETS[DEFAULT_PRESET].config);
  const tokens: string[] = isDirect(fromPreset) ? fromPreset.tokens : fromPreset.features;
  try {
    parseConfig({ Q: [[1]], K: [[1]], V: [[1]] });
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
  }
  // @ts-expect-error there is no preset "no-such-preset"
  PRESETS['no-such-preset'];
  // @ts-expect-error a config needs X, Wq, Wk and Wv, or Q, K and V
  parseConfig({ X: [[1]] });
  // @ts-expect-error "explain" is not a step
  const bad: Step = 'explain';
  return JSON.stringify(args) + steps.length + tokens.length + bad;
}

export function exports(view: View): string {
  // @ts-expect-error there is no matrix "P" to export
  matrixCSV(view, 'P');
  return matrixCSV(view, 'A') + headJSON(view) + pytorchScript(view.config, view.r);
}

export async function element(): Promise<void> {
  const el = document.querySelector('attention-explorer');
  if (!el) return;
  const typed: AttentionExplorer = el;
  await el.ready;
  el.step = 'softmax';
  el.follow = 2;
  el.theme = 'dark';
  el.controls = ['steps', 'follow', 'explain'];
  el.config = { Q: [[1, 0], [0, 1]], K: [[1, 0], [0, 1]], V: [[1, 2], [3, 4]] };
  const A: Float32Array | undefined = el.result?.A;
  const csv: string = el.exportCSV('A');
  const png: Blob = await el.exportPNG();
  el.addEventListener('explorer-step', (e) => console.log(e.detail.step satisfies Step | null));
  el.addEventListener('explorer-select', (e) => console.log(e.detail.cell?.m, e.detail.follow));
  el.addEventListener('explorer-change', (e) => console.log(e.detail.config.tokens));
  el.addEventListener('explorer-state', (e) => console.log(e.detail.mode, e.detail.params));
  el.addEventListener('click', (e) => console.log(e.clientX));
  const ready: keyof AttentionExplorerEventMap = 'explorer-ready';
  const made = document.createElement('attention-explorer');
  made.mode = 'sqrt-dk-lab';
  made.params = 'dk=64&n=32&seed=1';
  registerMode('my-lab', (container) => ({ destroy: () => container.replaceChildren() }), { css: '.x{}' });

  // @ts-expect-error there is no event "explorer-stepped"
  el.addEventListener('explorer-stepped', () => {});
  // @ts-expect-error the step event's detail has no "cell"
  el.addEventListener('explorer-step', (e) => e.detail.cell);
  // @ts-expect-error "blue" is not a theme
  el.theme = 'blue';
  // @ts-expect-error "sliders" is not a control group
  el.controls = ['sliders'];
  // @ts-expect-error a config needs its matrices
  el.config = { tokens: ['a'] };
  // @ts-expect-error exportCSV names one matrix
  el.exportCSV();
  // @ts-expect-error the result is read-only
  el.result = null;
  console.log(typed, A, csv, png, ready);
}

export async function oneFile(): Promise<void> {
  // attention-explorer/dist exports nothing: it sets globalThis.AttentionExplorer.
  const attn = await globalThis.AttentionExplorer.loadAttention({ simd: false });
  const el: AttentionExplorer = new globalThis.AttentionExplorer.AttentionExplorer();
  // @ts-expect-error the one file has no default export to call
  globalThis.AttentionExplorer();
  console.log(attn.simd, el.mode);
}
