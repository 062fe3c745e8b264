// The programs the cross-engine suite starts itself (Xvfb, WebKitWebDriver, and Firefox through
// puppeteer), started so that none outlives the test process, and the virtual X display of the
// one engine that needs a window (WebKitGTK's MiniBrowser). Xvfb picks a free display number
// itself (-displayfd) and says it on a pipe, so several runs on one machine never collide.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { needs } from './driver.mjs';

// Each program runs under watchdog.sh, which holds a pipe from this process on its stdin: the
// program stops when the pipe closes (stop() below, or this process ending in any way, even by
// SIGKILL), and the watchdog ends when the program does, with its exit status.
export const WATCHDOG = fileURLToPath(new URL('watchdog.sh', import.meta.url));

/**
 * Starts `cmd args` under the watchdog; `stdio` is for the program (index 0, its stdin, is
 * always /dev/null). Returns the ChildProcess with exited (a promise of the exit code) and stop().
 */
export function track(cmd, args, { stdio = [], env } = {}) {
  const child = spawn(WATCHDOG, [cmd, ...args], { stdio: ['pipe', ...(stdio.slice(1).length ? stdio.slice(1) : ['ignore', 'ignore'])], env });
  child.exited = new Promise((ok) => child.once('exit', (code) => ok(code)));
  child.stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      await child.exited;
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
    child.once('exit', (code) => fail(new Error(`Xvfb exited with ${code} before it named its display: ${err.trim().split('\n').slice(-3).join(' / ')}`)));
  });
}
