// A tiny static file server for the built page (no dependencies, loopback only).
// `node scripts/serve.mjs [root] [--port N]` serves `root` (default build/web) and prints the URL;
// tests import { startServer } to serve on an ephemeral port.
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

export function startServer({ root, port = 0, host = '127.0.0.1' } = {}) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      rel = '/';
    }
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
  startServer({ root, port }).then(
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
