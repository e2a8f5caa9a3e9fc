/**
 * `loadWasmKernels` / `loadWasmKernelsSync`: compile the kernels module once and hand out its
 * registrations and the arena backing that puts each interpreter's arena in a WebAssembly.Memory.
 *
 * ```ts
 * const wasm = await loadWasmKernels();            // throws WasmUnsupportedError without SIMD128
 * const resolver = new OpResolver();
 * registerReferenceOps(resolver);                   // the fallback for every node ops-wasm declines
 * resolver.registerAll(wasm.kernels, { fallback: true });
 * const it = new MicroInterpreter(model, resolver, { planner, arenaBacking: wasm.arenaBacking });
 * ```
 */
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { createAdd } from './kernels/add.js';
import { createSub } from './kernels/sub.js';
import { createBatchMatMul } from './kernels/batch-matmul.js';
import { createConv2D } from './kernels/conv-2d.js';
import { createDepthwiseConv2D } from './kernels/depthwise-conv-2d.js';
import { createFullyConnected } from './kernels/fully-connected.js';
import { createConv2D16x8 } from './kernels/conv-2d-16x8.js';
import { createDepthwiseConv2D16x8 } from './kernels/depthwise-conv-2d-16x8.js';
import { createFullyConnected16x8 } from './kernels/fully-connected-16x8.js';
import { createPad } from './kernels/pad.js';
import { createTranspose } from './kernels/transpose.js';
import { createDepthToSpace } from './kernels/depth-to-space.js';
import { createSpaceToDepth } from './kernels/space-to-depth.js';
import { createSlice } from './kernels/slice.js';
import { createStridedSlice } from './kernels/strided-slice.js';
import { createSplit } from './kernels/split.js';
import { createSplitV } from './kernels/split-v.js';
import { createUnpack } from './kernels/unpack.js';
import { createReverseV2 } from './kernels/reverse-v2.js';
import { createConcatenation } from './kernels/concatenation.js';
import { createPack } from './kernels/pack.js';
import { createGather } from './kernels/gather.js';
import { createMirrorPad } from './kernels/mirror-pad.js';
import { createMul } from './kernels/mul.js';
import { createMean } from './kernels/mean.js';
import { createSum } from './kernels/sum.js';
import { createReduceMax } from './kernels/reduce-max.js';
import { createReduceMin } from './kernels/reduce-min.js';
import { createSoftmax } from './kernels/softmax.js';
import { createSvdf } from './kernels/svdf.js';
import { createUnidirectionalSequenceLstm } from './kernels/unidirectional-sequence-lstm.js';
import { createQuantize } from './kernels/quantize.js';
import { createDequantize } from './kernels/dequantize.js';
import { createAveragePool2D } from './kernels/average-pool-2d.js';
import { createMaxPool2D } from './kernels/max-pool-2d.js';
import { createResizeBilinear } from './kernels/resize-bilinear.js';
import { createResizeNearestNeighbor } from './kernels/resize-nearest-neighbor.js';
import { createTransposeConv } from './kernels/transpose-conv.js';
import { createLogisticLut, createTanhLut } from './kernels/sigmoid-lut.js';
import { createLogisticInt16 } from './kernels/logistic-int16.js';
import { createTanhInt16 } from './kernels/tanh-int16.js';
import { createHardSwishLut } from './kernels/hard-swish-lut.js';
import { createLeakyReluLut } from './kernels/leaky-relu-lut.js';
import { createGeluLut } from './kernels/gelu-lut.js';
import { createExpLut } from './kernels/exp-lut.js';
import { createLogLut } from './kernels/log-lut.js';
import { createEluLut } from './kernels/elu-lut.js';
import { createRsqrtLut } from './kernels/rsqrt-lut.js';
import { createPrelu } from './kernels/prelu.js';
import { createSquaredDifference } from './kernels/squared-difference.js';
import { createFloatKernels } from './kernels/float/index.js';
import { createHybridKernels } from './kernels/hybrid/index.js';
import { declareSpatial, declineQuantizationRange } from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from './options.js';
import { probeRelaxedDot, type RelaxedDot } from './relaxed.js';
import { WasmThreadPool, defaultThreads, threadsAvailable, type PoolOptions } from './threads/pool.js';
import { WasmArenaBacking } from './wasm-arena.js';
import {
  WasmUnsupportedError,
  compileKernels,
  compileKernelsSync,
  detectFeatures,
  requireFeatures,
  type KernelsVariant,
  type WasmFeatures,
} from './wasm-module.js';

