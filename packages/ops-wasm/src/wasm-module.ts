/**
 * Loading the kernels module: feature detection, compilation, and the check that the module leaves the
 * whole linear memory to the arena.
 *
 * The module (assembly/, built by scripts/build-wasm.mjs) imports its memory as `env.memory` and has no
 * data segment and no global: the interpreter's arena starts at offset 0 of the memory (see
 * wasm-arena.ts); past it lie only read slack and the constant tables the backing writes
 * (constant-tables.ts). It needs fixed-width SIMD (SIMD128); an engine without it gets a
 * `WasmUnsupportedError` saying so, never a crash.
 */
import { MicrortError } from '@micrort/core';
import { ABI_HASH } from './generated/abi.js';
import {
  KERNELS_RELAXED_THREADS_WASM_BASE64,
  KERNELS_RELAXED_WASM_BASE64,
  KERNELS_THREADS_WASM_BASE64,
  KERNELS_WASM_BASE64,
} from './generated/kernels-wasm.js';
import { hasRelaxedSimd } from './relaxed.js';

/** The exports of the kernels module: byte offsets into the arena, see assembly/index.ts. */
export interface KernelExports {
  qs8_conv(params: number, input: number, output: number): void;
  /** The windowed kernels' prologue (zero row, requantization blocks), before qs8_conv_run / qs8_dwconv_run. */
  window_begin(params: number): void;
  /** qs8_conv over output pixels [q0, q1) with thread `tid`'s scratch area, after the prologue (windowBegin). */
  qs8_conv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
  qs8_dwconv(params: number, input: number, output: number): void;
  /** qs8_dwconv over output pixels [q0, q1) with thread `tid`'s scratch area, after the prologue. */
  qs8_dwconv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
  qs8_add(params: number, input1: number, input2: number, output: number): void;
  /** qs8_add over elements [e0, e1) of a plan-less ADD. */
  qs8_add_range(params: number, input1: number, input2: number, output: number, e0: number, e1: number): void;
  pad_bytes(params: number, input: number, output: number): void;
  transpose_bytes(params: number, input: number, output: number): void;
  /** The hash of the ABI (scripts/abi.mjs) the module was built with. */
  abi_hash(): number;
  concat_bytes(params: number, inputOffsets: number, output: number): void;
  /** GATHER (block GA): -1, or the position of the first index outside [0, axis size) (the copy stops there). */
  gather_bytes(params: number, paramsData: number, indices: number, output: number): number;
  /** MIRROR_PAD (block MP): its box copies in order, the border slabs reading the output. */
  mirror_pad_bytes(params: number, input: number, output: number): void;
  qs8_avgpool(params: number, input: number, output: number): void;
  qs8_mul(params: number, input1: number, input2: number, output: number): void;
  /** int8 BATCH_MATMUL over rows [r0, r1) of the node's stacked output matrices (block BM), with thread `tid`'s Row scratch. */
  qs8_bmm_run(params: number, lhs: number, output: number, r0: number, r1: number, tid: number): void;
  /** int16 BATCH_MATMUL over rows [r0, r1) of the node's stacked output matrices (block BM), with thread `tid`'s Row scratch. */
  qs16_bmm_run(params: number, lhs: number, output: number, r0: number, r1: number, tid: number): void;
  /** SVDF, int8 input and output, int16 or int8 state (updated in place); bias read only with SV.HasBias. */
  qs8_svdf(params: number, input: number, time: number, bias: number, state: number, output: number): void;
  /** int8 / uint8 MEAN, SUM, REDUCE_MAX or REDUCE_MIN over the loops of parameter block RD (kernel-support's reduceLoops). */
  qs8_reduce(params: number, input: number, output: number): void;
  /** int8 / uint8 TRANSPOSE_CONV over output rows [oh0, oh1) of every batch (block TQ), with thread `tid`'s Tmp. */
  qs8_tconv_run(params: number, input: number, output: number, oh0: number, oh1: number, tid: number): void;
  /** 16x8 TRANSPOSE_CONV over output rows [oh0, oh1) of every batch (block TQ), with thread `tid`'s Tmp. */
  qs16_tconv_run(params: number, input: number, output: number, oh0: number, oh1: number, tid: number): void;
  /** 16x8 CONV_2D / FULLY_CONNECTED over output pixels [q0, q1) (block C16), with thread `tid`'s im2col rows. */
  qs16_conv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
  /** 16x8 DEPTHWISE_CONV_2D over output pixels [q0, q1) (block C16), after qs16_dw_expand when Dm > 1. */
  qs16_dwconv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
  /** 16x8 DEPTHWISE_CONV_2D with a depth multiplier > 1: the input with every channel repeated Dm times, into Scratch. */
  qs16_dw_expand(params: number, input: number): void;
  qs8_softmax(params: number, input: number, output: number): void;
  qu8_softmax(params: number, input: number, output: number): void;
  quantize_f32_s8(params: number, input: number, output: number): void;
  /** QUANTIZE between integer types (block Z: the element sizes, uint8 flags, multiplier and zero points). */
  requantize_int(params: number, input: number, output: number): void;
  dequantize_s8_f32(params: number, input: number, output: number): void;
  qs8_maxpool(params: number, input: number, output: number): void;
  qs8_resize_bilinear(params: number, input: number, output: number): void;
  qs16_resize_bilinear(params: number, input: number, output: number): void;
  qu8_resize_bilinear(params: number, input: number, output: number): void;
  resize_nearest_bytes(params: number, input: number, output: number): void;
  /** output[i] = table[input[i]] for `count` bytes (a 256-byte table). */
  lut_bytes(table: number, input: number, output: number, count: number): void;
  /** int8 RSQRT: lut_bytes after a scan for inputs below `zp`; -1, or the index of the first such input (nothing written). */
  qs8_rsqrt(table: number, input: number, output: number, count: number, zp: number): number;
  /** int8 / uint8 PRELU (block PR). */
  qs8_prelu(params: number, input: number, alpha: number, output: number): void;
  /** int8 / int16 SQUARED_DIFFERENCE (block SD). */
  qs_squared_difference(params: number, input1: number, input2: number, output: number): void;
  /** int16 LOGISTIC of `count` values: the packed sigmoid table (1024 bytes), TFLM's eval multiplier (<= 32767) and shift. */
  qs16_logistic(table: number, input: number, output: number, count: number, multiplier: number, shift: number): void;
  /** int16 TANH of `count` values, as qs16_logistic. */
  qs16_tanh(table: number, input: number, output: number, count: number, multiplier: number, shift: number): void;
  /** Hybrid layers: the int32 accumulators of output pixels [q0, q1) at `output` to float32 outputs, in place (block HY). */
  hybrid_epilogue(params: number, output: number, q0: number, q1: number): void;
  /** TFLite's BatchQuantizeFloats of `batches` rows of `size` float32 values into int8 rows, factors and zero points (the float32 weight scale at `foldAt` folded in when `foldAt` is not 0). */
  hybrid_quantize(
    input: number,
    batches: number,
    size: number,
    output: number,
    factors: number,
    zeroPoints: number,
    asymmetric: number,
    foldAt: number,
  ): void;
  /** Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM: one time step of every batch (block LH; the states updated in place). */
  hybrid_lstm_step(params: number, input: number, outputState: number, cellState: number, output: number): void;
  /**
   * Hybrid SVDF after its feature GEMM (block SV): the state shifted, the `features` (float32, batch-major;
   * zeros when `hasFeatures` is 0) into its newest column, the time matmul, bias and rank sums into `output`.
   */
  hybrid_svdf(params: number, features: number, hasFeatures: number, time: number, bias: number, state: number, output: number): void;
  /**
   * int8 UNIDIRECTIONAL_SEQUENCE_LSTM: every time step of every batch (block LQ; the states updated in
   * place), `table` the packed int16 sigmoid table, `scratch` four int16 gate buffers.
   */
  qs8_lstm(params: number, input: number, hidden: number, cell: number, output: number, table: number, scratch: number): void;
}

