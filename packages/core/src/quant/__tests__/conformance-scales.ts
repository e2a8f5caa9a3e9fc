/**
 * Test-only helper: every real multiplier the conformance models give rise to, read straight from the
 * model files in /work/shared/conformance (never copied into the repo). Uses node:fs, so only tests may
 * import it. Returns an empty list when the conformance folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as flatbuffers from 'flatbuffers';
import { Model } from '../../model/generated/tflite.js';

export const CONFORMANCE_DIR = '/work/shared/conformance';

/** One multiplier and where it came from. */
export interface ModelMultiplier {
  model: string;
  what: string;
  value: number;
}

/**
 * For each operator of each conformance model: the per-channel and per-tensor convolution-style
 * multipliers in * w[c] / out (double product and TFLM's float-product variant), all ratios between the
 * scales of its quantized inputs and outputs (QUANTIZE, ADD, ...), and ADD's twice-max-scale ratios.
 */
export function conformanceMultipliers(): ModelMultiplier[] {
  if (!existsSync(CONFORMANCE_DIR)) return [];
  const out: ModelMultiplier[] = [];
  for (const name of readdirSync(CONFORMANCE_DIR)) {
    const file = join(CONFORMANCE_DIR, name, 'model.tflite');
    if (!existsSync(file)) continue;
    const bytes = new Uint8Array(readFileSync(file));
    const model = Model.getRootAsModel(new flatbuffers.ByteBuffer(bytes));
    for (let s = 0; s < model.subgraphsLength(); s++) {
      const sg = model.subgraphs(s)!;
      const scales = (t: number): Float32Array | null => {
        if (t < 0) return null;
        const arr = sg.tensors(t)?.quantization()?.scaleArray();
        return arr && arr.length > 0 ? arr : null;
      };
      for (let o = 0; o < sg.operatorsLength(); o++) {
        const op = sg.operators(o)!;
        const ins = Array.from(op.inputsArray() ?? []);
        const outs = Array.from(op.outputsArray() ?? []);
        const tensors = [...ins, ...outs].map(scales).filter((x): x is Float32Array => x !== null);
        for (const a of tensors)
          for (const b of tensors) if (a !== b) out.push({ model: name, what: `op ${o} ratio`, value: a[0]! / b[0]! });
        const inScale = scales(ins[0] ?? -1);
        const wScales = scales(ins[1] ?? -1);
        const outScale = scales(outs[0] ?? -1);
        if (inScale && wScales && outScale) {
          const i0 = inScale[0]!;
          const o0 = outScale[0]!;
          for (let c = 0; c < wScales.length; c++) {
            out.push({ model: name, what: `op ${o} channel ${c}`, value: (i0 * wScales[c]!) / o0 });
            out.push({ model: name, what: `op ${o} channel ${c} (float product)`, value: Math.fround(i0 * wScales[c]!) / o0 });
          }
          const in2 = wScales[0]!;
          const twiceMax = 2 * Math.max(i0, in2);
          out.push({ model: name, what: `op ${o} add input1`, value: i0 / twiceMax });
          out.push({ model: name, what: `op ${o} add input2`, value: in2 / twiceMax });
          out.push({ model: name, what: `op ${o} add output (int8)`, value: twiceMax / (2 ** 20 * o0) });
          out.push({ model: name, what: `op ${o} add output (int16)`, value: twiceMax / (2 ** 15 * o0) });
        }
      }
    }
  }
  return out;
}
