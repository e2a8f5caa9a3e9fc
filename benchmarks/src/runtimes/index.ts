/**
 * The runtimes the harness times, in report order: micrort with each kernel package (reference first:
 * it is the reference for the output comparison), then the peers a user would pick instead.
 */
import type { RuntimeAdapter } from '../runtime.js';
import { litertRuntime, litertThreadsRuntime } from './litert.js';
import { KERNEL_PACKAGES, micrortRuntime } from './micrort.js';
import { tfjsTfliteRuntime } from './tfjs-tflite.js';

/** The peer whose median the others are compared with (the ratio column). */
export const BASELINE_RUNTIME = 'LiteRT.js';

/** Every runtime, in report order. */
export function allRuntimes(): RuntimeAdapter[] {
  return [...KERNEL_PACKAGES.map(micrortRuntime), litertRuntime(), litertThreadsRuntime(2), tfjsTfliteRuntime()];
}

/** A runtime id as typed on the command line: `micrort reference` → `micrort-reference`, `LiteRT.js` → `litert-js`. */
export function runtimeKey(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** The runtimes named by key (all when `keys` is empty); an unknown key throws, listing the known ones. */
export function selectRuntimes(keys: readonly string[]): RuntimeAdapter[] {
  const all = allRuntimes();
  if (keys.length === 0) return all;
  for (const k of keys)
    if (!all.some((r) => runtimeKey(r.id) === k))
      throw new Error(`unknown runtime "${k}"; known: ${all.map((r) => runtimeKey(r.id)).join(', ')}`);
  return all.filter((r) => keys.includes(runtimeKey(r.id)));
}
