import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { ModelError, loadModel, type ModelDef } from '@micrort/core';
import { BUILT_IN_MODELS as APP_MODELS } from '@micrort/app-kit';
import type { ArgumentSpec } from './command.js';
import { UsageError } from './args.js';

/** Built-in models by name (app-kit's list): `demo` (the default) and `demo:float-cnn`. */
export const BUILT_IN_MODELS: Record<string, { label: string; build: () => Uint8Array }> = Object.fromEntries(
  APP_MODELS.map((m) => [m.name, { label: `built-in ${m.name} model (${m.label}: ${m.ops})`, build: () => m.build() }]),
);

/** The `[model]` argument of run, inspect, plan and bench. */
export const MODEL_ARGUMENT: ArgumentSpec = {
  name: 'model',
  description: `a .tflite file, or a built-in model: ${Object.keys(BUILT_IN_MODELS).join(', ')} (default: demo)`,
};

/**
 * Loads the model named on the command line: a .tflite path, a built-in name (`demo`,
 * `demo:float-cnn`), or the built-in demo model when none is given.
 */
export function loadModelArg(path: string | undefined): { model: ModelDef; label: string; bytes: Uint8Array } {
  if (path === undefined || BUILT_IN_MODELS[path]) {
    const { build, label } = BUILT_IN_MODELS[path ?? 'demo']!;
    const bytes = build();
    return { model: loadModel(bytes), label, bytes };
  }
  const buf = readModelFile(path);
  // Copy into a fresh, aligned ArrayBuffer: Node's Buffer may sit at any offset of a shared pool.
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  return { model: loadWithExternalFiles(bytes, path), label: basename(path), bytes };
}

/**
 * Loads a model file whose constants may live in external files (LiteRT's external buffers): each file
 * the model names is read from the model's folder when the loader asks for it (a name that leads out of
 * that folder is never read). A file that is not there is a UsageError saying where it was looked for.
 */
function loadWithExternalFiles(bytes: Uint8Array, path: string): ModelDef {
  const folder = resolve(dirname(path));
  const read = new Map<string, Uint8Array | undefined>();
  const externalFiles = new Proxy({} as Record<string, Uint8Array>, {
    get: (_, name) => {
      if (typeof name !== 'string') return undefined;
      if (!read.has(name)) {
        const file = resolve(folder, name);
        read.set(name, file.startsWith(folder + sep) && existsSync(file) ? new Uint8Array(readFileSync(file)) : undefined);
      }
      return read.get(name);
    },
  });
  try {
    return loadModel(bytes, { externalFiles });
  } catch (e) {
    if (e instanceof ModelError && e.location.field === 'external_buffers')
      throw new UsageError(
        `${e.message.replace(/: pass .*$/, '')}: put ${/ and /.test(e.message) ? 'them' : 'it'} in ${folder}, next to the model`,
      );
    throw e;
  }
}

/**
 * Reads a model file; a path that is missing, a folder or unreadable is a `UsageError` (exit 2) saying
 * what the argument may be, not an internal error.
 */
function readModelFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new UsageError(
        `model ${JSON.stringify(path)} not found: give a .tflite file or a built-in model (${Object.keys(BUILT_IN_MODELS).join(', ')})`,
      );
    if (code === 'EISDIR')
      throw new UsageError(`model ${JSON.stringify(path)} is a folder: give a .tflite file (micrort check also takes a folder)`);
    throw new UsageError(`model ${JSON.stringify(path)} cannot be read (${code ?? (e as Error).message})`);
  }
}
