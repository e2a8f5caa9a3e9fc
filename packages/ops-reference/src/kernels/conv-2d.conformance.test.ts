/**
 * Layer-by-layer conformance of CONV_2D and DEPTHWISE_CONV_2D with TFLM: every conv node of the
 * conformance models runs alone through KernelHarness on TFLM's own case-0 input tensor (from
 * intermediates_case0, or the model input), with the model's constant filter and bias, and its output must
 * equal TFLM's intermediate byte for byte. This checks the kernels independently of the other ops.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, builtinOperatorName, makeTypedView, type ModelDef, type TensorData } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { CONFORMANCE_DIR, SKIP_REASON, hasConformance, loadConformanceModel, readBytes } from '@micrort/test-support/conformance';
import { CONV_2D } from './conv-2d.js';
import { DEPTHWISE_CONV_2D } from './depthwise-conv-2d.js';

const MODELS = ['person_detect', 'micro_speech_quantized', 'mobilenet_v2_quantized_1x3x224x224'];
const KERNELS = new Map([
  [BuiltinOperator.CONV_2D as number, CONV_2D],
  [BuiltinOperator.DEPTHWISE_CONV_2D as number, DEPTHWISE_CONV_2D],
]);

interface Entry {
  index: number;
  file: string;
}

function typed(type: number, bytes: Uint8Array): TensorData {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  const size = type === 4 || type === 12 ? 8 : [0, 2, 15].includes(type) ? 4 : [7, 1, 16, 18].includes(type) ? 2 : 1;
  return makeTypedView(type, copy.buffer, 0, copy.byteLength / size);
}

/** Bytes of a non-constant tensor after TFLM's case-0 invoke: an intermediate or a model input. */
function tflmTensor(model: ModelDef, dir: string, entries: Map<number, Entry>, index: number): Uint8Array | null {
  const e = entries.get(index);
  if (e) return readBytes(join(dir, 'intermediates_case0', e.file));
  const k = Array.from(model.subgraphs[0]!.inputs).indexOf(index);
  return k >= 0 ? readBytes(join(dir, 'case0', `input_${k}.bin`)) : null;
}

describe.skipIf(!hasConformance)('conv layers of the conformance models vs TFLM (case 0)', () => {
  for (const name of MODELS) {
    it(name, () => {
      const dir = join(CONFORMANCE_DIR!, name);
      expect(existsSync(dir)).toBe(true);
      const model = loadConformanceModel(name);
      const sg = model.subgraphs[0]!;
      const entries = new Map<number, Entry>(
        (
          JSON.parse(
            readBytes(join(dir, 'intermediates_case0', 'tensors.json')).reduce((s, b) => s + String.fromCharCode(b), ''),
          ) as Entry[]
        ).map((e) => [e.index, e]),
      );
      let checked = 0;
      sg.operators.forEach((op, nodeIndex) => {
        const code = model.operatorCodes[op.opcodeIndex]!.builtinCode;
        const registration = KERNELS.get(code);
        if (!registration) return;
        const ids = [...Array.from(op.inputs).filter((i) => i >= 0), op.outputs[0]!];
        const specs: HarnessTensorSpec[] = ids.map((idx, local) => {
          const t = sg.tensors[idx]!;
          const q = t.quantization;
          const spec: HarnessTensorSpec = {
            type: t.type,
            shape: Array.from(t.shape),
            name: t.name,
            ...(q && q.scale.length
              ? { scale: Array.from(q.scale), zeroPoint: Array.from(q.zeroPoint), quantizedDimension: q.quantizedDimension }
              : {}),
          };
          if (local === ids.length - 1) return spec;
          const constant = model.buffers[t.buffer]!.data;
          const bytes = constant.byteLength > 0 ? constant : tflmTensor(model, dir, entries, idx);
          if (!bytes) throw new Error(`${name} node ${nodeIndex}: no data for input tensor ${idx}`);
          return { ...spec, data: typed(t.type, bytes) as ArrayLike<number>, constant: constant.byteLength > 0 };
        });
        const h = new KernelHarness({
          registration,
          tensors: specs,
          inputs: ids.slice(0, -1).map((_, i) => i),
          outputs: [ids.length - 1],
          builtinData: op.builtinOptions,
        }).invoke();
        const got = h.tensors[ids.length - 1]!.bytes;
        const want = tflmTensor(model, dir, entries, op.outputs[0]!)!;
        let mismatches = 0;
        for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) mismatches++;
        expect(
          mismatches,
          `${name} node ${nodeIndex} ${builtinOperatorName(code)} output tensor ${op.outputs[0]} "${sg.tensors[op.outputs[0]!]!.name}"`,
        ).toBe(0);
        expect(got.length).toBe(want.length);
        checked++;
      });
      expect(checked).toBeGreaterThan(0);
    });
  }
});

if (!hasConformance) {
  describe('conv layers of the conformance models vs TFLM (case 0)', () => {
    it.skip(SKIP_REASON, () => {});
  });
}
