import { describe, expect, it } from 'vitest';
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { allocateOpData, fillOpData, newOpData, opData } from './op-data.js';

interface ScaleOpData {
  /** TFLM-style op data in the arena: the multiplier. */
  params: Float32Array;
  /** Computed in prepare. */
  count: number;
}

/** A kernel written in the idiom: init allocates, prepare fills, invoke reads. */
const SCALE: Registration<ScaleOpData> = {
  builtinCode: BuiltinOperator.MUL,
  init: (context) => ({ params: allocateOpData(context, 4).f32, count: 0 }),
  prepare(context, node) {
    const d = opData<ScaleOpData>('SCALE', node);
    d.params[0] = 3;
    d.count = context.getTensor(node.inputs[0]!).elementCount;
  },
  invoke(context, node) {
    const d = opData<ScaleOpData>('SCALE', node);
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < d.count; i++) y[i] = x[i]! * d.params[0]!;
  },
};

describe('the op-data idiom (TFLM: Init allocates, Prepare fills, Invoke reads)', () => {
  it('runs a kernel through init, prepare and invoke on one op-data object, its block in the arena', () => {
    const h = new KernelHarness({
      registration: SCALE as Registration,
      tensors: [
        { type: TensorType.FLOAT32, shape: [3], data: [1, 2, 3] },
        { type: TensorType.FLOAT32, shape: [3] },
      ],
      inputs: [0],
      outputs: [1],
    });
    h.prepare();
    h.invoke();
    expect(Array.from(h.output(0) as Float32Array)).toEqual([3, 6, 9]);
    expect(h.persistentBytes).toBe(16);
  });

  it('opData names the op and node when init did not run', () => {
    const node = { index: 12, userData: undefined } as Node;
    expect(() => opData('SCALE', node)).toThrow(KernelError);
    expect(() => opData('SCALE', node)).toThrow(/^SCALE \(node 12\): op data missing: init\(\) did not run for this node/);
  });

  it('fillOpData writes into the object init returned, keeping what init set', () => {
    const block = new DataView(new ArrayBuffer(8));
    const node = { index: 0, userData: { block } } as Node;
    const filled = fillOpData('PAD', node, { size: 5 });
    expect(filled).toBe(node.userData);
    expect(node.userData).toEqual({ block, size: 5 });
    const empty = newOpData();
    expect(empty).toEqual({});
    expect(newOpData()).not.toBe(empty);
  });
});
