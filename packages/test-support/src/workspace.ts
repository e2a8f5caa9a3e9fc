/**
 * The workspace's packages as a user installing them sees them: which `@micrort/*` packages one needs at
 * run time (its `dependencies` and `peerDependencies`, transitively), so install tests and the README's
 * install instructions name exactly those.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './conformance.js';

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function manifest(folder: string): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'packages', folder, 'package.json'), 'utf8')) as Manifest;
}

/**
 * The folders (under packages/) of `folder` and every `@micrort/*` package it needs at run time,
 * dependencies before the packages that need them, `folder` last.
 */
export function runtimeClosure(folder: string): string[] {
  const order: string[] = [];
  const visit = (f: string, path: readonly string[]) => {
    if (order.includes(f)) return;
    if (path.includes(f)) throw new Error(`dependency cycle: ${[...path, f].join(' → ')}`);
    const m = manifest(f);
    for (const name of Object.keys({ ...m.peerDependencies, ...m.dependencies }).sort()) {
      if (name.startsWith('@micrort/')) visit(name.slice('@micrort/'.length), [...path, f]);
    }
    order.push(f);
  };
  visit(folder, []);
  return order;
}
