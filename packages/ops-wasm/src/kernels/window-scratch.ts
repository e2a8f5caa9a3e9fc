/**
 * What the windowed int8 kernels (qs8_conv, qs8_dwconv; assembly/int8/window.ts) keep outside their
 * persistent data: one scratch buffer per node (planned memory, shared with other nodes' buffers) that
 * the kernel's prologue fills at each invoke — the requantization blocks, expanded from TFLM's own
 * per-channel multipliers and shifts, and the row of input zero points that taps in the padding read —
 * and, per thread, the tap pointers, gathered rows and sign-extended rows of the pixels it computes.
 * So a node's persistent memory is its parameter block, the packed int8 weights with the folded biases,
 * and TFLM's per-channel arrays, as in TFLM.
 */
import type { TfLiteContext } from '@micrort/core';
import { RQ_BYTES, W } from './kernel-common.js';
import { threadSlotBytes, threadSlots } from './parallel.js';

/** The pieces of a windowed node's scratch buffer, in bytes. */
export interface WindowScratch {
  /** Output channels: one requantization block per four is expanded at each invoke. */
  channels: number;
  /** Bytes of the zero row (0 when no tap can fall in the padding). */
  zeroBytes: number;
  /** Per thread: tap-pointer tables. */
  ptrBytes: number;
  /** Per thread: gathered im2col rows (qs8_conv with W.Gather). */
  rowBytes?: number;
  /** Per thread: sign-extended rows (qs8_conv's tile). */
  extBytes?: number;
  /** Threads that run the node's pixels (default 1): each gets its own area, on pages of its own (parallel.ts's threadSlots). */
  threads?: number;
  /**
   * Every channel has the same multiplier and shift (`multiplier` and `shift` hold one each, see
   * {@link sharedMultiplier}): one requantization block for all of them (W.RqStride 0).
   */
  shared?: boolean;
}

/**
 * One multiplier and shift for every channel of a per-tensor quantized layer, in one persistent buffer (8
 * bytes, where per-channel arrays take 8 per channel); pass `shared: true` to {@link requestWindowScratch}.
 */
export function sharedMultiplier(context: TfLiteContext, multiplier: number, shift: number): { multiplier: Int32Array; shift: Int32Array } {
  const words = context.allocatePersistentBuffer(8).i32;
  words[0] = multiplier;
  words[1] = shift;
  return { multiplier: words.subarray(0, 1), shift: words.subarray(1, 2) };
}

const align32 = (n: number): number => (n + 31) & ~31;

/**
 * Points the requantization at TFLM's per-channel `multiplier` and `shift` arrays (arena views, one per
 * output channel, or one for all with `s.shared`) and lays out the scratch buffer (W.ExpandRq, W.RqStride, W.ZeroBytes, W.ScrZero,
 * W.ScrThread, W.ScrThreadBytes, W.ThreadRows, W.ThreadExt). Returns the scratch buffer's index: bind it
 * at each invoke with {@link bindWindowScratch}.
 */
export function requestWindowScratch(
  context: TfLiteContext,
  p: Int32Array,
  multiplier: Int32Array,
  shift: Int32Array,
  s: WindowScratch,
): number {
  const rqBytes = s.shared ? RQ_BYTES : ((s.channels + 3) >> 2) * RQ_BYTES;
  p[W.Mult] = multiplier.byteOffset;
  p[W.Shift] = shift.byteOffset;
  p[W.ExpandRq] = 1;
  p[W.RqStride] = s.shared ? 0 : RQ_BYTES;
  p[W.ZeroBytes] = s.zeroBytes;
  p[W.ScrZero] = rqBytes;
  const thread = align32(rqBytes + s.zeroBytes);
  const ptr = align32(s.ptrBytes);
  const rows = align32(s.rowBytes ?? 0);
  p[W.ThreadRows] = ptr;
  p[W.ThreadExt] = ptr + rows;
  const used = align32(ptr + rows + (s.extBytes ?? 0));
  const threads = s.threads ?? 1;
  // several threads: areas on pages of their own (one thread: as packed as before; only thread 0's area exists)
  const slots = threadSlots(used, threads);
  p[W.ScrThread] = thread + slots.lead;
  p[W.ScrThreadBytes] = threadSlotBytes(used);
  return context.requestScratchBufferInArena(thread + slots.bytes);
}

/** At invoke: the node's scratch buffer (planned memory, placed once the arena is planned) into W.Scratch. */
export function bindWindowScratch(context: TfLiteContext, p: Int32Array, index: number): void {
  p[W.Scratch] = context.getScratchBuffer(index).offset;
}
