// @ts-check
// A small static file server (no dependencies). `make run` serves the production build with it
// (site/, tools/build-site.mjs), `make dev` the readable modules of web/:
//   node tools/serve.mjs [--root=DIR] [port]   serves DIR (default web/) on http://127.0.0.1:PORT/ (default 8000)
// Tests import startServer({ port: 0 }) to get a free port.
//
// It serves only GET and HEAD of regular files whose real path (symlinks resolved) lies inside
// the root, and sends every page under the strict Content-Security-Policy the element is
// documented and tested under (docs/embedding.md), so `make run` shows the page works under it.
// Compressed, as a static host does: a text file goes as its precompressed sibling (file.br,
// file.gz, which the site's build writes) when the browser accepts that encoding, else
// compressed here (gzip, kept in memory while the file is unchanged). Names with a content hash
// (the site's assets/*-<hash>.js) may be cached for good; every other file is revalidated
// (ETag, 304), so an edit shows at the next reload.
import { createServer, STATUS_CODES } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

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

/** Types worth compressing (images and Wasm are compressed already, or barely shrink). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);
/** A name esbuild gave a content hash (tools/build-site.mjs: assets/<name>-<hash>.js): its bytes never change. */
const HASHED = /[\\/]assets[\\/][^\\/]+-[A-Z0-9]{8}\.js(\.map)?$/;
// The encodings a file may go in, best first, and the sibling that holds each.
const ENCODINGS = [{ name: 'br', ext: '.br' }, { name: 'gzip', ext: '.gz' }];

/**
 * The encodings an Accept-Encoding header accepts (q=0 refuses one).
 * @param {string | undefined} header @returns {Set<string>}
 */
export function acceptedEncodings(header = '') {
  const ok = new Set();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) ok.add(name);
  }
  return ok;
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
  /** @type {Map<string, { key: string, body: Buffer }>} */
  const gzipped = new Map(); // on-the-fly gzip of a file without a .gz sibling, while it is unchanged
  /**
   * What to send for `file`: its precompressed sibling in an accepted encoding, else (a text
   * type) gzip made here, else the file itself. The ETag names the file's version and encoding.
   * @param {string} file @param {Set<string>} accepted
   * @returns {Promise<{ body: Buffer, encoding: string, etag: string }>}
   */
  const variant = async (file, accepted) => {
    const info = await stat(file);
    const version = `${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}`;
    if (!COMPRESSIBLE.has(extname(file))) return { body: await readFile(file), encoding: '', etag: `"${version}"` };
    for (const { name, ext } of ENCODINGS) {
      if (!accepted.has(name)) continue;
      const sibling = await stat(file + ext).catch(() => null);
      if (sibling?.isFile() && sibling.mtimeMs >= info.mtimeMs) return { body: await readFile(file + ext), encoding: name, etag: `"${version}-${name}"` };
    }
    if (!accepted.has('gzip') || info.size < 1024) return { body: await readFile(file), encoding: '', etag: `"${version}"` };
    const cached = gzipped.get(file);
    if (cached?.key === version) return { body: cached.body, encoding: 'gzip', etag: `"${version}-gzip"` };
    const body = gzipSync(await readFile(file), { level: 6 });
    gzipped.set(file, { key: version, body });
    return { body, encoding: 'gzip', etag: `"${version}-gzip"` };
  };
  const server = createServer(async (req, res) => {
    /** @param {number} status @param {string} body @param {Record<string, string>} [extra] */
    const text = (status, body, extra = {}) => {
      res.writeHead(status, { ...always, 'content-type': 'text/plain; charset=utf-8', ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'method not allowed: this server only reads files (GET, HEAD)', { allow: 'GET, HEAD' });
    try {
      const file = await fileFor(base, req.url ?? '/');
      const { body, encoding, etag } = await variant(file, acceptedEncodings(req.headers['accept-encoding']));
      const ext = extname(file);
      const head = {
        'content-type': TYPES[/** @type {keyof typeof TYPES} */ (ext)] ?? 'application/octet-stream',
        'cache-control': HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
        etag,
        ...(COMPRESSIBLE.has(ext) ? { vary: 'Accept-Encoding' } : {}),
        ...(encoding ? { 'content-encoding': encoding } : {}),
        ...always,
      };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, head);
        return res.end();
      }
      res.writeHead(200, { ...head, 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      if (err instanceof HttpError) text(err.status, err.message);
      else text(500, 'server error');
    }
  });
  // A request Node's parser refuses (a malformed request line: 400; headers past its limit: 431)
  // never reaches the handler above: answer it here, with the same headers as every answer.
  server.on('clientError', (err, socket) => {
    if (!socket.writable || /** @type {{ code?: string }} */ (err).code === 'ECONNRESET') return socket.destroy();
    const status = /** @type {{ code?: string }} */ (err).code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = status === 431 ? 'request header fields too large: send fewer or shorter headers' : 'bad request: the request could not be parsed';
    const head = { ...always, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`);
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
  const args = process.argv.slice(2);
  const rootArg = args.find((a) => a.startsWith('--root='))?.slice('--root='.length);
  const portArg = args.find((a) => !a.startsWith('--'));
  const port = Number(portArg ?? process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: "${portArg}" is not a port number; use e.g. make run PORT=8080`);
    process.exit(2);
  }
  const root = rootArg ? resolve(rootArg) : WEB_ROOT;
  startServer({ root, port }).then(
    ({ url }) => console.log(`Attention Explorer: ${url}  (serving ${root}; Ctrl-C to stop)`),
    (err) => {
      console.error(err.code === 'EADDRINUSE' ? `serve: port ${port} is in use; pick another with make run PORT=8080`
        : err.code === 'ENOENT' ? `serve: there is no folder ${root} to serve; build it first (make site builds site/)`
        : `serve: ${err.message}`);
      process.exit(1);
    });
}
