/**
 * The names a model's inputs and outputs go by: its `signature_defs` (the names a SavedModel's
 * signature gave them, as TFLite's signature runner and tfjs-tflite use) when it has one for the
 * subgraph that runs, else the tensors' names; an empty, repeated or all-digit name becomes
 * `input_<i>` / `output_<j>`.
 */
import type { ModelDef, SignatureDefDef } from '@micrort/core';

/** The signature to run: the one named `key`, else the first (null when the model has none). */
export function pickSignature(model: ModelDef, key?: string): SignatureDefDef | null {
  if (key === undefined) return model.signatureDefs[0] ?? null;
  const sig = model.signatureDefs.find((s) => s.signatureKey === key);
  if (!sig)
    throw new RangeError(
      `the model has no signature "${key}" (${model.signatureDefs.length ? `it has ${model.signatureDefs.map((s) => `"${s.signatureKey}"`).join(', ')}` : 'it has none'})`,
    );
  return sig;
}

/** Names of the subgraph's inputs or outputs, in their order. */
export function ioNames(model: ModelDef, subgraph: number, kind: 'input' | 'output', signature: SignatureDefDef | null): string[] {
  const sg = model.subgraphs[subgraph]!;
  const indices = kind === 'input' ? sg.inputs : sg.outputs;
  const fromSignature = new Map(
    (signature ? (kind === 'input' ? signature.inputs : signature.outputs) : []).map((m) => [m.tensorIndex, m.name]),
  );
  const used = new Set<string>();
  return Array.from(indices, (t, i) => {
    let name = fromSignature.get(t) ?? sg.tensors[t]?.name ?? '';
    if (!name || used.has(name) || /^\d+$/.test(name)) name = `${kind}_${i}`;
    used.add(name);
    return name;
  });
}
