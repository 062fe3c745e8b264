// induction-worker-url.js: where the induction page's Web Worker script is, beside this module.
// The build of dist/ (tools/build-dist.mjs) replaces this module by
// induction-worker-url-inline.js, which has no worker to offer: the page then trains on its own
// thread, in short slices.
export const workerUrl = () => new URL('./worker.js', import.meta.url);
