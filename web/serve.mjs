// A small static file server for web/ (no dependencies). `make run` uses it:
//   node web/serve.mjs [port]        serves http://127.0.0.1:PORT/ (default 8000)
// Tests import startServer({ port: 0 }) to get a free port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.wasm': 'application/wasm', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

export const WEB_ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Serves `root` on 127.0.0.1:`port` (0 = any free port). Resolves to { url, port, close }. */
export function startServer({ root = WEB_ROOT, port = 0, host = '127.0.0.1', headers = {} } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache', ...headers });
      res.end(body);
    } catch (err) {
      res.writeHead(err.code === 'ENOENT' || err.code === 'EISDIR' ? 404 : 500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(err.code === 'ENOENT' ? 'not found' : 'server error');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      ok({ url: `http://${host}:${p}/`, port: p, close: () => new Promise((done) => server.close(done)) });
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
