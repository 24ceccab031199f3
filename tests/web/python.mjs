// Runs an exported NumPy script with Debian's python3 (python3-numpy, scripts/bootstrap.sh; another
// python may come first on PATH) and reads what it prints: a line that does not start with a space
// names a block, the indented lines under it are its rows, as the scripts print them.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const PYTHON = '/usr/bin/python3';

/** Writes `text` to `dir`/`name`.py, runs it; returns { block name: rows of printed strings }. */
export function runPython(dir, text, name) {
  const file = path.join(dir, `${name.replace(/\W+/g, '-')}.py`);
  fs.writeFileSync(file, text);
  const out = execFileSync(PYTHON, [file], { encoding: 'utf8' });
  const blocks = {};
  let current;
  for (const line of out.trimEnd().split('\n')) {
    if (!line.startsWith(' ')) blocks[(current = line)] = [];
    else blocks[current].push(line.trim().split(/\s+/));
  }
  return blocks;
}
