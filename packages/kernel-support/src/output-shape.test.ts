import { describe, expect, it } from 'vitest';
import { BuiltinOperator, DataDependentShapeError, TensorResizeError, TensorType, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import {
  UnboundedShapeError,
  followActualShape,
  isDataDependent,
  noUpperBound,
  refuseDataDependentInput,
  sameDims,
  setOutputShape,
  setOutputShapeOrBound,
  setOutputUpperBound,
} from './output-shape.js';

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

/** A consumer that follows its input's actual dims (output = input + 1); `refuse`: refuses a data-dependent input. */
function plusOne(refuse: boolean): Registration<{ bounded: boolean }> {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: 'PLUS_ONE',
    dynamicInputShapes: true,
    init: () => ({ bounded: false }),
    prepare(context, node) {
      const input = context.getTensor(node.inputs[0]!);
      const d = node.userData as { bounded: boolean };
      d.bounded = isDataDependent(input);
      if (d.bounded && refuse) refuseDataDependentInput('PLUS_ONE', context, node, 0, 'PLUS_ONE sizes its loop in prepare');
      setOutputShapeOrBound('PLUS_ONE', context, node, 0, input.upperBound ?? input.dims, d.bounded);
    },
    invoke(context, node) {
      if ((node.userData as { bounded: boolean }).bounded) followActualShape(context, node, 0, 0);
      const x = context.getEvalTensor(node.inputs[0]!);
      const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
      const n = x.dims.reduce((a, b) => a * b, 1);
      for (let i = 0; i < n; i++) y[i] = (x.data as Float32Array)[i]! + 1;
    },
  };
}

describe('consumers of data-dependent tensors', () => {
  const harness = (refuse: boolean) =>
    new KernelHarness({
      registration: plusOne(refuse) as Registration,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2, 3], data: [1, 2, 3, 4, 5, 6], name: 'kept' },
        { type: TensorType.FLOAT32, shape: [] },
      ],
      inputs: [0],
      outputs: [1],
    });

  it('setOutputShapeOrBound bounds the output of a data-dependent input; followActualShape gives it the actual dims', () => {
    const h = harness(false);
    h.tensors[0]!.upperBound = Int32Array.from([2, 3]); // as its producer's declareShapeBound would
    h.prepare();
    const out = h.tensors[1]!;
    expect(Array.from(out.upperBound!)).toEqual([2, 3]);
    h.tensors[0]!.dims[0] = 1; // as its producer's setActualShape would
    h.invoke();
    expect(Array.from(out.dims)).toEqual([1, 3]);
    expect(Array.from(out.data as Float32Array).slice(0, out.elementCount)).toEqual([2, 3, 4]);
  });

  it('without a data-dependent input the output gets its shape (no bound)', () => {
    const h = harness(false).prepare();
    expect(h.tensors[1]!.upperBound).toBeNull();
    expect(Array.from(h.tensors[1]!.dims)).toEqual([2, 3]);
  });

  it('refuseDataDependentInput throws DataDependentShapeError naming the tensor and its bound', () => {
    const h = harness(true);
    h.tensors[0]!.upperBound = Int32Array.from([2, 3]);
    const e = (() => {
      try {
        h.prepare();
      } catch (err) {
        return err as DataDependentShapeError;
      }
      throw new Error('expected an error');
    })();
    expect(e).toBeInstanceOf(DataDependentShapeError);
    expect([e.tensor, e.upperBound]).toEqual([0, [2, 3]]);
    expect(e.message).toMatch(
      /input 0 \(tensor 0, kept\) has a shape that depends on data \(at most \[2, 3\]\); PLUS_ONE sizes its loop in prepare/,
    );
  });
});
