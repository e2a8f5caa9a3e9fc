#!/usr/bin/env node
// The `micrort` command: a launcher committed to the repository, so the package's `bin` exists when
// `pnpm install` links it (before anything is built) — the compiled CLI is dist/bin.js, written by
// `pnpm build` (or by `pnpm micrort …`, which builds first when a source is newer).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(fileURLToPath(built))) {
  console.error('micrort is not built yet: run `pnpm build` in the repository (or use `pnpm micrort …`, which builds first).');
  process.exit(1);
}
await import(built.href);
