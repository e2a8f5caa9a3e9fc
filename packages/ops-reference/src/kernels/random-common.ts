/**
 * RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL (TFLite random_ops.cc): a float32 tensor of the shape given
 * by a constant int32 vector, filled from TFLite's Philox generator (philox-common.ts) seeded by
 * RandomOptions' two seeds: uniform values in [0, 1) from each uint32 (Uint32ToFloat), or standard normal
 * pairs (BoxMullerFloat). Each invoke draws four uint32 at a time and continues where the last one stopped,
 * as TFLite's generator does — the same seeds give TFLite's sequence (each seed cut to 32 bits, as TFLite
 * keeps them). Seeds 0 and 0 mean unseeded: TFLite
 * then seeds from /dev/urandom, this kernel from the platform's crypto source. A runtime shape has no
 * bound (data-dependent-shape.ts).
 */
import {
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type RandomOptions,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { boxMullerFloat, philoxNext, philoxState, unseeded, uint32ToFloat, type PhiloxState } from './philox-common.js';
import { constantInts, expectShapeValues } from './tflite-ops-common.js';

/** Op data of the random kernels: the generator state and its last four draws. */
export interface RandomOpData {
  state: PhiloxState;
  samples: Uint32Array;
  count: number;
}

/**
 * The generator of a node: its options' seeds, or fresh random ones when both are 0. TFLite keeps each
 * seed in an `int` (TfLiteRandomParams): the schema's 64-bit values are cut to their low 32 bits and
 * sign-extended — TFLite 2.9 and LiteRT.js 2.5.3 both give the same numbers for seed 2^40 + 3 as for 3 —
 * and so are they here.
 */
export function seededState(node: Node): PhiloxState {
  const o = node.builtinData as RandomOptions | null;
  const seed = BigInt.asIntN(32, o?.seed ?? 0n);
  const seed2 = BigInt.asIntN(32, o?.seed2 ?? 0n);
  return seed === 0n && seed2 === 0n ? philoxState(...unseeded()) : philoxState(seed, seed2);
}

/** The registration of RANDOM_UNIFORM (`normal` false) or RANDOM_STANDARD_NORMAL. */
export function randomKernel(op: string, builtinCode: number, normal: boolean): Registration<RandomOpData> {
  return {
    builtinCode,
    version: 1,
    provider: PROVIDER,
    name: op,
    supports: (context, node) =>
      declineArity(node, 1, 1) ?? declineTypes(context, node, [0], [TensorType.INT32], [TensorType.FLOAT32]) ?? true,
    init: () => ({ state: new Uint32Array(6), samples: new Uint32Array(4), count: 0 }),
    prepare(context: TfLiteContext, node: Node) {
      checkArity(op, node, 1, 1);
      const shape = getInput(context, node, 0, op);
      expectType(op, node, 'shape', shape, [TensorType.INT32]);
      expectRank(op, node, 'shape', shape, 1);
      const output = getOutput(context, node, 0, op);
      if (output.type !== TensorType.FLOAT32) throw new KernelError(op, node.index, 'the output must be float32');
      const dims = constantInts(op, node, shape, 'shape');
      if (dims === null) noShapeBound(op, context, node, 0, 'the shape input is not constant');
      expectShapeValues(op, node, 'shape', dims);
      setOutputShape(op, context, node, 0, dims);
      const d = opData<RandomOpData>(op, node);
      d.state = seededState(node);
      d.count = output.elementCount;
    },
    invoke(context: TfLiteContext, node: Node) {
      const d = opData<RandomOpData>(op, node);
      const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
      const s = d.samples;
      for (let at = 0; at < d.count; at += 4) {
        philoxNext(d.state, s);
        const n = Math.min(4, d.count - at);
        if (normal) for (let i = 0; i < n; i += 2) boxMullerFloat(s, i, out, at + i);
        else for (let i = 0; i < n; i++) out[at + i] = uint32ToFloat(s, i);
      }
    },
  };
}
