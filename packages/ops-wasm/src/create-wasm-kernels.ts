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
import type { Registration } from '@micrort/core';
import { createAdd } from './kernels/add.js';
import { createConv2D } from './kernels/conv-2d.js';
import { createDepthwiseConv2D } from './kernels/depthwise-conv-2d.js';
import { createFullyConnected } from './kernels/fully-connected.js';
import { createPad } from './kernels/pad.js';
import { createTranspose } from './kernels/transpose.js';
import { createConcatenation } from './kernels/concatenation.js';
import { createMul } from './kernels/mul.js';
import { createMean } from './kernels/mean.js';
import { createSoftmax } from './kernels/softmax.js';
import { createUnidirectionalSequenceLstm } from './kernels/unidirectional-sequence-lstm.js';
import { createQuantize } from './kernels/quantize.js';
import { createDequantize } from './kernels/dequantize.js';
import { createAveragePool2D } from './kernels/average-pool-2d.js';
import { createMaxPool2D } from './kernels/max-pool-2d.js';
import { createFloatKernels } from './kernels/float/index.js';
import { declareSpatial } from '@micrort/kernel-support';
import { WasmArenaBacking } from './wasm-arena.js';
import { compileKernels, compileKernelsSync, detectFeatures, requireFeatures, type WasmFeatures } from './wasm-module.js';

/** The loaded package: registrations, the arena backing, and what the engine offered. */
export interface WasmKernels {
  /**
   * The registrations (int8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, MUL, AVERAGE_POOL_2D, MAX_POOL_2D,
   * MEAN over H and W, SOFTMAX, QUANTIZE, DEQUANTIZE, the int8 UNIDIRECTIONAL_SEQUENCE_LSTM's gates; PAD and CONCATENATION of any
   * fixed-size type; TRANSPOSE of 1-, 2-, 4- and 8-byte elements; the float32 kernels of kernels/float/index.ts); register with `{ fallback: true }`.
   */
  readonly kernels: Registration[];
  /** Pass as `InterpreterOptions.arenaBacking`: every interpreter gets its own memory and instance. */
  readonly arenaBacking: WasmArenaBacking;
  readonly features: WasmFeatures;
  readonly module: WebAssembly.Module;
}

/**
 * The registrations of ops-wasm (they find their instance through the arena at prepare), with the
 * spatial behaviour of the windowed and elementwise ones declared (kernel-support's declareSpatial) for the patch schedule.
 */
export function createWasmKernels(): Registration[] {
  return declareSpatial([
    createConv2D(),
    createDepthwiseConv2D(),
    createFullyConnected(),
    createAdd(),
    createMul(),
    createPad(),
    createTranspose(),
    createConcatenation(),
    createAveragePool2D(),
    createMaxPool2D(),
    createMean(),
    createSoftmax(),
    createQuantize(),
    createDequantize(),
    createUnidirectionalSequenceLstm(),
    ...createFloatKernels(),
  ] as Registration[]);
}

function make(module: WebAssembly.Module, features: WasmFeatures): WasmKernels {
  return { kernels: createWasmKernels(), arenaBacking: new WasmArenaBacking(module), features, module };
}

/** Options of the loaders. */
export interface LoadOptions {
  /** Feature probe (default `WebAssembly.validate`); tests pass one that refuses SIMD128. */
  validate?: (bytes: Uint8Array<ArrayBuffer>) => boolean;
}

/**
 * Compiles the module asynchronously (browsers' main thread needs this). Rejects with
 * WasmUnsupportedError, naming what is missing, where the engine has no WebAssembly or no SIMD128.
 */
export async function loadWasmKernels(options: LoadOptions = {}): Promise<WasmKernels> {
  const features = options.validate ? detectFeatures(options.validate) : detectFeatures();
  requireFeatures(features);
  return make(await compileKernels(), features);
}

/** Compiles the module synchronously (Node, workers); throws WasmUnsupportedError like loadWasmKernels. */
export function loadWasmKernelsSync(options: LoadOptions = {}): WasmKernels {
  const features = options.validate ? detectFeatures(options.validate) : detectFeatures();
  requireFeatures(features);
  return make(compileKernelsSync(), features);
}
