/**
 * PRELU, int8 (int8 alpha) and TFLite's uint8 (uint8 alpha), in WebAssembly: qs8_prelu
 * (assembly/int8/prelu.ts), TFLM's BroadcastPrelu4DSlow (x at or above the input zero point requantized
 * with the identity multiplier, below it times alpha − alpha zero point with the alpha multiplier;
 * kernel-support's calculatePreluParams, which ops-reference uses too) on eight elements per step, input and
 * alpha broadcast over up to three collapsed outer dimensions (a per-channel alpha along the last axis is one
 * run repeated over the pixels). Declines int16 and broadcasts it cannot lay out.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PR, PR_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { broadcastPlan } from './float/binary-common.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { binaryTensors, supportsQuantizedBinaryNode, writeBytePlan } from './quantized-binary-common.js';
import { calculatePreluParams } from '@micrort/kernel-support';

const OP = 'PRELU';
const NO_COPIES = new Int32Array(2).fill(-1);

interface PreluData {
  k: KernelExports | null;
  params: number;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
}

function supports(context: TfLiteContext, node: Node): true | string {
  return supportsQuantizedBinaryNode(
    context,
    node,
    (a, b, out) => (a === TensorType.INT8 || a === TensorType.UINT8) && b === a && out === a,
    'int8 with an int8 alpha, uint8 with a uint8 alpha',
    ({ a, b, out }) => calculatePreluParams(OP, node, a, b, out),
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as PreluData;
  const { a, b, out } = binaryTensors(context, node);
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') throw new KernelError(OP, node.index, plan);
  const q = calculatePreluParams(OP, node, a, b, out);
  const region = context.allocatePersistentBuffer(PR_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p.fill(0, 0, PR.Words);
  p[PR.Off1] = q.inputOffset;
  p[PR.Off2] = q.alphaOffset;
  p[PR.ZpOut] = q.outputZeroPoint;
  p[PR.M1] = q.identity.multiplier;
  p[PR.L1] = Math.max(q.identity.shift, 0);
  p[PR.R1] = Math.max(-q.identity.shift, 0);
  p[PR.M2] = q.alpha.multiplier;
  p[PR.L2] = Math.max(q.alpha.shift, 0);
  p[PR.R2] = Math.max(-q.alpha.shift, 0);
  writeBytePlan(p, plan, 1, PR.N, PR.S1, PR.S2, PR.Inner, PR.Mode);
  if (out.elementCount === 0) p[PR.Inner] = 0;
  p[PR.U8] = a.type === TensorType.UINT8 ? 1 : 0;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as PreluData;
  const x = inputOffset(context, node, 0, data.fixed[0]!);
  const alpha = inputOffset(context, node, 1, data.fixed[1]!);
  data.k!.qs8_prelu(data.params, x, alpha, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The int8 / uint8 PRELU registration. */
export function createPrelu(): Registration<PreluData> {
  return {
    builtinCode: BuiltinOperator.PRELU,
    version: 1,
    provider: PROVIDER,
    name: 'PRELU/wasm-qs8',
    supports,
    init: (): PreluData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
