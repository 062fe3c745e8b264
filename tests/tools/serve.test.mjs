// The server of `make run` and `make dev` (tools/serve.mjs): it reads regular files inside its root
// and nothing else, answers malformed requests with 4xx (never 500), sends the strict CSP and
// nosniff, compresses what a browser accepts, and says what may be cached.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, openSync, closeSync, utimesSync, constants } from 'node:fs';
import { gzipSync, gunzipSync, brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { startServer, CSP } from '../../tools/serve.mjs';

let dir, server, web;
const BIG = 'export const words = ' + JSON.stringify('attention '.repeat(400)) + ';\n';

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
  // Text of a few KB: one file with compressed siblings (as tools/build-site.mjs writes), one
  // without, one a content-hashed asset.
  writeFileSync(join(dir, 'root', 'big.js'), BIG);
  writeFileSync(join(dir, 'root', 'big.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dir, 'root', 'big.js.gz'), gzipSync(BIG));
  writeFileSync(join(dir, 'root', 'plain.css'), BIG);
  mkdirSync(join(dir, 'root', 'assets'));
  writeFileSync(join(dir, 'root', 'assets', 'app-AB12CD34.js'), BIG);
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
async function get(base, path, method = 'GET', headers = {}) {
  const r = await getRaw(base, path, method, headers);
  return { ...r, body: r.raw.toString('utf8') };
}

/** The same, with the body as the bytes sent. @returns {Promise<{ status?: number, headers: import('node:http').IncomingHttpHeaders, raw: Buffer }>} */
function getRaw(base, path, method = 'GET', headers = {}) {
  const { port } = new URL(base);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, raw: Buffer.concat(chunks) }));
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

test('a text file goes as its .br or .gz sibling when the request accepts that encoding (brotli first), else as it is; Vary says so', async () => {
  for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0, gzip', 'gzip'], ['identity', undefined], [undefined, undefined]]) {
    const r = await getRaw(server.url, '/big.js', 'GET', accept ? { 'accept-encoding': accept } : {});
    assert.equal(r.status, 200, String(accept));
    assert.equal(r.headers['content-encoding'], encoding, String(accept));
    assert.equal(r.headers['content-type'], 'text/javascript; charset=utf-8', String(accept));
    assert.equal(r.headers.vary, 'Accept-Encoding', String(accept));
    assert.equal(r.headers['content-length'], String(r.raw.length), String(accept));
    const body = encoding === 'br' ? brotliDecompressSync(r.raw) : encoding === 'gzip' ? gunzipSync(r.raw) : r.raw;
    assert.equal(body.toString(), BIG, String(accept));
    if (encoding) assert.ok(r.raw.length < BIG.length / 4, `${encoding}: ${r.raw.length} bytes of ${BIG.length}`);
  }
});

test('a text file without a sibling is gzipped by the server; a small one, or a sibling older than its file, is not sent', async () => {
  const css = await getRaw(server.url, '/plain.css', 'GET', { 'accept-encoding': 'br, gzip' });
  assert.equal(css.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(css.raw).toString(), BIG);
  const small = await getRaw(server.url, '/a.js', 'GET', { 'accept-encoding': 'br, gzip' });
  assert.equal(small.headers['content-encoding'], undefined);
  assert.equal(small.raw.toString(), 'export const a = 1;\n');
  // big.js edited after its siblings were written: they are stale, so the server gzips the file itself
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'root', 'big.js.br'), old, old);
  try {
    const r = await getRaw(server.url, '/big.js', 'GET', { 'accept-encoding': 'br, gzip' });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(r.raw).toString(), BIG);
  } finally {
    const now = new Date();
    utimesSync(join(dir, 'root', 'big.js.br'), now, now);
  }
});

test('a content-hashed asset may be cached for good; any other file is revalidated, and an unchanged one answers 304 with no body', async () => {
  const asset = await get(server.url, '/assets/app-AB12CD34.js');
  assert.match(asset.headers['cache-control'], /immutable/);
  for (const path of ['/', '/big.js', '/plain.css']) {
    const first = await get(server.url, path, 'GET', { 'accept-encoding': 'gzip' });
    assert.equal(first.headers['cache-control'], 'no-cache', path);
    assert.ok(first.headers.etag, path);
    const again = await get(server.url, path, 'GET', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
    assert.equal(again.status, 304, path);
    assert.equal(again.body, '', path);
    // Another encoding is another entity: it does not match.
    assert.equal((await get(server.url, path, 'GET', { 'if-none-match': first.headers.etag })).status, path === '/' ? 304 : 200, path);
  }
});

test("make dev's root: the page, the labs and the module are served with the policy", async () => {
  for (const path of ['/', '/index.html', '/labs.html', '/core/attention.js', '/app.js']) {
    const r = await get(web.url, path);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers['content-security-policy'], CSP, path);
  }
  assert.equal((await get(web.url, '/../Makefile')).status, 404);
  assert.equal((await get(web.url, '/%2e%2e/Makefile')).status, 404);
});

// Issue 27: the answers Node's parser gives for a request it cannot read carried no CSP.
test('a request the parser refuses (a malformed request line: 400, headers past the limit: 431) is answered with the CSP and nosniff too', async () => {
  const { connect } = await import('node:net');
  const raw = (text) => new Promise((ok, fail) => {
    const s = connect(server.port, '127.0.0.1', () => s.end(text));
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => ok(got));
    s.on('error', fail);
  });
  for (const [text, status] of [['GARBAGE / HTTP/1.1\r\n\r\n', 400], [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`, 431]]) {
    const answer = await raw(text);
    const [head] = answer.split('\r\n\r\n');
    assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), answer.slice(0, 80));
    assert.ok(head.toLowerCase().includes(`content-security-policy: ${CSP}`.toLowerCase()), head);
    assert.match(head.toLowerCase(), /x-content-type-options: nosniff/);
  }
});
