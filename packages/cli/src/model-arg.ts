import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadModel, type ModelDef } from '@micrort/core';
import { buildDemoModel } from './demo-model.js';

/** Loads the model named on the command line, or the built-in demo model when none is given. */
export function loadModelArg(path: string | undefined): { model: ModelDef; label: string; bytes: Uint8Array } {
  if (!path) {
    const bytes = buildDemoModel();
    return { model: loadModel(bytes), label: 'built-in demo model (int8 MLP classifier, made by the model writer)', bytes };
  }
  const buf = readFileSync(path);
  // Copy into a fresh, aligned ArrayBuffer: Node's Buffer may sit at any offset of a shared pool.
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  return { model: loadModel(bytes), label: basename(path), bytes };
}
