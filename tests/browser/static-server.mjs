// The plainest static host there is: `python3 -m http.server` on loopback, which sends no CORS,
// COOP/COEP or caching headers of its own — what the hosted build must work behind.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A free loopback port (taken from the system, then released for the server to bind). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Serves `dir` on 127.0.0.1 (`port`: a free one unless given, e.g. to restart on the same origin).
 * Resolves to { url, port, stop() } once the server accepts connections.
 */
export async function pythonServer(dir, port) {
  port ??= await freePort();
  const child = spawn('python3', ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, String(port)], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Polled until it accepts: on a busy machine Python alone can take seconds to start, so the
  // deadline is generous, and a server that exits fails at once.
  for (const until = Date.now() + 60000; !(await accepts(port));) {
    if (Date.now() > until || child.exitCode !== null)
      throw new Error(`python3 -m http.server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    async stop() {
      child.kill();
      await exited;
    },
  };
}

/**
 * A blog on an origin of its own, as the embed tests need one: `pages` ({ 'post.html': html, … })
 * written to a temporary folder and served by pythonServer. → { url, write(name, html), stop() };
 * stop() also removes the folder.
 */
export async function blogServer(pages) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-blog-'));
  const write = (name, html) => fs.writeFileSync(path.join(dir, name), html);
  for (const [name, html] of Object.entries(pages)) write(name, html);
  const server = await pythonServer(dir);
  return {
    url: server.url,
    write,
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