/** The engine cannot run the ops-wasm module (no WebAssembly, or no SIMD128). */
export class WasmUnsupportedError extends MicrortError {
  constructor(detail: string) {
    super(`@micrort/ops-wasm cannot run here: ${detail}. Use ops-reference or ops-simd instead (e.g. \`--ops simd\`).`);
    this.name = 'WasmUnsupportedError';
  }
}

/** A module that only uses SIMD128 (`i32x4.splat`, `i32x4.dot_i16x8_s`): validates iff the engine has it. */
const SIMD_PROBE: Uint8Array<ArrayBuffer> = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // one function of type 0
  0x0a,
  0x0f,
  0x01,
  0x0d,
  0x00, // code: one body of 13 bytes, no locals
  0x41,
  0x01,
  0xfd,
  0x11, // i32.const 1; i32x4.splat
  0x41,
  0x02,
  0xfd,
  0x11, // i32.const 2; i32x4.splat
  0xfd,
  0xba,
  0x01, // i32x4.dot_i16x8_s
  0x0b, // end
]);

/** Engine features the package uses. */
export interface WasmFeatures {
  webAssembly: boolean;
  simd128: boolean;
  /** Relaxed SIMD (Chromium; Node 20 behind --experimental-wasm-relaxed-simd). */
  relaxedSimd: boolean;
}

/** Feature detection with `WebAssembly.validate` (the `validate` argument lets tests simulate an engine). */
export function detectFeatures(validate: ((bytes: Uint8Array<ArrayBuffer>) => boolean) | null = defaultValidate()): WasmFeatures {
  if (!validate) return { webAssembly: false, simd128: false, relaxedSimd: false };
  return { webAssembly: true, simd128: validate(SIMD_PROBE), relaxedSimd: hasRelaxedSimd(validate) };
}

