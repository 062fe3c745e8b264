// @ts-check
// induction-worker.js: the Web Worker that trains the induction model (web/induction/engine.js),
// so the page never waits for a training step. It loads its own copy of the core.
import { loadAttention } from '../core/attention.js';
import { createEngine } from './engine.js';

/** Messages that came before the core was loaded. @type {unknown[]} */
const queue = [];
/** @type {ReturnType<typeof createEngine> | null} */
let engine = null;
// The engine yields between slices of training through a MessageChannel, not setTimeout(0):
// browsers hold a timer set from a timer's callback for at least 4 ms after a few of them in a
// row, and the worker would idle that long after every slice.
const channel = new MessageChannel();
/** @type {(() => void)[]} */
const next = [];
channel.port1.onmessage = () => next.shift()?.();
const later = (/** @type {() => void} */ f) => (next.push(f), channel.port2.postMessage(0));
loadAttention().then(
  (attn) => {
    engine = createEngine(attn, (msg) => self.postMessage(msg), { later });
    for (const m of queue.splice(0)) engine.handle(m);
  },
  (e) => self.postMessage({ type: 'error', message: 'the worker could not load the core: ' + e.message }),
);
self.onmessage = (ev) => (engine ? engine.handle(ev.data) : queue.push(ev.data));
