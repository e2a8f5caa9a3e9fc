/**
 * MEAN on the GPU (float32, up to 4-D input), TFLite's Mean semantics: for each output element, the
 * float sum of the reduced input elements in row-major order, divided by their count.
 */
import { BuiltinOperator, TensorType, tensorTypeName, type Node, type TfLiteContext } from '@micrort/core';
import {
  ensure,
  inputTensor,
  padShape,
  requireConstant,
  requireFloat32,
  shapeKey,
  singleOutput,
  type GpuOpKernel,
  type KernelPlan,
  type KernelThis,
} from './kernel-plan.js';

const OP = 'MEAN';

interface MeanConstants {
  /** Input dims (padded to 4-D). */
  i0: number;
  i1: number;
  i2: number;
  i3: number;
  /** Kept extents: the input dim, or 1 along reduced axes. */
  k1: number;
  k2: number;
  k3: number;
  /** Reduced extents: the input dim along reduced axes, else 1. */
  r0: number;
  r1: number;
  r2: number;
  r3: number;
  count: number;
}

function mean(this: KernelThis<MeanConstants>, input: Float32Array): number {
  const c3 = this.thread.x % this.constants.k3;
  const q1 = Math.floor(this.thread.x / this.constants.k3);
  const c2 = q1 % this.constants.k2;
  const q2 = Math.floor(q1 / this.constants.k2);
  const c1 = q2 % this.constants.k1;
  const c0 = Math.floor(q2 / this.constants.k1);
  let sum = 0;
  for (let x0 = 0; x0 < this.constants.r0; x0++) {
    for (let x1 = 0; x1 < this.constants.r1; x1++) {
      for (let x2 = 0; x2 < this.constants.r2; x2++) {
        for (let x3 = 0; x3 < this.constants.r3; x3++) {
          const index = (((c0 + x0) * this.constants.i1 + (c1 + x1)) * this.constants.i2 + (c2 + x2)) * this.constants.i3 + (c3 + x3);
          sum += input[index]!;
        }
      }
    }
  }
  return sum / this.constants.count;
}

/** MEAN: float32 input up to 4-D, constant int32 axes (negative allowed), keep_dims either way. */
export const meanKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.MEAN,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    ensure(node.inputs.length === 2, OP, node, `expects 2 inputs, got ${node.inputs.length}`);
    const input = inputTensor(context, OP, node, 0);
    const axes = inputTensor(context, OP, node, 1);
    const output = singleOutput(context, OP, node);
    requireFloat32(OP, node, { t: input, what: 'input' }, { t: output, what: 'output' });
    requireConstant(OP, node, axes, 'axis');
    ensure(axes.type === TensorType.INT32, OP, node, `axis is ${tensorTypeName(axes.type)}, expected int32`);
    const rank = input.dims.length;
    const reduced = new Set<number>();
    for (let k = 0; k < axes.elementCount; k++) {
      const a = axes.data[k] as number;
      ensure(a >= -rank && a < rank, OP, node, `axis ${a} is out of range for rank ${rank}`);
      reduced.add(a < 0 ? a + rank : a);
    }
    const i = padShape(OP, node, input.dims, 4, 'input');
    const shift = 4 - rank;
    const kept = i.map((d, k) => (reduced.has(k - shift) ? 1 : d));
    const red = i.map((d, k) => (reduced.has(k - shift) ? d : 1));
    const count = red.reduce((s, d) => s * d, 1);
    const outCount = kept.reduce((s, d) => s * d, 1);
    ensure(output.elementCount === outCount, OP, node, `output has ${output.elementCount} elements, expected ${outCount}`);
    ensure(count > 0, OP, node, 'the reduced extent is empty');
    return {
      op: OP,
      key: `${OP}|in=${shapeKey(i)}|axes=${[...reduced].sort().join(',')}`,
      source: mean,
      constants: {
        i0: i[0]!,
        i1: i[1]!,
        i2: i[2]!,
        i3: i[3]!,
        k1: kept[1]!,
        k2: kept[2]!,
        k3: kept[3]!,
        r0: red[0]!,
        r1: red[1]!,
        r2: red[2]!,
        r3: red[3]!,
        count,
      },
      floatConstants: ['count'],
      outputSize: output.elementCount,
      output: output.index,
      args: [{ tensor: input.index }],
    };
  },
};
