/**
 * What float32 MAX_POOL_2D and AVERAGE_POOL_2D share: kernel-support's `calculateOpDataPooling` (TFLM
 * kernels/pooling_common.cc) written into the parameter block of assembly/float/pool.ts.
 */
import { type Node, type Pool2DOptions, type Registration, type TfLiteContext } from '@micrort/core';
import { FP, FP_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { writePoolGeometry } from '../pooling-common.js';
import { declineNonFloat, floatKernelsFor, type FloatKernelExports } from './float-common.js';
import { calculateOpDataPooling, declineActivation, declineArity, FLOAT32_ONLY } from '@micrort/kernel-support';

/** Parameter block FP (scripts/abi.mjs). */
const POOL_PARAMS_BYTES = FP_BYTES;

/** Op data of a float pooling node. */
export interface PoolData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

/** A float32 pooling registration running `kernel`. */
export function poolRegistration(op: string, code: number, kernel: 'f32_maxpool' | 'f32_avgpool'): Registration<PoolData> {
  return {
    builtinCode: code,
    version: 3,
    provider: PROVIDER,
    name: `${op}/wasm-f32`,
    supports(context, node) {
      const arity = declineArity(node, 1, 1);
      if (arity) return arity;
      const input = context.getTensor(node.inputs[0]!);
      const why = declineNonFloat([input, context.getTensor(node.outputs[0]!)]);
      if (why) return why;
      const params = node.builtinData as Pool2DOptions | null;
      const act = params ? declineActivation(params.fusedActivationFunction) : null;
      if (act) return act;
      return true;
    },
    init: (): PoolData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node) {
      const data = node.userData as PoolData;
      const d = calculateOpDataPooling(op, context, node, FLOAT32_ONLY);
      const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.input = constantInputCopies(context, node, [0])[0]!;
      writePoolGeometry(region.i32, d, FP);
      region.f32[FP.ActMin] = d.actMinF;
      region.f32[FP.ActMax] = d.actMaxF;
      data.params = region.offset;
    },
    invoke(context, node) {
      const data = node.userData as PoolData;
      data.k![kernel](data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
  };
}
