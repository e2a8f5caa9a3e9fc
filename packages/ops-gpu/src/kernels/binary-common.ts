/**
 * ADD, SUB and MUL on the GPU (float32) with NumPy-style broadcasting up to 4-D, as TFLite's
 * BroadcastAdd4DSlow / BroadcastSub4DSlow / BroadcastMul4DSlow: each output coordinate reads
 * coordinate 0 of an input's size-1 dimensions. The result is clamped to the fused activation.
 */
import { KernelError, type AddOptions, type Node, type TfLiteContext } from '@micrort/core';
import {
  ensure,
  inputTensor,
  padShape,
  requireFloat32,
  shapeKey,
  singleOutput,
  type GpuOpKernel,
  type KernelPlan,
  type KernelThis,
} from './kernel-plan.js';
import { activationRangeFloat } from '@micrort/kernel-support';

/** Which arithmetic a binary kernel does (a shader constant, so each op compiles its own shader). */
export enum BinaryOp {
  Add = 0,
  Sub = 1,
  Mul = 2,
}

interface BinaryConstants {
  op: number;
  d1: number;
  d2: number;
  d3: number;
  a0: number;
  a1: number;
  a2: number;
  a3: number;
  b0: number;
  b1: number;
  b2: number;
  b3: number;
  actMin: number;
  actMax: number;
}

function broadcastBinary(this: KernelThis<BinaryConstants>, a: Float32Array, b: Float32Array): number {
  const c3 = this.thread.x % this.constants.d3;
  const r1 = Math.floor(this.thread.x / this.constants.d3);
  const c2 = r1 % this.constants.d2;
  const r2 = Math.floor(r1 / this.constants.d2);
  const c1 = r2 % this.constants.d1;
  const c0 = Math.floor(r2 / this.constants.d1);
  const x = a[c0 * this.constants.a0 + c1 * this.constants.a1 + c2 * this.constants.a2 + c3 * this.constants.a3]!;
  const y = b[c0 * this.constants.b0 + c1 * this.constants.b1 + c2 * this.constants.b2 + c3 * this.constants.b3]!;
  // gpu.js infers a variable's type from its initializer: the 0 is not dead.
  // eslint-disable-next-line no-useless-assignment
  let v = 0;
  if (this.constants.op === 0) {
    v = x + y;
  } else if (this.constants.op === 1) {
    v = x - y;
  } else {
    v = x * y;
  }
  return Math.min(Math.max(v, this.constants.actMin), this.constants.actMax);
}

/** Row-major strides of a 4-D shape, 0 along size-1 dimensions that broadcast to a larger output. */
function broadcastStrides(shape: number[], out: number[]): number[] {
  const strides = [0, 0, 0, 0];
  let s = 1;
  for (let d = 3; d >= 0; d--) {
    strides[d] = shape[d] === 1 && out[d] !== 1 ? 0 : s;
    s *= shape[d]!;
  }
  return strides;
}

/** A GPU kernel for one broadcasting binary op. */
export function binaryKernel(builtinCode: number, name: string, op: BinaryOp): GpuOpKernel {
  return {
    builtinCode,
    name,
    plan(context: TfLiteContext, node: Node): KernelPlan {
      ensure(node.inputs.length === 2, name, node, `expects 2 inputs, got ${node.inputs.length}`);
      const a = inputTensor(context, name, node, 0);
      const b = inputTensor(context, name, node, 1);
      const output = singleOutput(context, name, node);
      requireFloat32(name, node, { t: a, what: 'input 0' }, { t: b, what: 'input 1' }, { t: output, what: 'output' });
      const out = padShape(name, node, output.dims, 4, 'output');
      const sa = padShape(name, node, a.dims, 4, 'input 0');
      const sb = padShape(name, node, b.dims, 4, 'input 1');
      for (let d = 0; d < 4; d++) {
        for (const [s, which] of [
          [sa, 'input 0'],
          [sb, 'input 1'],
        ] as const)
          if (s[d] !== out[d] && s[d] !== 1)
            throw new KernelError(
              name,
              node.index,
              `${which} shape [${Array.from(which === 'input 0' ? a.dims : b.dims).join(',')}] does not broadcast to the output [${Array.from(output.dims).join(',')}]`,
            );
        ensure(
          Math.max(sa[d]!, sb[d]!) === out[d],
          name,
          node,
          `output shape [${Array.from(output.dims).join(',')}] is not the broadcast of the inputs`,
        );
      }
      const [a0, a1, a2, a3] = broadcastStrides(sa, out) as [number, number, number, number];
      const [b0, b1, b2, b3] = broadcastStrides(sb, out) as [number, number, number, number];
      const o = node.builtinData as AddOptions | null;
      const [actMin, actMax] = activationRangeFloat(name, node, o?.fusedActivationFunction ?? 0);
      return {
        op: name,
        key: `${name}|a=${shapeKey(sa)}|b=${shapeKey(sb)}|out=${shapeKey(out)}|act=${actMin},${actMax}`,
        source: broadcastBinary,
        constants: { op, d1: out[1]!, d2: out[2]!, d3: out[3]!, a0, a1, a2, a3, b0, b1, b2, b3, actMin, actMax },
        floatConstants: ['actMin', 'actMax'],
        outputSize: output.elementCount,
        output: output.index,
        args: [{ tensor: a.index }, { tensor: b.index }],
      };
    },
  };
}
