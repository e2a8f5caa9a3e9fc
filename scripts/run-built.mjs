#!/usr/bin/env node
// Runs a workspace program from its compiled output, compiling first only when a source is newer than
// its build: `node scripts/run-built.mjs <project dir> <script relative to the repo> [args…]`.
// `tsc -b` alone answers "up to date" too, but costs ~1.5 s per call; a walk over the mtimes of the
// project's reference closure costs a few milliseconds.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [project, script, ...args] = process.argv.slice(2);
if (!project || !script) {
  console.error('usage: node scripts/run-built.mjs <project dir> <script> [args…]');
  process.exit(2);
}

/** The newest mtime (ms) below `path` (files only; dist and node_modules skipped). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(path, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    m = Math.max(m, newest(join(path, e.name)));
  }
  return m;
}

/** True when `dir` or a project it references has a source newer than its build info. */
function stale(dir, seen = new Set()) {
  if (seen.has(dir)) return false;
  seen.add(dir);
  const tsconfig = join(dir, 'tsconfig.json');
  // tsconfig.json files are JSON with no comments in this repository.
  const config = JSON.parse(readFileSync(tsconfig, 'utf8'));
  const info = join(dir, config.compilerOptions?.tsBuildInfoFile ?? 'dist/.tsbuildinfo');
  const built = existsSync(info) ? statSync(info).mtimeMs : 0;
  const inputs = Math.max(
    newest(join(dir, 'src')),
    newest(tsconfig),
    newest(join(dir, 'package.json')),
    newest(join(root, 'tsconfig.base.json')),
  );
  if (inputs > built) return true;
  return (config.references ?? []).some((r) => stale(resolve(dir, r.path), seen));
}

const dir = resolve(root, project);
if (stale(dir)) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-b', dir], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const r = spawnSync(process.execPath, [resolve(root, script), ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
