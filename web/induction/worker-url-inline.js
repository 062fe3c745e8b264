// induction-worker-url-inline.js: dist/'s stand-in for induction-worker-url.js. dist/'s classic
// scripts have no worker file to start (and file:// would refuse one), so the induction mode
// trains on the page's thread (web/induction/panel.js falls back to that whenever a worker cannot
// be had).
export const workerUrl = () => null;
