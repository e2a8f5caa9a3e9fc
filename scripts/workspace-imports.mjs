// Which packages each workspace package's files import, against what its package.json declares.
// Used by scripts/repo-checks.test.ts ("every import is declared") and runnable by hand:
// `node scripts/workspace-imports.mjs` prints every undeclared import.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Folders of the workspace's packages (pnpm-workspace.yaml: packages/*, benchmarks) and the root. */
export function workspacePackages() {
  const dirs = readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(ROOT, 'packages', e.name, 'package.json')))
    .map((e) => join(ROOT, 'packages', e.name));
  return [...dirs, join(ROOT, 'benchmarks')];
}

function sourceFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`), or null for relative/builtin ones. */
export function packageOf(spec) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('virtual:')) return null;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return builtinModules.includes(name) ? null : name;
}

/** Every bare import of `dir`'s files (AssemblyScript sources excluded) that its package.json does not declare. */
export function undeclaredImports(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set([
    pkg.name,
    ...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }),
  ]);
  const missing = [];
  for (const file of sourceFiles(dir)) {
    if (file.includes(`${join(dir, 'assembly')}/`)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const name = packageOf(m[1] ?? m[2] ?? m[3]);
      if (name && !declared.has(name)) missing.push({ file: relative(ROOT, file), name });
    }
  }
  return missing;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = workspacePackages().flatMap((dir) => undeclaredImports(dir));
  for (const m of missing) console.log(`${m.file}: ${m.name}`);
  const n = missing.length;
  console.log(n === 0 ? 'every import is declared' : `${n} undeclared imports`);
  process.exit(n === 0 ? 0 : 1);
}