/** The loaded package: registrations, the arena backing, and what the engine offered. */
export interface WasmKernels {
  /**
   * The registrations (int8 and 16x8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED; int8 BATCH_MATMUL, ADD, SUB, MUL, AVERAGE_POOL_2D, MAX_POOL_2D,
   * MEAN, REDUCE_MAX and REDUCE_MIN (int8 and uint8) and SUM (int8) over any axes, SOFTMAX, int8 SVDF, QUANTIZE (from float32 to int8 /
   * uint8, and between int8, uint8, int16 and int32), DEQUANTIZE, the int8 UNIDIRECTIONAL_SEQUENCE_LSTM's gates, int8 and uint8
   * RESIZE_BILINEAR, int8 and uint8 TRANSPOSE_CONV, int8 and uint8 LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, GELU and PRELU; int8 EXP, LOG, ELU
   * and RSQRT; int8 and int16 SQUARED_DIFFERENCE; int16 LOGISTIC and TANH; PAD, CONCATENATION, PACK, GATHER (int16, int32 or int64 indices read at invoke) and RESIZE_NEAREST_NEIGHBOR of any fixed-size type; MIRROR_PAD (REFLECT, SYMMETRIC) of 1-, 2-, 4- and 8-byte elements (as strided box copies); TRANSPOSE of 1-, 2-, 4- and
   * 8-byte elements; DEPTH_TO_SPACE and SPACE_TO_DEPTH (as transposes); SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK and
   * REVERSE_V2 of 1-, 2-, 4- and 8-byte elements (as strided copies); the float32 kernels of kernels/float/index.ts); register with `{ fallback: true }`.
   */
  readonly kernels: Registration[];
  /** Pass as `InterpreterOptions.arenaBacking`: every interpreter gets its own memory and instance. */
  readonly arenaBacking: WasmArenaBacking;
  readonly features: WasmFeatures;
  readonly module: WebAssembly.Module;
  /** The build in use: `simd` or `relaxed`, with `-threads` when there are workers. */
  readonly variant: KernelsVariant;
  /** What the relaxed build's int8 GEMM uses: the engine's relaxed dot (`usdot`, `sdot`) or dot_i16x8 (`none`). */
  readonly relaxedDot: RelaxedDot;
  /** Threads that run a node: 1, or the main thread and `threads - 1` workers. */
  readonly threads: number;
  /** The workers (null with one thread). */
  readonly pool: WasmThreadPool | null;
  /** Stops the workers; interpreters made with this package's arena backing must not invoke afterwards. */
  dispose(): void;
}

/**
 * The registrations of ops-wasm (they find their instance through the arena at prepare), with the
 * spatial behaviour of the windowed and elementwise ones declared (kernel-support's declareSpatial) for
 * the patch schedule (the hybrid ones excepted), every `supports()` declining first the nodes whose
 * quantization no kernel here takes (see {@link inRangeQuantization}), and every registration
 * `arenaResident` (core folds no node with them).
 */
export function createWasmKernels(options: Partial<KernelOptions> = {}): Registration[] {
  const o: KernelOptions = { ...DEFAULT_KERNEL_OPTIONS, ...options };
  // the 16x8 kernels before the int8 ones of the same ops: asked after them (see below)
  const all = [
    createConv2D16x8(o),
    createDepthwiseConv2D16x8(o),
    createFullyConnected16x8(o),
    createConv2D(o),
    createDepthwiseConv2D(o),
    createFullyConnected(o),
    createBatchMatMul(o),
    createAdd(o),
    createSub(o),
    createMul(),
    createPad(),
    createTranspose(),
    createDepthToSpace(),
    createSpaceToDepth(),
    createSlice(),
    createStridedSlice(),
    createSplit(),
    createSplitV(),
    createUnpack(),
    createReverseV2(),
    createConcatenation(),
    createPack(),
    createGather(),
    createMirrorPad(),
    createAveragePool2D(),
    createMaxPool2D(),
    createMean(),
    createSum(),
    createReduceMax(),
    createReduceMin(),
    createSoftmax(),
    createSvdf(),
    createQuantize(),
    createDequantize(),
    createUnidirectionalSequenceLstm(),
    createResizeBilinear(),
    createResizeNearestNeighbor(),
    createTransposeConv(o),
    createLogisticLut(),
    createTanhLut(),
    createLogisticInt16(),
    createTanhInt16(),
    createHardSwishLut(),
    createLeakyReluLut(),
    createGeluLut(),
    createExpLut(),
    createLogLut(),
    createEluLut(),
    createRsqrtLut(),
    createPrelu(),
    createSquaredDifference(),
    ...createFloatKernels(o),
  ] as Registration[];
  // The hybrid ones come first: registered in front of ops-reference, the last of these is asked first, so a node that is
  // not hybrid hears the reasons of the kernels meant for it before the hybrid kernel's "not hybrid".
  // They have no spatial behaviour: a hybrid layer quantizes each whole batch of its input at once, so it
  // cannot run tile by tile.
  return (createHybridKernels(o) as Registration[])
    .map(inRangeQuantization)
    .concat(declareSpatial(all.map(inRangeQuantization)))
    .map(arenaResident);
}

/**
 * `r` declared `arenaResident`: every kernel here addresses tensors by their offset in the module's
 * memory, so core never folds a node with it (it moves a node whose inputs are constants to the next
 * provider, ops-reference, before the node prepares).
 */
