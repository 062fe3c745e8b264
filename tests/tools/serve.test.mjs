// The server of `make run` (tools/serve.mjs): it reads regular files inside its root and nothing
// else, answers malformed requests with 4xx (never 500), and sends the strict CSP and nosniff.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, openSync, closeSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, CSP } from '../../tools/serve.mjs';

let dir, server, web;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ae-serve-'));
  mkdirSync(join(dir, 'root', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'root', 'index.html'), '<!doctype html><title>home</title>');
  writeFileSync(join(dir, 'root', 'sub', 'index.html'), '<!doctype html><title>sub</title>');
  writeFileSync(join(dir, 'root', 'a.js'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'secret.txt'), 'outside the root');
  symlinkSync('/etc/passwd', join(dir, 'root', 'passwd'));
  symlinkSync(join(dir, 'secret.txt'), join(dir, 'root', 'secret.txt'));
  symlinkSync(dir, join(dir, 'root', 'up')); // a directory link out of the root
  symlinkSync(join(dir, 'root', 'a.js'), join(dir, 'root', 'alias.js')); // a link inside: fine
  spawnSync('mkfifo', [join(dir, 'root', 'fifo')]); // reading a FIFO would hang the server
  server = await startServer({ root: join(dir, 'root'), port: 0 });
  web = await startServer({ port: 0 }); // the real web/ of `make run`
});

after(async () => {
  // A server that did open the FIFO (the check undone) is stuck in open(): a writer that
  // comes and goes ends that read, so the run still ends. With the check there is no reader.
  try {
    closeSync(openSync(join(dir, 'root', 'fifo'), constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {}
  await server.close();
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One raw request (the path is sent as written, not normalised by a URL parser). */
function get(base, path, method = 'GET') {
  const { port } = new URL(base);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('files inside the root are served, a directory gives its index.html, a link inside the root is followed', async () => {
  assert.equal((await get(server.url, '/')).body, '<!doctype html><title>home</title>');
  assert.equal((await get(server.url, '/sub/')).body, '<!doctype html><title>sub</title>');
  const js = await get(server.url, '/alias.js');
  assert.equal(js.status, 200);
  assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
});

test('a symlink to /etc/passwd, to a file outside the root or to a directory above it is not served', async () => {
  for (const path of ['/passwd', '/secret.txt', '/up/secret.txt']) {
    const r = await get(server.url, path);
    assert.equal(r.status, 404, path);
    assert.doesNotMatch(r.body, /root:|outside the root/, path);
  }
});

// Without the check the request never ends: the timeout makes that a failure, not a hang of
// the whole run (it is no speed limit: the answer comes at once or never).
test('only regular files: a FIFO is refused at once (reading it would hang)', { timeout: 20000 }, async () => {
  assert.equal((await get(server.url, '/fifo')).status, 404);
});

test('paths that climb out of the root, raw or percent-encoded, are not served', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
    const r = await get(server.url, path);
    assert.ok(r.status === 404 || r.status === 400, `${path}: ${r.status}`);
    assert.doesNotMatch(r.body, /outside the root/);
  }
});

test('malformed percent-encoding and %00 get 400, not 500', async () => {
  for (const path of ['/%', '/%E0%A4%A', '/a%zz.js', '/a.js%00', '/%00', '/sub/%00/index.html']) {
    const r = await get(server.url, path);
    assert.equal(r.status, 400, path);
    assert.match(r.body, /bad request/, path);
  }
});

test('methods other than GET and HEAD get 405 with Allow; HEAD has the headers and no body', async () => {
  for (const method of ['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
    const r = await get(server.url, '/a.js', method);
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.allow, 'GET, HEAD', method);
  }
  const head = await get(server.url, '/a.js', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.equal(head.headers['content-length'], String('export const a = 1;\n'.length));
});

test('every answer, errors too, has nosniff and the strict CSP the element is tested under', async () => {
  for (const [path, method] of [['/', 'GET'], ['/a.js', 'HEAD'], ['/nothing', 'GET'], ['/%', 'GET'], ['/a.js', 'POST']]) {
    const r = await get(server.url, path, method);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', `${method} ${path}`);
    assert.equal(r.headers['content-security-policy'], CSP, `${method} ${path}`);
  }
  assert.equal(CSP, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'");
});

test("make run's root: the page, the labs and the module are served with the policy", async () => {
  for (const path of ['/', '/index.html', '/labs.html', '/core/attention.js', '/app.js']) {
    const r = await get(web.url, path);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers['content-security-policy'], CSP, path);
  }
  assert.equal((await get(web.url, '/../Makefile')).status, 404);
  assert.equal((await get(web.url, '/%2e%2e/Makefile')).status, 404);
});
