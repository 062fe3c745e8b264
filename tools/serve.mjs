// @ts-check
// A small static file server for web/ (no dependencies). `make run` uses it:
//   node tools/serve.mjs [port]        serves http://127.0.0.1:PORT/ (default 8000)
// Tests import startServer({ port: 0 }) to get a free port.
//
// It serves only GET and HEAD of regular files whose real path (symlinks resolved) lies inside
// the root, and sends every page under the strict Content-Security-Policy the element is
// documented and tested under (docs/embedding.md), so `make run` shows the page works under it.
import { createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.wasm': 'application/wasm', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

export const WEB_ROOT = fileURLToPath(new URL('../web/', import.meta.url));

/** The strict policy of docs/embedding.md: no inline script or style, no eval, Wasm allowed. */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/** Sent with every answer; `headers` given to startServer add to them or replace them. */
export const SECURITY_HEADERS = Object.freeze({ 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' });

class HttpError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** @param {string} root @param {string} file */
const inside = (root, file) => file === root || file.startsWith(root + sep);

/**
 * The file a request path names, or an HttpError: 400 for a malformed path, 404 for anything
 * that is not a regular file inside `root` (`root` is already a real path).
 * @param {string} root @param {string} rawUrl
 */
async function fileFor(root, rawUrl) {
  let path;
  try {
    path = decodeURIComponent(new URL(rawUrl, 'http://x').pathname);
  } catch {
    throw new HttpError(400, 'bad request: the path has malformed percent-encoding');
  }
  if (path.includes('\0')) throw new HttpError(400, 'bad request: the path holds a NUL byte');
  let file = resolve(join(root, path));
  if (!inside(root, file)) throw new HttpError(404, 'not found');
  try {
    file = await realpath(file);
    if (!inside(root, file)) throw new HttpError(404, 'not found'); // a symlink out of the root
    let info = await stat(file);
    if (info.isDirectory()) {
      file = await realpath(join(file, 'index.html'));
      if (!inside(root, file)) throw new HttpError(404, 'not found');
      info = await stat(file);
    }
    if (!info.isFile()) throw new HttpError(404, 'not found'); // a device, a FIFO, a socket
    return file;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const err = /** @type {NodeJS.ErrnoException} */ (e);
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'ELOOP' || err.code === 'ENAMETOOLONG') throw new HttpError(404, 'not found');
    if (err.code === 'EACCES' || err.code === 'EPERM') throw new HttpError(403, 'forbidden');
    throw err;
  }
}

/**
 * Serves `root` on 127.0.0.1:`port` (0 = any free port). Resolves to { url, port, close }.
 * @param {{ root?: string, port?: number, host?: string, headers?: Record<string, string | null> }} [options]
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function startServer({ root = WEB_ROOT, port = 0, host = '127.0.0.1', headers = {} } = {}) {
  const base = await realpath(resolve(root));
  // A header given as null is left out (a test of a page without the policy).
  const always = Object.fromEntries(Object.entries({ ...SECURITY_HEADERS, ...headers }).filter(([, v]) => v != null));
  const server = createServer(async (req, res) => {
    /** @param {number} status @param {string} body @param {Record<string, string>} [extra] */
    const text = (status, body, extra = {}) => {
      res.writeHead(status, { ...always, 'content-type': 'text/plain; charset=utf-8', ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'method not allowed: this server only reads files (GET, HEAD)', { allow: 'GET, HEAD' });
    try {
      const file = await fileFor(base, req.url ?? '/');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? 'application/octet-stream', 'cache-control': 'no-cache', 'content-length': body.length, ...always });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      if (err instanceof HttpError) text(err.status, err.message);
      else text(500, 'server error');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: p } = /** @type {import('node:net').AddressInfo} */ (server.address());
      ok({ url: `http://${host}:${p}/`, port: p, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: "${process.argv[2]}" is not a port number; use e.g. make run PORT=8080`);
    process.exit(2);
  }
  startServer({ port }).then(
    ({ url }) => console.log(`Attention Explorer: ${url}  (Ctrl-C to stop)`),
    (err) => {
      console.error(err.code === 'EADDRINUSE' ? `serve: port ${port} is in use; pick another with make run PORT=8080` : `serve: ${err.message}`);
      process.exit(1);
    });
}
