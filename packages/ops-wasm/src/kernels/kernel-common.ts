/**
 * What the ops-wasm kernels share beyond @micrort/kernel-support's prepare math (padding, requantization
 * parameters, checks): what `supports()` declines for the weighted int8 ops, the requantization blocks
 * and the windowed parameter block the wasm kernels read, the copies of constant inputs into the
 * WebAssembly memory, and the checks and in-place rule of the one-input elementwise ops.
 */
import { TensorType, sameShape, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { INT8_ONLY, declineArity, declineAsymmetric, declineType } from '@micrort/kernel-support';
import { GEMM_TILE_PIXELS, RQ, RQ_BYTES, W, W_BYTES } from '../generated/abi.js';
export { GEMM_TILE_PIXELS };

/** Bytes of one requantization block (RQ in scripts/abi.mjs, read by assembly/int8/requant.ts): four i32x4 for four channels. */
export { RQ_BYTES };
/** Words of one requantization block. */
export const RQ_WORDS = RQ.Words;

/** The activation types of the weighted kernels: int8, and TFLite's uint8 (asymmetric weights). */
export const INT8_OR_UINT8: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];

/**
 * Why a weighted op's tensors are not handled, or null (for `supports()`): int8 input, filter and output
 * with symmetric filters, or TFLite's uint8 (input, filter and output uint8, per-tensor quantized, any
 * zero points); a constant filter and a constant int32 bias.
 */
export function declineWeighted(input: Tensor, filter: Tensor, bias: Tensor | null, output: Tensor): string | null {
  const why = declineType('input', input, INT8_OR_UINT8);
  if (why) return why;
  const same = input.type === TensorType.UINT8 ? [TensorType.UINT8] : INT8_ONLY;
  const other = declineType('output', output, same) ?? declineType('filter', filter, same);
  if (other) return other;
  if (!filter.isConstant) return 'filter is not a constant (weights are packed at prepare)';
  if (bias && (bias.type !== TensorType.INT32 || !bias.isConstant)) return 'bias is not a constant int32 tensor';
  if (input.type === TensorType.UINT8)
    return (filter.quantization?.scale.length ?? 0) > 1 ? 'per-channel uint8 filter (handles per-tensor)' : null;
  return declineAsymmetric('filter', filter);
}

/** The largest right shift the cheaper int8 requantization (requantLanesRight in assembly/int8/requant.ts) takes. */
export const RIGHT_ONLY_MAX_SHIFT = 19;

/** The int8 output range requantLanesRight clamps to: output zero point and activation bounds. */
export interface Int8OutputRange {
  zeroPoint: number;
  actMin: number;
  actMax: number;
}

/**
 * `out` when every channel of a layer with int8 outputs can take requantLanesRight, else null: left shift
 * 0, a right shift of 1 to RIGHT_ONLY_MAX_SHIFT (TFLM's `shift` -1 to -19) and a multiplier of at least
 * 2^30 (TFLM's QuantizeMultiplier gives 2^30 <= M < 2^31 for every nonzero scale); see
 * assembly/int8/requant.ts for why it is exact then. Pass the result to the packing (it selects the
 * requantization blocks' layout) and set W.RightOnly from it.
 */
export function rightOnlyRange(multiplier: Int32Array, shift: Int32Array, out: Int8OutputRange): Int8OutputRange | null {
  return shift.every((s) => s <= -1 && s >= -RIGHT_ONLY_MAX_SHIFT) && multiplier.every((m) => m >= 2 ** 30) ? out : null;
}

/**
 * Writes the requantization block of the general path (M, 2^left, 2^(31-r) (0 for r = 0) and the r = 0
 * mask, see assembly/int8/requant.ts) of channels `c0 … c0+3` at word `at` of `dst` (channels >= `count`
 * get zeros).
 */
export function writeRequantBlock(dst: Int32Array, at: number, c0: number, count: number, multiplier: Int32Array, shift: Int32Array): void {
  for (let j = 0; j < 4; j++) {
    const c = c0 + j;
    if (c >= count) {
      for (let k = 0; k < RQ.Words; k += 4) dst[at + k + j] = 0;
      continue;
    }
    const s = shift[c]!;
    const left = s > 0 ? s : 0;
    const r = s > 0 ? 0 : -s;
    dst[at + RQ.M + j] = multiplier[c]!;
    dst[at + RQ.Left + j] = 1 << left;
    dst[at + RQ.Right + j] = r === 0 ? 0 : 2 ** (31 - r);
    dst[at + RQ.RZero + j] = r === 0 ? -1 : 0;
  }
}

