/**
 * FULLY_CONNECTED, int8 (per-tensor or per-channel symmetric weights) and TFLite's uint8 (per-tensor,
 * any zero points, uint8 output), in WebAssembly: the convolution GEMM (qs8_conv) as a 1x1 convolution
 * over the batches, weights packed at prepare into the arena. Declines other types, shuffled weights,
 * non-constant weights or bias and asymmetric int8 weights.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  TensorType,
  KernelError,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../options.js';
import { Fn } from '../threads/control.js';
import { parallelFor, threadsFor, type Parallel } from './parallel.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import {
  GEMM_TILE_PIXELS,
  W,
  rightOnlyRange,
  WINDOW_PARAMS_BYTES,
  constantInputCopies,
  declineWeighted,
  extScratchBytes,
  inputOffset,
  writeWindowParams,
} from './kernel-common.js';
import { packConvGemm, packableWeights } from './weight-pack.js';
import { bindWindowScratch, requestWindowScratch, sharedMultiplier } from './window-scratch.js';
import {
  activationRangeQuantized,
  populateUint8ConvolutionParams,
  calculateOpDataFullyConnected,
  declineArity,
  expectBias,
  expectFullyConnectedShape,
} from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';
const INT32_BIAS: readonly TensorType[] = [TensorType.INT32];

interface FcData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** The parameter block (its Scratch word is set at invoke) and the scratch buffer's index. */
  p: Int32Array;
  scratch: number;
  /** Batches (the GEMM's rows), and the node's share of the thread pool (null: the main thread alone). */
  total: number;
  par: Parallel | null;
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const opts = node.builtinData as FullyConnectedOptions | null;
  if (opts && opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT) return 'shuffled weights';
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  return (
    declineWeighted(input, filter, bias, output) ??
    declineSmall(filter.elementCount, output.elementCount, filter.dims[filter.dims.length - 2] ?? 0, options) ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as FcData;
  const opts = node.builtinData as FullyConnectedOptions | null;
  const activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (node.inputs.length < 2 || node.inputs.length > 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const {
    batches,
    outputDepth: units,
    accumDepth: depth,
  } = expectFullyConnectedShape(OP, node, input, filter, output, opts?.keepNumDims ?? false);
  expectBias(OP, node, bias, INT32_BIAS, units, input.type);
  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  let actMin: number, actMax: number;
  let q;
  // a per-tensor multiplier is kept once, and one requantization block serves every unit
  let shared = true;
  if (input.type === TensorType.UINT8) {
    // TFLite's uint8 (fully_connected.cc): one multiplier from the float32 scale product, any zero points
    const m = populateUint8ConvolutionParams(OP, node, input, filter, bias, output);
    [actMin, actMax] = activationRangeQuantized(OP, node, activation, output);
    q = sharedMultiplier(context, m.multiplier, m.shift);
  } else {
    const fc = calculateOpDataFullyConnected(OP, context, node, input, filter, bias, output, activation);
    ({ actMin, actMax } = fc);
    shared = fc.perChannelBuffers === null;
    q = fc.perChannelBuffers ?? sharedMultiplier(context, fc.outputMultiplier, fc.outputShift);
  }
  const fast = rightOnlyRange(q.multiplier, q.shift, { zeroPoint: output.params.zeroPoint, actMin, actMax });
  const p = paramsRegion.i32;
  // the batches are one row of 1x1 windows
  writeWindowParams(p, {
    batches: 1,
    inH: 1,
    inW: batches,
    inC: depth,
    outH: 1,
    outW: batches,
    outC: units,
    actMin,
    actMax,
    zpOut: output.params.zeroPoint,
  });
  const layout = packConvGemm(
    context,
    p,
    packableWeights(filter),
    units,
    1,
    depth,
    bias ? (bias.data as Int32Array) : null,
    input.params.zeroPoint,
    options.dotMode,
    batches === 1,
  );
  p[W.ZpIn] = input.params.zeroPoint;
  p[W.Direct] = 1;
  p[W.RightOnly] = fast ? 1 : 0;
  data.params = paramsRegion.offset;
  data.p = p;
  // one batch runs qs8_conv's one-pixel path, which reads the input in place: no tap pointers or rows;
  // every tap is an input row (Direct), so no zero row either
  const tiles = Math.ceil(batches / GEMM_TILE_PIXELS);
  const threads = batches === 1 ? 1 : threadsFor(options, batches * units * depth, tiles);
  data.scratch = requestWindowScratch(context, p, q.multiplier, q.shift, {
    channels: units,
    zeroBytes: 0,
    ptrBytes: batches === 1 ? 0 : 4,
    extBytes: batches === 1 ? 0 : extScratchBytes(layout.units),
    threads,
    shared,
  });
  data.total = batches;
  data.par = parallelFor(paramsRegion, threads, tiles);
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as FcData;
  bindWindowScratch(context, data.p, data.scratch);
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = data.k!;
  const par = data.par;
  if (par) {
    k.window_begin(data.params);
    par.pool.run(k, par.instance, Fn.Conv, data.params, input, output, 0, data.total, GEMM_TILE_PIXELS, par.chunks);
  } else k.qs8_conv(data.params, input, output);
}

/** The FULLY_CONNECTED registration. */
export function createFullyConnected(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<FcData> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/wasm-qs8-gemm',
    supports: (context, node) => supports(context, node, options),
    init: (): FcData => ({ k: null, params: 0, fixed: -1, p: new Int32Array(0), scratch: -1, total: 0, par: null }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
