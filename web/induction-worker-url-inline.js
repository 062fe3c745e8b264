// induction-worker-url-inline.js: the one-file bundle's stand-in for induction-worker-url.js. A
// single classic script has no separate worker file to start, so the induction page trains on
// its own thread (web/induction-panel.js falls back to that whenever a worker cannot be had).
export const workerUrl = () => null;
