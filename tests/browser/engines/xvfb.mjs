// A virtual X display for the one engine that needs a window (WebKitGTK's MiniBrowser). Xvfb
// picks a free display number itself (-displayfd) and tells it on a pipe, so several runs on one
// machine never collide. Everything started here is stopped by stop(), and also when this
// process exits in any ordinary way (end of the tests, an uncaught error, SIGINT or SIGTERM).
import { spawn } from 'node:child_process';
import { needs } from './driver.mjs';

const running = new Set();
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => process.exit(128 + (sig === 'SIGINT' ? 2 : 15)));
}

/** Starts `cmd args`, remembered so that it is stopped when this process exits. */
export function track(cmd, args, opts) {
  hookExit();
  const child = spawn(cmd, args, opts);
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.exited = new Promise((ok) => child.once('exit', ok));
  child.stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await child.exited;
      clearTimeout(t);
    }
  };
  return child;
}

/** Starts Xvfb; resolves to { display: ':N', stop() }. */
export function startXvfb({ size = '1600x1200x24' } = {}) {
  const child = track(needs('/usr/bin/Xvfb', 'xvfb'), ['-displayfd', '3', '-screen', '0', size, '-nolisten', 'tcp', '-noreset'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((ok, fail) => {
    let out = '';
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok({ display: ':' + out.trim(), stop: child.stop });
    });
    child.once('error', (e) => fail(new Error(`Xvfb could not start (${e.message}); install it with apt-get install -y xvfb`)));
    child.once('exit', (code) => fail(new Error(`Xvfb exited with ${code} before it named its display: ${err.trim().split('\n').slice(-3).join(' / ')}`)));
  });
}