function arenaResident(r: Registration): Registration {
  return { ...r, arenaResident: true };
}

/**
 * `r` with a `supports()` that first declines (kernel-support's declineQuantizationRange) a node with an
 * int8/uint8/int16 zero point outside its type's range or a fused activation whose quantized range is
 * empty. TFLM runs such nodes and ops-reference serves them; the kernels here size tables (ADD's fit
 * took `act_max − act_min + 1` entries: a negative length for a RELU over an output zero point of 255),
 * pack zero-point-shifted values into int16 lanes and write requantization bounds as int32, all of
 * which assume the type's range.
 */
function inRangeQuantization(r: Registration): Registration {
  const own = r.supports;
  return {
    ...r,
    supports: (context: TfLiteContext, node: Node) => declineQuantizationRange(context, node) ?? (own ? own.call(r, context, node) : true),
  };
}

function make(
  module: WebAssembly.Module,
  variant: KernelsVariant,
  features: WasmFeatures,
  threads: number,
  options: LoadOptions,
): WasmKernels {
  const pool = threads > 1 ? WasmThreadPool.start(threads, module, options) : null;
  const relaxedDot: RelaxedDot = variant.startsWith('relaxed') ? probeRelaxedDot() : 'none';
  const dotMode = relaxedDot === 'usdot' ? 1 : relaxedDot === 'sdot' ? 2 : 0;
  return {
    kernels: createWasmKernels({ ...options, threads, dotMode }),
    arenaBacking: new WasmArenaBacking(module, pool),
    features,
    module,
    variant,
    relaxedDot,
    threads,
    pool,
    dispose: () => pool?.terminate(),
  };
}

/** Options of the loaders: the kernels' options (see KernelOptions), threads, and the feature probe. */
export interface LoadOptions extends Partial<Omit<KernelOptions, 'threads' | 'dotMode'>>, PoolOptions {
  /**
   * Threads per node: `'auto'` (default) takes Node's `os.availableParallelism()` or a browser's
   * `navigator.hardwareConcurrency`; any count falls back to 1 where shared WebAssembly memory is
   * unavailable (no SharedArrayBuffer: a page that is not cross-origin isolated).
   */
  threads?: number | 'auto';
  /**
   * Relaxed SIMD: `'auto'` (default) uses the relaxed build where the engine has relaxed SIMD, `false`
   * never, `true` requires it (WasmUnsupportedError without).
   */
  relaxed?: boolean | 'auto';
  /** Feature probe (default `WebAssembly.validate`); tests pass one that refuses SIMD128. */
  validate?: (bytes: Uint8Array<ArrayBuffer>) => boolean;
}

/** The build for `options` on an engine with `features`, and the thread count. */
function choose(options: LoadOptions, features: WasmFeatures): { variant: KernelsVariant; threads: number } {
  if (options.relaxed === true && !features.relaxedSimd)
    throw new WasmUnsupportedError(
      'relaxed: true, but this WebAssembly engine lacks relaxed SIMD (Node 20 needs --experimental-wasm-relaxed-simd)',
    );
  const relaxed = options.relaxed !== false && features.relaxedSimd;
  const threads = resolveThreads(options.threads);
  return { variant: `${relaxed ? 'relaxed' : 'simd'}${threads > 1 ? '-threads' : ''}` as KernelsVariant, threads };
}

/** The thread count for `threads` here: 1 without shared memory. */
function resolveThreads(threads: number | 'auto' | undefined): number {
  const n = threads === undefined || threads === 'auto' ? defaultThreads() : Math.floor(threads);
  if (!(n >= 1)) throw new RangeError(`ops-wasm: threads must be a positive integer or 'auto', got ${String(threads)}`);
  return n > 1 && threadsAvailable() ? Math.min(n, 64) : 1;
}

/**
 * Compiles the module asynchronously (browsers' main thread needs this). Rejects with
 * WasmUnsupportedError, naming what is missing, where the engine has no WebAssembly or no SIMD128.
 */
export async function loadWasmKernels(options: LoadOptions = {}): Promise<WasmKernels> {
  const features = options.validate ? detectFeatures(options.validate) : detectFeatures();
  requireFeatures(features);
  const { variant, threads } = choose(options, features);
  const loaded = make(await compileKernels(variant), variant, features, threads, options);
  await loaded.pool?.whenReady();
  return loaded;
}

/**
 * Compiles the module synchronously (Node, workers); throws WasmUnsupportedError like loadWasmKernels.
 * Workers start in the background: until they are ready the main thread takes every chunk.
 */
export function loadWasmKernelsSync(options: LoadOptions = {}): WasmKernels {
  const features = options.validate ? detectFeatures(options.validate) : detectFeatures();
  requireFeatures(features);
  const { variant, threads } = choose(options, features);
  return make(compileKernelsSync(variant), variant, features, threads, options);
}