/** The words of the parameter block shared by the windowed kernels (W in scripts/abi.mjs, read by assembly/int8/window.ts). */
export { W };

/** Bytes of the windowed kernels' parameter block. */
export const WINDOW_PARAMS_BYTES = W_BYTES;

/**
 * The geometry and output words of a windowed kernel's parameter block. FULLY_CONNECTED and the LSTM
 * gates are 1x1 windows over one row of `inW` pixels, so window, stride, dilation and padding default to
 * 1, 1, 1 and 0.
 */
export interface WindowShape {
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  outH: number;
  outW: number;
  outC: number;
  kH?: number;
  kW?: number;
  strideH?: number;
  strideW?: number;
  dilH?: number;
  dilW?: number;
  padH?: number;
  padW?: number;
  actMin: number;
  actMax: number;
  zpOut?: number;
}

/**
 * Clears a windowed kernel's parameter block and writes its geometry and output words (W.Total to
 * W.PadW, W.ActMin, W.ActMax, W.ZpOut); the caller adds the words of its kernel (packing, buffers, flags).
 */
export function writeWindowParams(p: Int32Array, s: WindowShape): void {
  p.fill(0, 0, W.Words);
  p[W.Total] = s.batches * s.outH * s.outW;
  p[W.OutHW] = s.outH * s.outW;
  p[W.OutW] = s.outW;
  p[W.InH] = s.inH;
  p[W.InW] = s.inW;
  p[W.InC] = s.inC;
  p[W.InImage] = s.inH * s.inW * s.inC;
  p[W.OutC] = s.outC;
  p[W.KH] = s.kH ?? 1;
  p[W.KW] = s.kW ?? 1;
  p[W.StrideH] = s.strideH ?? 1;
  p[W.StrideW] = s.strideW ?? 1;
  p[W.DilH] = s.dilH ?? 1;
  p[W.DilW] = s.dilW ?? 1;
  p[W.PadH] = s.padH ?? 0;
  p[W.PadW] = s.padW ?? 0;
  p[W.ActMin] = s.actMin;
  p[W.ActMax] = s.actMax;
  p[W.ZpOut] = s.zpOut ?? 0;
}

/**
 * Constant inputs live in the model's bytes, outside the WebAssembly memory the kernels address. For
 * each input position in `positions`: when the tensor is a constant, copies its bytes once (now, at
 * prepare) into a persistent arena buffer and returns that buffer's offset; else -1, meaning "the eval
 * tensor's offset at invoke". Counted in the arena report like packed weights.
 */
export function constantInputCopies(context: TfLiteContext, node: Node, positions: readonly number[]): Int32Array {
  const out = new Int32Array(positions.length).fill(-1);
  positions.forEach((pos, i) => {
    const t = context.getTensor(node.inputs[pos]!);
    if (!t.isConstant) return;
    const region = context.allocatePersistentBuffer(t.byteLength);
    region.u8.set(t.bytes);
    out[i] = region.offset;
  });
  return out;
}

/** The offset of input `pos` at invoke: its constant copy (`fixed >= 0`) or the eval tensor's bytes. */
export function inputOffset(context: TfLiteContext, node: Node, pos: number, fixed: number): number {
  return fixed >= 0 ? fixed : context.getEvalTensor(node.inputs[pos]!).data.byteOffset;
}

/**
 * Bytes of the scratch qs8_conv's tile needs: GEMM_TILE_PIXELS rows of `slices` sign-extended 8-value
 * slices, each stored twice (32 bytes) so its rotations are plain loads.
 */
export function extScratchBytes(slices: number): number {
  return GEMM_TILE_PIXELS * slices * 32 + 16; // + 16: the kernel aligns the rows to 32 bytes
}

/**
 * `supports()`'s checks of a quantized one-input, one-output elementwise node: its input and output, or
 * the reason to decline it (the arity; types `accepts` refuses, `handles` saying what the kernel takes;
 * an input or output without quantization).
 */
export function quantizedUnaryTensors(
  context: TfLiteContext,
  node: Node,
  accepts: (input: TensorType, output: TensorType) => boolean,
  handles: string,
): { input: Tensor; output: Tensor } | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!accepts(input.type, output.type)) return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles ${handles})`;
  if (!input.quantization || !output.quantization) return 'input or output not quantized';
  return { input, output };
}

/**
 * `inPlace` of a one-input elementwise node whose kernel reads every element before writing it: the
 * output may take the input's memory when their shapes are equal.
 */
export function elementwiseInPlace(context: TfLiteContext, node: Node): readonly number[] | null {
  return sameShape(context.getTensor(node.inputs[0]!).dims, context.getTensor(node.outputs[0]!).dims) ? [0] : null;
}
