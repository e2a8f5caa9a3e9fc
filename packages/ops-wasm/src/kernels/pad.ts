/**
 * PAD (TFLM kernels/pad.cc) in WebAssembly: constant padding of an int8, uint8, int16, int32 or float32
 * tensor of up to 5 dimensions with constant int32/int64 paddings; int8 and TFLite's uint8 pad with the
 * output zero point, the other types with 0 (as TFLM's PAD, TFLite's pad.cc for uint8). pad_bytes (assembly/layout/pad.ts) moves whole runs with
 * memory.copy/memory.fill: trailing dimensions without padding are merged into the innermost one at
 * prepare. Declines PAD with constant_values (PADV2 semantics), non-constant paddings and other types.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { PD, PD_BYTES } from '../generated/abi.js';
import { kernelsFor } from '../wasm-arena.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import type { KernelExports } from '../wasm-module.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'PAD';
const MAX_DIMS = 5;
/** Parameter block PD (scripts/abi.mjs): o[5], l[5], r[5], fill byte; TFLM's OpData for PAD is 56 bytes. */
const PAD_PARAMS_BYTES = PD_BYTES;
const TYPES = new Set([TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.INT32, TensorType.FLOAT32]);

interface PadData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    return node.inputs.length === 3 ? 'constant_values input' : declineArity(node, 2, 1)!;
  const input = context.getTensor(node.inputs[0]!);
  const paddings = context.getTensor(node.inputs[1]!);
  if (!TYPES.has(input.type)) return `${tensorTypeName(input.type)} input (handles int8, uint8, int16, int32, float32)`;
  if (!paddings.isConstant) return 'paddings is not a constant';
  if (paddings.type !== TensorType.INT32 && paddings.type !== TensorType.INT64) return `${tensorTypeName(paddings.type)} paddings`;
  if (input.dims.length > MAX_DIMS) return `rank ${input.dims.length} (handles up to ${MAX_DIMS})`;
  return true;
}

function readPaddings(t: Tensor, node: Node): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.elementCount; i++) {
    const v = t.type === TensorType.INT64 ? Number((t.data as BigInt64Array)[i]!) : (t.data as Int32Array)[i]!;
    if (!Number.isSafeInteger(v) || v < 0 || v > 0x7fffffff)
      throw new KernelError(OP, node.index, `paddings[${i}] = ${v} is not a non-negative int32`);
    out.push(v);
  }
  return out;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as PadData;
  if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 2 inputs and 1 output`);
  const input = context.getTensor(node.inputs[0]!);
  const paddings = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== input.type)
    throw new KernelError(
      OP,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  const rank = input.dims.length;
  if (output.dims.length !== rank)
    throw new KernelError(OP, node.index, `output rank ${output.dims.length} differs from input rank ${rank}`);
  if (paddings.elementCount !== rank * 2)
    throw new KernelError(OP, node.index, `paddings has ${paddings.elementCount} elements, expected [${rank}, 2]`);
  const pads = readPaddings(paddings, node);
  let value = 0;
  if (input.type === TensorType.INT8) {
    value = output.params.zeroPoint;
    if (value < -128 || value > 127) throw new KernelError(OP, node.index, `output zero point ${value} is outside the int8 range`);
  } else if (input.type === TensorType.UINT8) {
    value = output.params.zeroPoint;
    if (value < 0 || value > 255) throw new KernelError(OP, node.index, `output zero point ${value} is outside the uint8 range`);
  }
  // Five dimensions (front-padded with 1s), the innermost in bytes.
  const o: number[] = [];
  const l: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < MAX_DIMS - rank; i++) {
    o.push(1);
    l.push(0);
    r.push(0);
  }
  for (let i = 0; i < rank; i++) {
    const expected = input.dims[i]! + pads[2 * i]! + pads[2 * i + 1]!;
    if (output.dims[i] !== expected)
      throw new KernelError(
        OP,
        node.index,
        `output dim ${i} is ${output.dims[i]}, expected ${input.dims[i]} + ${pads[2 * i]} + ${pads[2 * i + 1]} = ${expected}`,
      );
    o.push(output.dims[i]!);
    l.push(pads[2 * i]!);
    r.push(pads[2 * i + 1]!);
  }
  const es = elementSize(input.type)!;
  o[4]! *= es;
  l[4]! *= es;
  r[4]! *= es;
  // Merge dimension 3 into 4 while dimension 4 has no padding (rows of whole blocks), and so on.
  for (let d = 3; d >= 0; d--) {
    if (l[d + 1] !== 0 || r[d + 1] !== 0) break;
    const inner = o[d + 1]!;
    o[d + 1] = o[d]! * inner;
    l[d + 1] = l[d]! * inner;
    r[d + 1] = r[d]! * inner;
    o.splice(d, 1);
    l.splice(d, 1);
    r.splice(d, 1);
    o.unshift(1);
    l.unshift(0);
    r.unshift(0);
  }
  const region = context.allocatePersistentBuffer(PAD_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  for (let i = 0; i < MAX_DIMS; i++) {
    p[PD.O + i] = o[i]!;
    p[PD.L + i] = l[i]!;
    p[PD.R + i] = r[i]!;
  }
  p[PD.Value] = value & 0xff;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as PadData;
  data.k!.pad_bytes(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The PAD registration. */
export function createPad(): Registration<PadData> {
  return {
    builtinCode: BuiltinOperator.PAD,
    version: 4,
    provider: PROVIDER,
    name: 'PAD/wasm-bytes',
    supports,
    init: (): PadData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
