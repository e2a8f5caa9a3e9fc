/**
 * Hybrid FULLY_CONNECTED (TFLite fully_connected.cc EvalHybridDense, as ops-reference's
 * fully-connected-hybrid.ts): float32 input and output, constant int8 weights (or TFLite's legacy uint8
 * hybrid weights, read as int8) with one scale or one per unit, an optional float32 bias, any fused
 * activation. Each input row is quantized at invoke (symmetric, or asymmetric with a zero point per row
 * under `asymmetric_quantize_inputs`), the convolution GEMM (qs8_conv with W.Raw, a 1x1 convolution
 * over the batches) accumulates in int32, hybrid_epilogue scales to float32 and adds the bias (see
 * hybrid-common.ts), and kernel-support's applyActivationToVector (TFLite's, as ops-reference) applies
 * the activation. An all-zero input gives the bias (TFLite's IsZeroVector shortcut). Declines (the next
 * provider serves the node): int4 or non-constant weights, shuffled weights, fewer than `minMacs`
 * multiply-accumulates.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  KernelError,
  TensorType,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  applyActivationToVector,
  declineArity,
  expectFullyConnectedShape,
  hybridWeightScales,
  hybridWeightsInt8,
  isVectorActivation,
  isZeroVector,
  reductionSumVector,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import { GEMM_TILE_PIXELS, W, WINDOW_PARAMS_BYTES, extScratchBytes, inputOffset, writeWindowParams } from '../kernel-common.js';
import { parallelFor, threadsFor } from '../parallel.js';
import { packConvGemm } from '../weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from '../window-scratch.js';
import {
  HybridMode,
  declineHybrid,
  prepareHybridEpilogue,
  quantizeHybridInput,
  emptyHybridKernelData,
  finishHybridKernel,
  type HybridKernelData,
} from './hybrid-common.js';

const OP = 'FULLY_CONNECTED';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];
const NO_I32 = new Int32Array(0);

interface HybridFcData extends HybridKernelData {
  /** Input values (batches × depth) and outputs (batches × units). */
  inCount: number;
  outCount: number;
  activation: ActivationFunctionType;
  units: number;
  /** The constant bias (the all-zero-input shortcut copies it), or null. */
  bias: Float32Array | null;
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
  if (input.type !== TensorType.FLOAT32 || filter.type === TensorType.FLOAT32) return 'not hybrid (float32 input, quantized weights)';
  if (filter.dims.length !== 2) return `hybrid weights of rank ${filter.dims.length} (handles 2-D)`;
  const why = declineHybrid(input, filter, bias, output, FILTER_TYPES, 0, filter.dims[0]!);
  if (why) return why;
  const activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (!isVectorActivation(activation)) return `fused activation ${activation}`;
  return declineSmall(filter.elementCount, output.elementCount, filter.dims[0]!, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as HybridFcData;
  const opts = node.builtinData as FullyConnectedOptions | null;
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
  if (bias && bias.elementCount !== units)
    throw new KernelError(OP, node.index, `bias (tensor ${bias.index}) has ${bias.elementCount} elements, expected output_depth ${units}`);
  const { scale, perChannel } = hybridWeightScales(OP, node, 'filter', filter, 0, units);
  const weights = hybridWeightsInt8(OP, context, node, 'filter', filter);
  if (!weights) throw new KernelError(OP, node.index, `hybrid filter (tensor ${filter.index}) must be a constant`);
  const asymmetric = opts?.asymmetricQuantizeInputs ?? false;
  let sums: Int32Array | null = null;
  if (asymmetric) {
    sums = new Int32Array(units);
    reductionSumVector(weights, 0, units, depth, sums);
  }
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch: 1,
    outC: units,
    // TFLite: one scale folded into the factors; per-channel scales multiply the factor per unit
    mode: perChannel ? HybridMode.PerChannel : HybridMode.Folded,
    sums,
    scales: perChannel,
    bias: bias ? (bias.data as Float32Array) : null,
    clamp: false,
    lo: 0,
    hi: 0,
  });

  // the batches are one row of 1x1 windows (no padding: no zero row)
  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const p = paramsRegion.i32;
  writeWindowParams(p, { batches: 1, inH: 1, inW: batches, inC: depth, outH: 1, outW: batches, outC: units, actMin: 0, actMax: 0 });
  const layout = packConvGemm(context, p, weights, units, 1, depth, null, 0, 0, batches === 1);
  p[W.Direct] = 1;
  const tiles = Math.ceil(batches / GEMM_TILE_PIXELS);
  const threads = batches === 1 ? 1 : threadsFor(options, batches * units * depth, tiles);
  data.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
    channels: 0,
    zeroBytes: 0,
    ptrBytes: batches === 1 ? 0 : 4,
    extBytes: batches === 1 ? 0 : extScratchBytes(layout.units),
    threads,
  });
  data.par = parallelFor(paramsRegion, threads, tiles);
  finishHybridKernel(context, node, data, paramsRegion, hyRegion, {
    batches,
    rowSize: depth,
    asymmetric,
    foldScale: perChannel ? 0 : scale,
  });
  data.inCount = batches * depth;
  data.outCount = batches * units;
  data.activation = opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  data.units = units;
  data.bias = bias ? (bias.data as Float32Array) : null;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridFcData;
  const input = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const outTensor = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  if (isZeroVector(input, 0, data.inCount)) {
    // TFLite: the bias alone (then the activation)
    const { units, bias } = data;
    for (let b = 0; b < data.batches; b++) for (let u = 0; u < units; u++) outTensor[b * units + u] = bias ? bias[u]! : 0;
  } else {
    const k = data.k!;
    const q = quantizeHybridInput(context, data.quant!, data.hy, k, inputOffset(context, node, 0, data.fixed));
    const output = outTensor.byteOffset;
    bindWindowScratch(context, data.p, data.scratch);
    const par = data.par;
    if (par) {
      k.window_begin(data.params);
      par.pool.run(k, par.instance, Fn.Conv, data.params, q, output, 0, data.batches, GEMM_TILE_PIXELS, par.chunks);
      par.pool.run(k, par.instance, Fn.HybridEpilogue, data.hp, output, 0, 0, data.batches, 1, par.chunks);
    } else {
      k.qs8_conv(data.params, q, output);
      k.hybrid_epilogue(data.hp, output, 0, data.batches);
    }
  }
  if (data.activation !== ActivationFunctionType.NONE) applyActivationToVector(data.activation, outTensor, 0, data.outCount);
}

/** The hybrid FULLY_CONNECTED registration (float32 nodes with quantized weights only). */
export function createFullyConnectedHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridFcData> {
  return {
    builtinCode: BuiltinOperator.FULLY_CONNECTED,
    version: 12,
    provider: PROVIDER,
    name: 'FULLY_CONNECTED/wasm-hybrid-gemm',
    supports: (context, node) => supports(context, node, options),
    init: (): HybridFcData => ({
      ...emptyHybridKernelData(),
      inCount: 0,
      outCount: 0,
      units: 0,
      activation: ActivationFunctionType.NONE,
      bias: null,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
