/**
 * Reading a classifier's outputs the way people read them: the model's labels (TFLite metadata's
 * associated label files, `@micrort/metadata`) and the top-k scores, as the CLI's `run` and the
 * playground's Run tab show them.
 */
import type { ModelDef } from '@micrort/core';
import { readTfliteMetadata, type Normalization, type TfliteMetadata } from '@micrort/metadata';

/** What a model's metadata tells an app, read without failing the app: a broken metadata buffer is an `error`. */
export interface ModelAnnotations {
  /** The metadata; null when the model has none or it cannot be read. */
  metadata: TfliteMetadata | null;
  /** Why the metadata could not be read (`MetadataError: …`), when it could not. */
  error: string | null;
  /** Labels of each output's last axis (null where the model has none or its file cannot be read). */
  outputLabels: (string[] | null)[];
  /** The normalization each input expects, from the metadata (null where none). */
  inputNormalization: (Normalization | null)[];
}

/** The annotations of the model file `bytes` (loaded as `model`). */
export function readAnnotations(bytes: Uint8Array, model: ModelDef): ModelAnnotations {
  const sg = model.subgraphs[0];
  const outputs = sg?.outputs.length ?? 0;
  const inputs = sg?.inputs.length ?? 0;
  let metadata: TfliteMetadata | null = null;
  const errors: string[] = [];
  const safely = <T>(f: () => T | null): T | null => {
    try {
      return f();
    } catch (e) {
      const err = e as Error;
      errors.push(`${err.name}: ${err.message}`);
      return null;
    }
  };
  metadata = safely(() => readTfliteMetadata(bytes, model));
  const outputLabels = Array.from({ length: outputs }, (_, j) => (metadata ? safely(() => metadata!.outputLabels(j)) : null));
  const inputNormalization = Array.from({ length: inputs }, (_, i) => metadata?.inputNormalization(i) ?? null);
  return { metadata, error: errors.length ? errors.join('; ') : null, outputLabels, inputNormalization };
}

/** Whether an output reads as class scores: shape [N] or [1, N] with 2 ≤ N ≤ 100,000. */
export function isClassifierShape(shape: ArrayLike<number>): boolean {
  const n = shape.length === 1 ? shape[0]! : shape.length === 2 && shape[0] === 1 ? shape[1]! : 0;
  return n >= 2 && n <= 100_000;
}

/** One entry of a top-k list. */
export interface TopEntry {
  index: number;
  score: number;
  /** The class's label, when the model names its classes. */
  label?: string;
}

/** The `k` highest of `scores`, highest first (ties: lower index first), labelled from `labels` where given. */
export function topK(scores: ArrayLike<number>, k = 5, labels?: readonly string[] | null): TopEntry[] {
  const order = Array.from({ length: scores.length }, (_, i) => i);
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return order.slice(0, k).map((index) => ({
    index,
    score: scores[index]!,
    ...(labels && labels[index] !== undefined ? { label: labels[index] } : {}),
  }));
}

/** `daisy 0.652` or `#3 0.652` (no label). */
export function formatTopEntry(e: TopEntry): string {
  return `${e.label !== undefined ? e.label || `#${e.index} (empty label)` : `#${e.index}`} ${Number(e.score.toPrecision(4))}`;
}
