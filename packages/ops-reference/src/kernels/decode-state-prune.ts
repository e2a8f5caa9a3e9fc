/**
 * TFLM_DECODE's prune decoder (TFLM kernels/decode_state_prune.cc): a bitmap (one bit per output
 * element, most significant bit first) says which elements were kept; kept elements take the next value
 * of the table, in order, and pruned ones the zero point. An int8 output with per-channel quantization
 * uses each channel's zero point (channels on axis 0, or interleaved on the last axis); every other
 * output uses the first zero point, which TFLM requires to be 0 for non-int8 types. bool outputs copy
 * bytes and float32 outputs copy 32-bit words, as TFLM does (a pruned float is +0.0).
 *
 * Prune metadata: DCM byte 4 the prune version (1); the kept values follow at byte 16 in the output type.
 * Prepare counts the kept elements (the bitmap is constant) and refuses a table that is too short.
 */
import { KernelError, TensorType, numElements, type EvalTensor, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { DCM_BYTES, Int32ViewCache, OP, channelLayout, outputElementSize, tableView, type DecodeState } from './decode-common.js';

const TYPES: readonly TensorType[] = [
  TensorType.BOOL,
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
];
/** sizeof(DecodeStatePrune) on x86-64 (TFLM allocates it persistently per output). */
const TFLM_STATE_BYTES = 80;

export class DecodeStatePrune implements DecodeState {
  private readonly bitmap: Uint8Array;
  private readonly table: Uint8Array | Uint16Array | Int32Array;
  private readonly elementBytes: number;
  private readonly count: number;
  private readonly numChannels: number;
  private readonly alternateAxis: boolean;
  private readonly elementsPerChannel: number;
  /** Per-channel zero points (int8 outputs with more than one channel), else null. */
  private readonly zeroPoints: Int8Array | null;
  /** The zero point of every pruned element when `zeroPoints` is null (raw element bits for int8). */
  private readonly singleZeroPoint: number;
  private readonly out32 = new Int32ViewCache();

  constructor(context: TfLiteContext, node: Node, input: Tensor, ancillary: Tensor, output: Tensor) {
    const anc = ancillary.bytes;
    context.allocatePersistentBuffer(TFLM_STATE_BYTES);
    if (anc[4] !== 1)
      throw new KernelError(OP, node.index, `ancillary tensor ${ancillary.index}: prune version ${anc[4]} is not supported (1 is)`);
    this.elementBytes = outputElementSize(node, output, TYPES, 'prune');
    this.count = numElements(output.dims);
    const layout = channelLayout(node, output, this.count);
    this.numChannels = layout.numChannels;
    this.alternateAxis = layout.alternateAxis;
    this.elementsPerChannel = layout.elementsPerChannel;
    const q = output.quantization;
    let zeroPoints: Int8Array | null = null;
    let single = 0;
    if (q && q.scale.length > 0) {
      if (this.numChannels > 1 && output.type === TensorType.INT8) {
        if (q.zeroPoint.length !== this.numChannels)
          throw new KernelError(
            OP,
            node.index,
            `output (tensor ${output.index}) has ${q.zeroPoint.length} zero points for ${this.numChannels} channels`,
          );
        const region = context.allocatePersistentBuffer(this.numChannels);
        zeroPoints = region.i8.subarray(0, this.numChannels);
        for (let c = 0; c < this.numChannels; c++) zeroPoints[c] = q.zeroPoint[c]!;
      } else {
        single = q.zeroPoint[0] ?? 0;
        if (output.type !== TensorType.INT8 && single !== 0)
          throw new KernelError(
            OP,
            node.index,
            `output (tensor ${output.index}): zero-point is not 0 (${single}); TFLM prunes non-int8 tensors to 0 only`,
          );
      }
    }
    this.zeroPoints = zeroPoints;
    this.singleZeroPoint = single;
    this.bitmap = input.bytes;
    const needBytes = Math.ceil(this.count / 8);
    if (this.bitmap.length < needBytes)
      throw new KernelError(
        OP,
        node.index,
        `encoded tensor ${input.index} has ${this.bitmap.length} bytes; a bitmap of ${this.count} elements needs ${needBytes}`,
      );
    let kept = 0;
    for (let i = 0; i < this.count; i++) kept += (this.bitmap[i >>> 3]! >>> (~i & 7)) & 1;
    const tableEntries = Math.floor((anc.length - DCM_BYTES) / this.elementBytes);
    if (kept > tableEntries)
      throw new KernelError(OP, node.index, `ancillary tensor ${ancillary.index} holds ${tableEntries} values; the bitmap keeps ${kept}`);
    this.table = tableView(context, anc, DCM_BYTES, kept, this.elementBytes);
  }

  decode(output: EvalTensor): void {
    const count = this.count;
    const bitmap = this.bitmap;
    const eb = this.elementBytes;
    const zps = this.zeroPoints;
    if (eb === 1) {
      const out = output.bytes;
      const table = this.table as Uint8Array;
      if (zps !== null) {
        const nc = this.numChannels;
        const alt = this.alternateAxis;
        const epc = this.elementsPerChannel;
        for (let i = 0, v = 0, channel = 0, left = epc; i < count; i++) {
          out[i] = (bitmap[i >>> 3]! >>> (~i & 7)) & 1 ? table[v++]! : zps[channel]!;
          if (alt) {
            if (++channel === nc) channel = 0;
          } else if (--left === 0) {
            left = epc;
            channel++;
          }
        }
      } else {
        const zp = this.singleZeroPoint;
        for (let i = 0, v = 0; i < count; i++) out[i] = (bitmap[i >>> 3]! >>> (~i & 7)) & 1 ? table[v++]! : zp;
      }
    } else if (eb === 2) {
      const out = output.data as Int16Array;
      const table = this.table as Uint16Array;
      const zp = this.singleZeroPoint;
      for (let i = 0, v = 0; i < count; i++) out[i] = (bitmap[i >>> 3]! >>> (~i & 7)) & 1 ? table[v++]! : zp;
    } else {
      const out = this.out32.of(output);
      const table = this.table as Int32Array;
      const zp = this.singleZeroPoint;
      if (eb === 4) {
        for (let i = 0, v = 0; i < count; i++) out[i] = (bitmap[i >>> 3]! >>> (~i & 7)) & 1 ? table[v++]! : zp;
      } else {
        for (let i = 0, v = 0; i < count; i++) {
          if ((bitmap[i >>> 3]! >>> (~i & 7)) & 1) {
            out[2 * i] = table[2 * v]!;
            out[2 * i + 1] = table[2 * v + 1]!;
            v++;
          } else {
            out[2 * i] = zp;
            out[2 * i + 1] = 0;
          }
        }
      }
    }
  }
}
