/**
 * SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM nodes of the real conformance models, run alone through the
 * kernel harness: constant tensors from the model file, the node's inputs from TFLM's case-0
 * intermediates, variable tensors freshly reset as TFLM does (zero point for int8, else 0). The node's
 * output and its variable tensors after the invoke must equal TFLM's (bit-exact for integers, float32
 * within 1e-5 + 1e-4*|expected|). Independent of the other kernels of the models.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  TensorType,
  makeTypedView,
  numElements,
  tensorTypeFromName,
  type ModelDef,
  type Registration,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  loadConformanceModel,
  type IntermediateEntry,
} from '@micrort/test-support/conformance';
import { SVDF } from './svdf.js';
import { UNIDIRECTIONAL_SEQUENCE_LSTM } from './unidirectional-sequence-lstm.js';

const KERNELS: Record<number, Registration> = {
  [BuiltinOperator.SVDF]: SVDF as Registration,
  [BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM]: UNIDIRECTIONAL_SEQUENCE_LSTM as Registration,
};
const MODELS = [
  'keyword_scrambled',
  'keyword_scrambled_8bit',
  'micro_speech_lstm',
  'trained_lstm',
  'trained_lstm_int8',
  'dtln_noise_suppression',
];

function readIntermediates(model: string): Map<number, IntermediateEntry> {
  const entries = JSON.parse(
    readFileSync(join(CONFORMANCE_DIR!, model, 'intermediates_case0', 'tensors.json'), 'utf8'),
  ) as IntermediateEntry[];
  return new Map(entries.map((e) => [e.index, e]));
}

function intermediateBytes(model: string, e: IntermediateEntry): Uint8Array {
  const b = readFileSync(join(CONFORMANCE_DIR!, model, 'intermediates_case0', e.file));
  return Uint8Array.from(b);
}

function typedValues(type: TensorType, bytes: Uint8Array, count: number): ArrayLike<number> | ArrayLike<bigint> {
  const copy = Uint8Array.from(bytes);
  return makeTypedView(type, copy.buffer, 0, count) as ArrayLike<number> | ArrayLike<bigint>;
}

interface NodeCase {
  model: string;
  opIndex: number;
  harness: KernelHarness;
  /** Harness tensor index -> intermediate entry expected after the invoke. */
  expected: [number, IntermediateEntry][];
}

function nodeCases(model: string): NodeCase[] {
  const def: ModelDef = loadConformanceModel(model);
  const sg = def.subgraphs[0]!;
  const inter = readIntermediates(model);
  const cases: NodeCase[] = [];
  sg.operators.forEach((op, opIndex) => {
    const code = def.operatorCodes[op.opcodeIndex]!.builtinCode;
    const registration = KERNELS[code];
    if (!registration) return;
    const tensors: HarnessTensorSpec[] = [];
    const remap = new Map<number, number>();
    const outputs = new Set(Array.from(op.outputs));
    const add = (index: number): number => {
      if (index < 0) return -1;
      const seen = remap.get(index);
      if (seen !== undefined) return seen;
      const t = sg.tensors[index]!;
      const count = numElements(t.shape);
      const q = t.quantization;
      const spec: HarnessTensorSpec = { type: t.type, shape: Array.from(t.shape), name: t.name };
      if (q && q.scale.length > 0) {
        spec.scale = q.scale.length === 1 ? q.scale[0]! : Array.from(q.scale);
        spec.zeroPoint = q.zeroPoint.length === 1 ? q.zeroPoint[0]! : Array.from(q.zeroPoint);
        spec.quantizedDimension = q.quantizedDimension;
      }
      const buffer = def.buffers[t.buffer];
      if (buffer && buffer.data.byteLength > 0) {
        spec.constant = true;
        spec.data = typedValues(t.type, buffer.data, count);
      } else if (t.isVariable) {
        spec.variable = true;
        spec.data = new Array<number>(count).fill(t.type === TensorType.INT8 ? (q?.zeroPoint[0] ?? 0) : 0);
      } else if (!outputs.has(index)) {
        const e = inter.get(index);
        if (!e) throw new Error(`${model} op ${opIndex}: input tensor ${index} has no intermediate`);
        spec.data = typedValues(t.type, intermediateBytes(model, e), count);
      }
      remap.set(index, tensors.length);
      tensors.push(spec);
      return tensors.length - 1;
    };
    const inputs = Array.from(op.inputs, add);
    const outs = Array.from(op.outputs, add);
    const expected: [number, IntermediateEntry][] = [];
    for (const index of [...Array.from(op.outputs), ...Array.from(op.inputs).filter((i) => i >= 0 && sg.tensors[i]!.isVariable)]) {
      const e = inter.get(index);
      if (e) expected.push([remap.get(index)!, e]);
    }
    const harness = new KernelHarness({ registration, tensors, inputs, outputs: outs, builtinData: op.builtinOptions });
    cases.push({ model, opIndex, harness, expected });
  });
  return cases;
}

describe.skipIf(!hasConformance)(
  `SVDF / LSTM nodes of the conformance models vs. TFLM intermediates${hasConformance ? '' : ` (${SKIP_REASON})`}`,
  () => {
    for (const model of MODELS) {
      it(model, () => {
        const cases = nodeCases(model);
        expect(cases.length).toBeGreaterThan(0);
        for (const c of cases) {
          c.harness.invoke();
          expect(c.expected.length, `${model} op ${c.opIndex}: output and state tensors to compare`).toBeGreaterThanOrEqual(2);
          for (const [local, e] of c.expected) {
            const got = c.harness.tensors[local]!;
            expect(tensorTypeFromName(e.dtype)).toBe(got.type);
            const cmp = compareBytes(e.dtype, got.bytes, intermediateBytes(model, e), e.index);
            expect(
              cmp.pass,
              `${model} op ${c.opIndex} tensor ${e.index} (${e.name}): ${cmp.mismatches} of ${cmp.elements} differ, first at ${cmp.firstMismatchAt}, max |diff| ${cmp.maxAbsDiff}`,
            ).toBe(true);
          }
        }
      });
    }
  },
);
