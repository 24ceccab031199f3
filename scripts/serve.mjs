// A tiny static file server for the built page (no dependencies, loopback only).
// `node scripts/serve.mjs [root] [--port N]` serves `root` (default build/web) and prints the URL;
// tests import { startServer } to serve on an ephemeral port. Serving the development page, it
// also serves the built site, dist/site, at /site/: what the page's embed snippet points at, since
// a sandboxed frame cannot load the development page's module scripts (web/src/embed/snippet.js).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** `mounts`: { '/site/': 'dist/site' } serves that folder under that path, the rest from `root`. */
export function startServer({ root, port = 0, host = '127.0.0.1', mounts = {} } = {}) {
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      rel = '/';
    }
    const mount = Object.keys(mounts).find((prefix) => rel.startsWith(prefix));
    const base = path.resolve(mount ? mounts[mount] : root);
    if (mount) rel = rel.slice(mount.length - 1);
    let file = path.join(base, path.normalize(rel).replace(/^([/\\])+/, ''));
    if (!file.startsWith(base)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    } catch {
      /* 404 below */
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({
        server,
        url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}/`,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : Number(process.env.PORT ?? 8080);
  const root = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--port') ?? 'build/web';
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.error(`serve: ${root}/index.html not found — run \`npm run build\` first`);
    process.exit(1);
  }
  const mounts = path.resolve(root) === path.resolve('build/web') ? { '/site/': 'dist/site' } : {};
  startServer({ root, port, mounts }).then(
    ({ url }) => {
      console.log(`Attention Playground: ${url}  (Ctrl+C to stop)`);
    },
    (err) => {
      console.error(
        `serve: cannot listen on port ${port}: ${err.message}` +
          (err.code === 'EADDRINUSE' ? ' — set PORT=another number' : ''),
      );
      process.exit(1);
    },
  );
}
