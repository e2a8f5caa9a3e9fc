/**
 * Node-level conformance of this group's kernels, independent of the other kernels: every node of the
 * conformance models served by a shape kernel is run alone through KernelHarness, its inputs taken from
 * the model's constants and from TFLM's case-0 intermediates, its output compared with TFLM's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTypedView, numElements } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { ModelDef, Registration, TensorDef } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  loadConformanceModel,
  readBytes,
  type IntermediateEntry,
} from '@micrort/test-support/conformance';
import { shapeKernels } from './shape.js';

const MODELS = ['person_detect', 'mobilenet_v2_quantized_1x3x224x224', 'audio_preprocessor_int8'];

function typedFrom(def: TensorDef, bytes: Uint8Array): HarnessTensorSpec['data'] {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return makeTypedView(def.type, copy.buffer, 0, numElements(def.shape)) as unknown as HarnessTensorSpec['data'];
}

function spec(def: TensorDef, data: HarnessTensorSpec['data'] | undefined, constant: boolean): HarnessTensorSpec {
  const q = def.quantization;
  return {
    type: def.type,
    shape: Array.from(def.shape),
    data,
    constant,
    name: def.name,
    ...(q && q.scale.length > 0
      ? { scale: Array.from(q.scale), zeroPoint: Array.from(q.zeroPoint), quantizedDimension: q.quantizedDimension }
      : {}),
  };
}

interface NodeCase {
  label: string;
  run: () => ReturnType<typeof compareBytes>;
}

function nodeCases(name: string): NodeCase[] {
  const dir = join(CONFORMANCE_DIR!, name, 'intermediates_case0');
  const entries = JSON.parse(readFileSync(join(dir, 'tensors.json'), 'utf8')) as IntermediateEntry[];
  const byIndex = new Map(entries.map((e) => [e.index, e]));
  const model: ModelDef = loadConformanceModel(name);
  const sg = model.subgraphs[0]!;
  const regs = new Map<number, Registration>(shapeKernels.map((r) => [r.builtinCode, r]));
  const cases: NodeCase[] = [];
  sg.operators.forEach((op, nodeIndex) => {
    const code = model.operatorCodes[op.opcodeIndex]!;
    const reg = regs.get(code.builtinCode);
    if (!reg) return;
    cases.push({
      label: `${name} node ${nodeIndex} ${reg.name}`,
      run: () => {
        const tensors: HarnessTensorSpec[] = [];
        const inputs: number[] = [];
        for (const t of op.inputs) {
          if (t < 0) {
            inputs.push(-1);
            continue;
          }
          const def = sg.tensors[t]!;
          const buffer = model.buffers[def.buffer]!;
          if (buffer.data.byteLength > 0) {
            tensors.push(spec(def, typedFrom(def, buffer.data), true));
          } else {
            const e = byIndex.get(t);
            if (!e) throw new Error(`tensor ${t} has neither constant data nor a TFLM intermediate`);
            tensors.push(spec(def, typedFrom(def, readBytes(join(dir, e.file))), false));
          }
          inputs.push(tensors.length - 1);
        }
        const outIndex = op.outputs[0]!;
        const outDef = sg.tensors[outIndex]!;
        tensors.push(spec(outDef, undefined, false));
        const h = new KernelHarness({ registration: reg, tensors, inputs, outputs: [tensors.length - 1], builtinData: op.builtinOptions });
        h.invoke();
        const expected = readBytes(join(dir, byIndex.get(outIndex)!.file));
        return compareBytes(byIndex.get(outIndex)!.dtype, h.tensors[tensors.length - 1]!.bytes, expected, outIndex);
      },
    });
  });
  return cases;
}

describe.skipIf(!hasConformance)(`shape kernels, node by node against TFLM${hasConformance ? '' : ` (${SKIP_REASON})`}`, () => {
  const all = hasConformance ? MODELS.flatMap(nodeCases) : [];
  it('finds the nodes of the models (AVERAGE_POOL_2D, MEAN, PAD, TRANSPOSE, STRIDED_SLICE, CONCATENATION)', () => {
    const ops = new Set(all.map((c) => c.label.split(' ').pop()));
    expect([...ops].sort()).toEqual(['AVERAGE_POOL_2D', 'CONCATENATION', 'MEAN', 'PAD', 'STRIDED_SLICE', 'TRANSPOSE']);
  });
  it.each(all.map((c) => [c.label, c] as const))('%s', (_, c) => {
    const r = c.run();
    expect({ mismatches: r.mismatches, firstMismatchAt: r.firstMismatchAt }).toEqual({ mismatches: 0, firstMismatchAt: -1 });
  });
});
