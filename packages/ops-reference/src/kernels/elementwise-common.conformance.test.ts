/**
 * Conformance of the elementwise/activation kernels on real models: every node served by one of these
 * kernels is run alone through KernelHarness on TFLM's own input tensors (case 0 intermediates or model
 * constants), and its output is compared with TFLM's intermediate. This checks each kernel on real
 * shapes and quantization independently of the other kernels of the model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsupportedOpError, builtinOperatorName, makeTypedView, numElements, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  firstDifferingIntermediate,
  hasConformance,
  loadConformanceModel,
  readBytes,
  type IntermediateEntry,
} from '@micrort/test-support/conformance';
import { elementwiseKernels } from '../registrations/elementwise.js';

const byCode = new Map<number, Registration>(elementwiseKernels.map((r) => [r.builtinCode, r]));

interface NodeCheck {
  node: number;
  op: string;
  output: number;
  pass: boolean;
  mismatches: number;
  elements: number;
}

/** Runs each node of `model` served by this group alone on TFLM's inputs and compares its output. */
function checkNodes(model: string): NodeCheck[] {
  const def = loadConformanceModel(model);
  const sg = def.subgraphs[0]!;
  const dir = join(CONFORMANCE_DIR!, model, 'intermediates_case0');
  const entries = new Map((JSON.parse(readFileSync(join(dir, 'tensors.json'), 'utf8')) as IntermediateEntry[]).map((e) => [e.index, e]));
  const results: NodeCheck[] = [];
  sg.operators.forEach((op, nodeIndex) => {
    const code = def.operatorCodes[op.opcodeIndex]!.builtinCode;
    const registration = byCode.get(code);
    if (!registration) return;
    const used = [...op.inputs, ...op.outputs].filter((t) => t >= 0);
    const slot = new Map(used.map((t, i) => [t, i]));
    const tensors: HarnessTensorSpec[] = used.map((t) => {
      const td = sg.tensors[t]!;
      const spec: HarnessTensorSpec = { type: td.type, shape: Array.from(td.shape), name: td.name };
      if (td.quantization && td.quantization.scale.length > 0) {
        spec.scale = Array.from(td.quantization.scale);
        spec.zeroPoint = Array.from(td.quantization.zeroPoint);
      }
      const isInput = Array.from(op.inputs).includes(t);
      if (isInput) {
        const constant = def.buffers[td.buffer]?.data;
        const bytes = constant && constant.byteLength > 0 ? constant : readBytes(join(dir, entries.get(t)!.file));
        const copy = new Uint8Array(bytes.byteLength);
        copy.set(bytes);
        spec.data = makeTypedView(td.type, copy.buffer, 0, numElements(td.shape)) as ArrayLike<number>;
        spec.constant = constant !== undefined && constant.byteLength > 0;
      }
      return spec;
    });
    const h = new KernelHarness({
      registration,
      tensors,
      inputs: Array.from(op.inputs, (t) => slot.get(t)!),
      outputs: Array.from(op.outputs, (t) => slot.get(t)!),
      builtinData: op.builtinOptions,
    }).invoke();
    op.outputs.forEach((t, j) => {
      const e = entries.get(t)!;
      const cmp = compareBytes(e.dtype, h.tensors[slot.get(t)!]!.bytes, readBytes(join(dir, e.file)));
      results.push({
        node: nodeIndex,
        op: builtinOperatorName(code),
        output: j,
        pass: cmp.pass,
        mismatches: cmp.mismatches,
        elements: cmp.elements,
      });
    });
  });
  return results;
}

describe.skipIf(!hasConformance)(`elementwise kernels on conformance models${hasConformance ? '' : ` (${SKIP_REASON})`}`, () => {
  it('audio_preprocessor_int8: CAST, MUL, DIV, MINIMUM, MAXIMUM nodes match TFLM bit for bit', () => {
    const results = checkNodes('audio_preprocessor_int8');
    expect(results.map((r) => r.op).sort()).toEqual(['CAST', 'CAST', 'CAST', 'CAST', 'DIV', 'MAXIMUM', 'MINIMUM', 'MUL']);
    expect(results.filter((r) => !r.pass)).toEqual([]);
  });

  it('dtln_noise_suppression: the int8 LOGISTIC node matches TFLM bit for bit', () => {
    const results = checkNodes('dtln_noise_suppression');
    expect(results.map((r) => r.op)).toEqual(['LOGISTIC']);
    expect(results.filter((r) => !r.pass)).toEqual([]);
    expect(results[0]!.elements).toBe(257);
  });

  it('through the interpreter, no tensor produced by these kernels is the first to differ from TFLM', (ctx) => {
    const skipped: string[] = [];
    for (const model of ['audio_preprocessor_int8', 'dtln_noise_suppression']) {
      let diff: ReturnType<typeof firstDifferingIntermediate>;
      try {
        diff = firstDifferingIntermediate(model);
      } catch (e) {
        if (!(e instanceof UnsupportedOpError)) throw e;
        skipped.push(`${model}: ${e.message}`);
        continue;
      }
      if (diff === null) continue;
      const def = loadConformanceModel(model);
      const producer = Number(diff.producer_op);
      const code = def.operatorCodes[def.subgraphs[0]!.operators[producer]!.opcodeIndex]!.builtinCode;
      expect(
        byCode.has(code),
        `${model}: first differing tensor ${diff.index} (${diff.name}) comes from node ${producer} ${builtinOperatorName(code)}`,
      ).toBe(false);
    }
    if (skipped.length === 2) ctx.skip(`models need kernels outside this group: ${skipped.join(' | ')}`);
  });
});
