// browser/server.mjs — the loopback server of the browser benchmark. Serves, from the repository
// root, only what the page needs: the page and the harness modules (bench/), the project's module
// as built (wasm/*.mjs + build/wasm/) and the page's feature probes (web/src/engine.js), the wasm peak (build/bench/) and the peers' browser
// distributions (bench/node_modules/…/dist/). It records every path it served, so that the run can
// show which wasm binaries each runtime actually fetched (e.g. TensorFlow.js's single-threaded SIMD
// binary, never the threaded one), and every path it refused.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const ALLOWED = [
  /^\/bench\/[\w.-]+\.mjs$/,
  /^\/bench\/(peers|browser)\/[\w.-]+$/,
  /^\/wasm\/[\w.-]+\.mjs$/,
  /^\/web\/src\/engine\.js$/, // the page's feature probes (relaxed SIMD), the same bytes as the page's
  // the training benchmark: the training lab's host and session (train-run.js) and what they import
  /^\/web\/src\/(labs\/[\w.-]+|presets)\.js$/,
  /^\/build\/wasm\/[\w.-]+$/,
  /^\/build\/bench\/[\w.-]+$/,
  /^\/bench\/node_modules\/@tensorflow\/tfjs-(core|backend-wasm)\/dist\/[\w.-]+$/,
  /^\/bench\/node_modules\/onnxruntime-web\/dist\/[\w.-]+$/,
];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export function startBenchServer(root) {
  const served = [],
    refused = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    if (!ALLOWED.some((re) => re.test(url))) {
      refused.push(url);
      res.writeHead(404).end();
      return;
    }
    fs.readFile(path.join(root, url), (err, body) => {
      if (err) {
        refused.push(url);
        res.writeHead(404).end();
        return;
      }
      served.push(url);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(url)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        served,
        refused,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections?.();
            server.close(r);
          }),
      }),
    );
  });
}
