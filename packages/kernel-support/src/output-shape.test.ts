import { describe, expect, it } from 'vitest';
import { BuiltinOperator, TensorResizeError, TensorType, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { UnboundedShapeError, noUpperBound, sameDims, setOutputShape, setOutputUpperBound } from './output-shape.js';

/** A kernel whose output is its input's shape with the last dimension doubled. */
const DOUBLE_LAST: Registration = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: 'DOUBLE_LAST',
  prepare(context, node) {
    const dims = Array.from(context.getTensor(node.inputs[0]!).dims);
    dims[dims.length - 1]! *= 2;
    setOutputShape('DOUBLE_LAST', context, node, 0, dims);
  },
  invoke() {},
};

function harness(outputShape: number[], shapes?: 'computed' | 'file'): KernelHarness {
  return new KernelHarness({
    registration: DOUBLE_LAST,
    tensors: [
      { type: TensorType.FLOAT32, shape: [2, 3] },
      { type: TensorType.FLOAT32, shape: outputShape },
    ],
    inputs: [0],
    outputs: [1],
    ...(shapes ? { shapes } : {}),
  }).prepare();
}

describe('setOutputShape', () => {
  it('accepts the computed shape', () => {
    expect(Array.from(harness([2, 6]).tensors[1]!.dims)).toEqual([2, 6]);
  });

  it('gives an output the computed shape when the file says otherwise (empty, stale), with a buffer of its size', () => {
    for (const file of [[], [2, 5], [1]]) {
      const h = harness(file);
      expect(Array.from(h.tensors[1]!.dims)).toEqual([2, 6]);
      expect(h.tensors[1]!.bytes.byteLength).toBe(48);
    }
  });

  it("names both shapes when the file disagrees under shapes: 'file' (TFLM's rule)", () => {
    let error: unknown;
    try {
      harness([2, 5], 'file');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TensorResizeError);
    expect((error as TensorResizeError).requested).toEqual([2, 6]);
    expect((error as Error).message).toContain('has shape [2, 5] in the file; the inputs give [2, 6]');
  });

  it('sameDims compares rank and sizes', () => {
    expect(sameDims([1, 2], [1, 2])).toBe(true);
    expect(sameDims([1, 2], [1, 2, 1])).toBe(false);
    expect(sameDims(new Int32Array([3]), [3])).toBe(true);
  });
});

/** A data-dependent kernel: output = the positive elements of its input, as [n]. */
const POSITIVES: Registration<Int32Array> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: 'POSITIVES',
  init: () => new Int32Array(1),
  prepare(context, node) {
    const input = context.getTensor(node.inputs[0]!);
    if (input.dims.length !== 1) noUpperBound('POSITIVES', context, node, 0, 'the input is not 1-D');
    setOutputUpperBound('POSITIVES', context, node, 0, [input.dims[0]!]);
  },
  invoke(context, node) {
    const dims = node.userData as Int32Array;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    let n = 0;
    for (let i = 0; i < x.length; i++) if (x[i]! > 0) out[n++] = x[i]!;
    dims[0] = n;
    context.setActualShape(node.outputs[0]!, dims);
  },
};

describe('setOutputUpperBound', () => {
  it('plans the bound, and invoke sets the actual dims over the same view', () => {
    const h = new KernelHarness({
      registration: POSITIVES,
      tensors: [
        { type: TensorType.FLOAT32, shape: [5], data: [1, -2, 3, -4, 5] },
        { type: TensorType.FLOAT32, shape: [] },
      ],
      inputs: [0],
      outputs: [1],
    }).prepare();
    const out = h.tensors[1]!;
    expect(Array.from(out.upperBound!)).toEqual([5]);
    expect(Array.from(out.dims)).toEqual([5]);
    const view = out.data;
    h.invoke();
    expect(Array.from(out.dims)).toEqual([3]);
    expect(out.data).toBe(view);
    expect(Array.from(out.data as Float32Array).slice(0, out.elementCount)).toEqual([1, 3, 5]);
  });

  it('noUpperBound names the tensor', () => {
    const h = new KernelHarness({
      registration: POSITIVES,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2, 2] },
        { type: TensorType.FLOAT32, shape: [], name: 'kept' },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => h.prepare()).toThrow(UnboundedShapeError);
    expect(() => h.prepare()).toThrow(/output \(tensor 1, kept\) has a shape that depends on data .*: the input is not 1-D/);
  });
});
