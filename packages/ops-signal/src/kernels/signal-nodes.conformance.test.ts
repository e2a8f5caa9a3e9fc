/**
 * Every signal-library node of the audio_preprocessor_int8 conformance model, run alone through the
 * kernel harness: constant tensors and custom options from the model file, the node's other inputs
 * from TFLM's case-0 intermediates, state freshly reset (as at TFLM's first invoke). Every output must
 * equal TFLM's byte for byte. Independent of the other kernels of the model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, makeTypedView, numElements, tensorTypeFromName, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  loadConformanceModel,
  type IntermediateEntry,
} from '@micrort/test-support/conformance';
import { signalKernels } from '../index.js';

const MODEL = 'audio_preprocessor_int8';
const KERNELS = new Map<string, Registration>(signalKernels.map((r) => [r.customName!, r]));

function intermediates(): Map<number, IntermediateEntry> {
  const entries = JSON.parse(
    readFileSync(join(CONFORMANCE_DIR!, MODEL, 'intermediates_case0', 'tensors.json'), 'utf8'),
  ) as IntermediateEntry[];
  return new Map(entries.map((e) => [e.index, e]));
}

function bytesOf(e: IntermediateEntry): Uint8Array {
  return Uint8Array.from(readFileSync(join(CONFORMANCE_DIR!, MODEL, 'intermediates_case0', e.file)));
}

interface NodeCase {
  opIndex: number;
  op: string;
  harness: KernelHarness;
  expected: [number, IntermediateEntry][];
}

function nodeCases(): NodeCase[] {
  const def = loadConformanceModel(MODEL);
  const sg = def.subgraphs[0]!;
  const inter = intermediates();
  const cases: NodeCase[] = [];
  sg.operators.forEach((op, opIndex) => {
    const code = def.operatorCodes[op.opcodeIndex]!;
    if (code.builtinCode !== BuiltinOperator.CUSTOM) return;
    const registration = KERNELS.get(code.customCode ?? '');
    if (!registration) throw new Error(`no ops-signal kernel for custom op ${code.customCode}`);
    const tensors: HarnessTensorSpec[] = [];
    const outputs = new Set(Array.from(op.outputs));
    const add = (index: number): number => {
      const t = sg.tensors[index]!;
      const count = numElements(t.shape);
      const spec: HarnessTensorSpec = { type: t.type, shape: Array.from(t.shape), name: t.name };
      const buffer = def.buffers[t.buffer];
      let bytes: Uint8Array | null = null;
      if (buffer && buffer.data.byteLength > 0) {
        spec.constant = true;
        bytes = Uint8Array.from(buffer.data);
      } else if (!outputs.has(index)) {
        const e = inter.get(index);
        if (!e) throw new Error(`op ${opIndex}: input tensor ${index} has no intermediate`);
        bytes = bytesOf(e);
      }
      if (bytes) spec.data = makeTypedView(t.type, bytes.buffer, 0, count) as ArrayLike<number> | ArrayLike<bigint>;
      tensors.push(spec);
      return tensors.length - 1;
    };
    const inputs = Array.from(op.inputs, add);
    const outs = Array.from(op.outputs, add);
    const expected = Array.from(op.outputs, (index, i): [number, IntermediateEntry] => [outs[i]!, inter.get(index)!]);
    const harness = new KernelHarness({ registration, tensors, inputs, outputs: outs, customInitialData: op.customOptions });
    cases.push({ opIndex, op: code.customCode!, harness, expected });
  });
  return cases;
}

describe.skipIf(!hasConformance)(`signal nodes of ${MODEL} vs. TFLM intermediates${hasConformance ? '' : ` (${SKIP_REASON})`}`, () => {
  const cases = hasConformance ? nodeCases() : [];
  it('covers all nine signal ops of the model', () => {
    expect(new Set(cases.map((c) => c.op)).size).toBe(9);
  });
  for (const c of cases) {
    it(`op ${c.opIndex} ${c.op}`, () => {
      c.harness.invoke();
      for (const [local, e] of c.expected) {
        const got = c.harness.tensors[local]!;
        expect(tensorTypeFromName(e.dtype)).toBe(got.type);
        const cmp = compareBytes(e.dtype, got.bytes, bytesOf(e), e.index);
        expect(
          cmp.pass,
          `tensor ${e.index} (${e.name}): ${cmp.mismatches} of ${cmp.elements} differ, first at ${cmp.firstMismatchAt}, max |diff| ${cmp.maxAbsDiff}`,
        ).toBe(true);
      }
    });
  }
});
