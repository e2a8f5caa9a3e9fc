/**
 * PAD on the GPU (float32, up to 4-D), reference_ops::Pad semantics with pad value 0: output coordinate
 * c reads input coordinate c - before in every dimension, or gives 0 outside the input.
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

const OP = 'PAD';

interface PadConstants {
  o1: number;
  o2: number;
  o3: number;
  i0: number;
  i1: number;
  i2: number;
  i3: number;
  p0: number;
  p1: number;
  p2: number;
  p3: number;
}

function pad(this: KernelThis<PadConstants>, input: Float32Array): number {
  const c3 = (this.thread.x % this.constants.o3) - this.constants.p3;
  const r1 = Math.floor(this.thread.x / this.constants.o3);
  const c2 = (r1 % this.constants.o2) - this.constants.p2;
  const r2 = Math.floor(r1 / this.constants.o2);
  const c1 = (r2 % this.constants.o1) - this.constants.p1;
  const c0 = Math.floor(r2 / this.constants.o1) - this.constants.p0;
  let v = 0;
  if (
    c0 >= 0 &&
    c0 < this.constants.i0 &&
    c1 >= 0 &&
    c1 < this.constants.i1 &&
    c2 >= 0 &&
    c2 < this.constants.i2 &&
    c3 >= 0 &&
    c3 < this.constants.i3
  ) {
    v = input[((c0 * this.constants.i1 + c1) * this.constants.i2 + c2) * this.constants.i3 + c3]!;
  }
  return v;
}

/** PAD: float32 input up to 4-D, constant int32/int64 paddings [rank, 2]. */
export const padKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.PAD,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    ensure(node.inputs.length === 2, OP, node, `expects 2 inputs, got ${node.inputs.length}`);
    const input = inputTensor(context, OP, node, 0);
    const paddings = inputTensor(context, OP, node, 1);
    const output = singleOutput(context, OP, node);
    requireFloat32(OP, node, { t: input, what: 'input' }, { t: output, what: 'output' });
    requireConstant(OP, node, paddings, 'paddings');
    ensure(
      paddings.type === TensorType.INT32 || paddings.type === TensorType.INT64,
      OP,
      node,
      `paddings are ${tensorTypeName(paddings.type)}, expected int32 or int64`,
    );
    const rank = input.dims.length;
    ensure(
      paddings.dims.length === 2 && paddings.dims[0] === rank && paddings.dims[1] === 2,
      OP,
      node,
      `paddings must be [${rank}, 2], got [${Array.from(paddings.dims).join(',')}]`,
    );
    ensure(output.dims.length === rank, OP, node, `output rank ${output.dims.length} differs from input rank ${rank}`);
    const before: number[] = [];
    for (let d = 0; d < rank; d++) {
      const lo = Number(paddings.data[2 * d]);
      const hi = Number(paddings.data[2 * d + 1]);
      ensure(lo >= 0 && hi >= 0, OP, node, `negative padding [${lo}, ${hi}] in dimension ${d}`);
      ensure(
        output.dims[d] === input.dims[d]! + lo + hi,
        OP,
        node,
        `output dimension ${d} is ${output.dims[d]}, expected ${input.dims[d]! + lo + hi}`,
      );
      before.push(lo);
    }
    const i = padShape(OP, node, input.dims, 4, 'input');
    const o = padShape(OP, node, output.dims, 4, 'output');
    const p = [...new Array<number>(4 - rank).fill(0), ...before];
    return {
      op: OP,
      key: `${OP}|in=${shapeKey(i)}|out=${shapeKey(o)}|before=${p.join(',')}`,
      source: pad,
      constants: {
        o1: o[1]!,
        o2: o[2]!,
        o3: o[3]!,
        i0: i[0]!,
        i1: i[1]!,
        i2: i[2]!,
        i3: i[3]!,
        p0: p[0]!,
        p1: p[1]!,
        p2: p[2]!,
        p3: p[3]!,
      },
      floatConstants: [],
      outputSize: output.elementCount,
      output: output.index,
      args: [{ tensor: input.index }],
    };
  },
};
