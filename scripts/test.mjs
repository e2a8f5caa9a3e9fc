#!/usr/bin/env node
// Runs the whole vitest suite (extra arguments are passed to vitest) and ends with one summary line
// "N passed, N failed, N skipped" that CI reads. Exits non-zero when a test failed or vitest crashed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(jsonFile)) {
  const r = JSON.parse(readFileSync(jsonFile, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = r.numFailedTests ?? 0;
  skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // Suites that failed to load count as failures too.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
  failed += brokenFiles;
} else {
  failed = Math.max(1, failed);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(res.status === 0 && failed === 0 ? 0 : 1);
