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
  /** Threads that run the node's pixels (default 1): each gets its own area. */
  threads?: number;
}

const align32 = (n: number): number => (n + 31) & ~31;

/**
 * Points the requantization at TFLM's per-channel `multiplier` and `shift` arrays (arena views, one per
 * output channel) and lays out the scratch buffer (W.ExpandRq, W.RqStride, W.ZeroBytes, W.ScrZero,
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
  const rqBytes = ((s.channels + 3) >> 2) * RQ_BYTES;
  p[W.Mult] = multiplier.byteOffset;
  p[W.Shift] = shift.byteOffset;
  p[W.ExpandRq] = 1;
  p[W.RqStride] = RQ_BYTES;
  p[W.ZeroBytes] = s.zeroBytes;
  p[W.ScrZero] = rqBytes;
  const thread = align32(rqBytes + s.zeroBytes);
  const ptr = align32(s.ptrBytes);
  const rows = align32(s.rowBytes ?? 0);
  p[W.ScrThread] = thread;
  p[W.ThreadRows] = ptr;
  p[W.ThreadExt] = ptr + rows;
  const per = align32(ptr + rows + (s.extBytes ?? 0));
  p[W.ScrThreadBytes] = per;
  return context.requestScratchBufferInArena(thread + per * (s.threads ?? 1));
}

/** At invoke: the node's scratch buffer (planned memory, placed once the arena is planned) into W.Scratch. */
export function bindWindowScratch(context: TfLiteContext, p: Int32Array, index: number): void {
  p[W.Scratch] = context.getScratchBuffer(index).offset;
}
