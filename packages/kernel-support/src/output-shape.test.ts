import { describe, expect, it } from 'vitest';
import { BuiltinOperator, TensorType, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { TensorShapeError } from './checks.js';
import { sameDims, setOutputShape } from './output-shape.js';

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

function harness(outputShape: number[]): KernelHarness {
  return new KernelHarness({
    registration: DOUBLE_LAST,
    tensors: [
      { type: TensorType.FLOAT32, shape: [2, 3] },
      { type: TensorType.FLOAT32, shape: outputShape },
    ],
    inputs: [0],
    outputs: [1],
  }).prepare();
}

describe('setOutputShape', () => {
  it('accepts the computed shape', () => {
    expect(() => harness([2, 6])).not.toThrow();
  });

  it('names both shapes when the file disagrees', () => {
    let error: unknown;
    try {
      harness([2, 5]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TensorShapeError);
    expect((error as Error).message).toContain('has shape [2, 5]; the inputs give [2, 6]');
  });

  it('sameDims compares rank and sizes', () => {
    expect(sameDims([1, 2], [1, 2])).toBe(true);
    expect(sameDims([1, 2], [1, 2, 1])).toBe(false);
    expect(sameDims(new Int32Array([3]), [3])).toBe(true);
  });
});
