#!/usr/bin/env node
// Runs the whole vitest suite (extra arguments are passed to vitest) and ends with one summary line
// "N passed, N failed, N skipped" that CI reads. A file that failed to load or whose hooks threw, an
// unhandled error or a crash all count as failures (scripts/vitest-summary.mjs). Exits non-zero then.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeVitest } from './vitest-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.tmp');
mkdirSync(outDir, { recursive: true });
const jsonFile = join(outDir, 'vitest-results.json');
rmSync(jsonFile, { force: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const res = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);
let report = null;
if (existsSync(jsonFile)) {
  try {
    report = JSON.parse(readFileSync(jsonFile, 'utf8'));
  } catch {
    report = null;
  }
}
const summary = summarizeVitest(report, res.status, root);
for (const n of summary.notes) console.log(n);
console.log(summary.line);
process.exit(summary.failed === 0 ? 0 : 1);
