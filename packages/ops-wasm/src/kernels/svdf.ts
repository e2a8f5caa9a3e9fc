/**
 * SVDF, int8 input and output with an int16 or int8 activation state (time weights of the state's type,
 * int32 bias or none), in WebAssembly: qs8_svdf (assembly/int8/svdf.ts), TFLM's EvalIntegerSvdfReference
 * byte for byte. The state is the model's variable tensor, updated in place at each invoke; the feature
 * weights are packed at prepare (rows padded to 8 values, filters to 4). Shapes, checks and the two
 * requantizations are kernel-support's (svdfTensors, svdfIntegerMultipliers), as ops-reference's SVDF.
 * Declines float32 and hybrid SVDF, non-constant feature weights, an int16 state with a nonzero zero
 * point, and requantization shifts past 31.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  INT8_ONLY,
  SVDF_REQUIRED_INPUTS,
  declineArity,
  declineNotConstant,
  declineType,
  svdfIntegerMultipliers,
  svdfTensors,
  typeRange,
} from '@micrort/kernel-support';
import { SV } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { inputOffset } from './kernel-common.js';
import { svdfInputCopies, svdfLayout, writeSvdfBlock, type SvdfCopies } from './svdf-common.js';

const OP = 'SVDF';
const STATE_TYPES: readonly TensorType[] = [TensorType.INT16, TensorType.INT8];

interface SvdfData extends SvdfCopies {
  k: KernelExports | null;
  params: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 5, 1);
  if (arity) return arity;
  // a missing required input: prepare (svdfTensors) reports it as a KernelError
  if (SVDF_REQUIRED_INPUTS.some((p) => node.inputs[p]! < 0)) return true;
  const tensor = (pos: number): Tensor | null => {
    const i = node.inputs[pos]!;
    return i < 0 ? null : context.getTensor(i);
  };
  const input = tensor(0)!;
  const weightsFeature = tensor(1)!;
  const weightsTime = tensor(2)!;
  const bias = tensor(3);
  const state = tensor(4)!;
  const output = context.getTensor(node.outputs[0]!);
  const why =
    declineType('input', input, INT8_ONLY) ??
    declineType('weights_feature', weightsFeature, INT8_ONLY) ??
    declineType('output', output, INT8_ONLY) ??
    declineType('activation state', state, STATE_TYPES) ??
    declineType('weights_time', weightsTime, [state.type]) ??
    (bias ? declineType('bias', bias, [TensorType.INT32]) : null) ??
    declineNotConstant(context, node, 1, 'weights_feature', 'packed at prepare');
  if (why) return why;
  if (state.type === TensorType.INT16 && state.params.zeroPoint !== 0)
    return `int16 activation state zero point ${state.params.zeroPoint} (handles 0)`;
  let q: ReturnType<typeof svdfIntegerMultipliers>;
  try {
    q = svdfIntegerMultipliers(OP, node, { input, weightsFeature, weightsTime, bias, state, output });
  } catch (e) {
    return (e as Error).message;
  }
  for (const { shift } of [q.scale1, q.scale2]) if (shift > 31) return `requantization shift ${shift} (handles up to 31)`;
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SvdfData;
  const t = svdfTensors(OP, context, node);
  const { scale1, scale2 } = svdfIntegerMultipliers(OP, node, t);
  const layout = svdfLayout(t, 1, 2);
  const region = context.allocatePersistentBuffer(layout.bytes);
  data.k = kernelsFor(OP, node, region);
  data.params = region.offset;
  writeSvdfBlock(region, t, layout, region.i8.subarray(layout.featureAt, layout.rowAt));
  const p = region.i32;
  p[SV.State16] = t.state.type === TensorType.INT16 ? 1 : 0;
  p[SV.ZpIn] = t.input.params.zeroPoint;
  p[SV.ZpState] = t.state.params.zeroPoint;
  p[SV.ZpOut] = t.output.params.zeroPoint;
  [p[SV.StateMin], p[SV.StateMax]] = typeRange(t.state.type);
  p[SV.Mult1] = scale1.multiplier;
  p[SV.Left1] = Math.max(scale1.shift, 0);
  p[SV.Right1] = Math.max(-scale1.shift, 0);
  p[SV.Mult2] = scale2.multiplier;
  p[SV.Left2] = Math.max(scale2.shift, 0);
  p[SV.Right2] = Math.max(-scale2.shift, 0);
  svdfInputCopies(context, node, t, data);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SvdfData;
  data.k!.qs8_svdf(
    data.params,
    inputOffset(context, node, 0, data.inputCopy),
    inputOffset(context, node, 2, data.timeCopy),
    data.hasBias ? inputOffset(context, node, 3, data.biasCopy) : 0,
    context.getEvalTensor(node.inputs[4]!).data.byteOffset,
    context.getEvalTensor(node.outputs[0]!).data.byteOffset,
  );
}

/** The int8 SVDF registration (int16 or int8 state). */
export function createSvdf(): Registration<SvdfData> {
  return {
    builtinCode: BuiltinOperator.SVDF,
    version: 4,
    provider: PROVIDER,
    name: 'SVDF/wasm-qs8',
    supports,
    init: (): SvdfData => ({ k: null, params: 0, inputCopy: -1, timeCopy: -1, biasCopy: -1, hasBias: false }),
    prepare,
    invoke,
  };
}