function defaultValidate(): ((bytes: Uint8Array<ArrayBuffer>) => boolean) | null {
  const wa = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  return wa ? (bytes) => wa.validate(bytes) : null;
}

/** Throws WasmUnsupportedError unless the features include SIMD128. */
export function requireFeatures(f: WasmFeatures): void {
  if (!f.webAssembly) throw new WasmUnsupportedError('this JavaScript engine has no WebAssembly');
  if (!f.simd128)
    throw new WasmUnsupportedError(
      'this WebAssembly engine lacks SIMD128 (WebAssembly.validate refused a fixed-width SIMD probe; Node >= 16.4, Chrome >= 91, Firefox >= 89 and Safari >= 16.4 have it)',
    );
}

/**
 * The builds of the kernels module (scripts/build-wasm.mjs): `simd` (SIMD128, its own memory per
 * interpreter), `relaxed` (the same with relaxed SIMD: f32x4.relaxed_madd, and the relaxed-dot int8
 * tile where the engine's dot is exact), and each `-threads` (importing a shared memory, for workers).
 */
export type KernelsVariant = 'simd' | 'simd-threads' | 'relaxed' | 'relaxed-threads';

const VARIANT_BASE64: Record<KernelsVariant, string> = {
  simd: KERNELS_WASM_BASE64,
  'simd-threads': KERNELS_THREADS_WASM_BASE64,
  relaxed: KERNELS_RELAXED_WASM_BASE64,
  'relaxed-threads': KERNELS_RELAXED_THREADS_WASM_BASE64,
};

/** Whether a variant imports a shared memory. */
export function isSharedVariant(variant: KernelsVariant): boolean {
  return variant.endsWith('-threads');
}

/** A variant's bytes (decoded from the generated base64). */
export function kernelsWasmBytes(variant: KernelsVariant = 'simd'): Uint8Array<ArrayBuffer> {
  const bin = atob(VARIANT_BASE64[variant]);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Checks that the module has no data segment and no global (the arena starts at offset 0 of its memory,
 * so the module must not own any byte of it) and imports exactly `env.memory`.
 */
export function checkModuleLayout(bytes: Uint8Array, module: WebAssembly.Module): void {
  const imports = WebAssembly.Module.imports(module);
  if (imports.length !== 1 || imports[0]!.module !== 'env' || imports[0]!.name !== 'memory' || imports[0]!.kind !== 'memory')
    throw new MicrortError(
      `ops-wasm module must import only env.memory, imports ${imports.map((i) => `${i.module}.${i.name}`).join(', ')}`,
    );
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i++]!;
    let size = 0;
    let shift = 0;
    let b: number;
    do {
      b = bytes[i++]!;
      size |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    if (id === 6 || id === 11)
      throw new MicrortError(`ops-wasm module has a ${id === 6 ? 'global' : 'data'} section: it would own memory the arena uses`);
    i += size;
  }
}

/**
 * Checks that `module` was built with the ABI this package writes (scripts/abi.mjs): its `abi_hash()`
 * export must equal src/generated/abi.ts's ABI_HASH, so parameter blocks are read where they are written.
 */
export function checkModuleAbi(module: WebAssembly.Module, expected: number = ABI_HASH, shared = false): void {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared });
  const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as { abi_hash?: () => number };
  const got = typeof exports.abi_hash === 'function' ? exports.abi_hash() : null;
  if (got !== expected)
    throw new MicrortError(
      `ops-wasm module was built with another ABI (abi_hash ${got ?? 'missing'}, the package writes ${expected}): rebuild it with \`pnpm build\``,
    );
}

/** Compiled builds, once per realm (a compiled module is immutable and shareable). */
const compiled = new Map<KernelsVariant, WebAssembly.Module>();
const compiling = new Map<KernelsVariant, Promise<WebAssembly.Module>>();

/** Compiles a variant synchronously (Node, workers; browsers refuse it on the main thread); once per realm. */
export function compileKernelsSync(variant: KernelsVariant = 'simd'): WebAssembly.Module {
  const done = compiled.get(variant);
  if (done) return done;
  const bytes = kernelsWasmBytes(variant);
  const module = new WebAssembly.Module(bytes);
  checkModuleLayout(bytes, module);
  checkModuleAbi(module, ABI_HASH, isSharedVariant(variant));
  compiled.set(variant, module);
  return module;
}

/** Compiles a variant asynchronously (everywhere); once per realm. */
export async function compileKernels(variant: KernelsVariant = 'simd'): Promise<WebAssembly.Module> {
  const done = compiled.get(variant);
  if (done) return done;
  let pending = compiling.get(variant);
  if (!pending) {
    pending = (async () => {
      const bytes = kernelsWasmBytes(variant);
      const module = await WebAssembly.compile(bytes);
      checkModuleLayout(bytes, module);
      checkModuleAbi(module, ABI_HASH, isSharedVariant(variant));
      compiled.set(variant, module);
      return module;
    })();
    compiling.set(variant, pending);
    pending.catch(() => compiling.delete(variant));
  }
  return pending;
}
