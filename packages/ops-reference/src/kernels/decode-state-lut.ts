/**
 * TFLM_DECODE's LUT decoder (TFLM kernels/decode_state_lut.cc): every output element is a value-table
 * entry chosen by a `bit_width`-bit index (1..7 bits, packed most significant bit first in the encoded
 * tensor). Each channel has its own table of `value_table_channel_stride` entries, one after another:
 * channels along axis 0 (each a contiguous run of elements) or, with per-channel quantization on the
 * last axis, interleaved (element i belongs to channel i % channels). TFLM's faster paths for int8 with
 * 2, 3 and 4-bit indices give the same bytes as its generic one, which is what this follows.
 *
 * LUT metadata: DCM byte 4 the LUT version (1), byte 5 the bit width (low 3 bits), byte 6 the channel
 * stride; the tables follow at byte 16, in the output type (bool, int8, int16, int32, int64, float32:
 * copied as raw bytes).
 *
 * Prepare reads every index once (the encoded data are constant) and refuses a model whose indices
 * reach past the tables or whose encoded data are too short — where TFLM would read past its buffers.
 */
import { KernelError, TensorType, numElements, type EvalTensor, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  DCM_BYTES,
  Int32ViewCache,
  OP,
  channelLayout,
  outputElementSize,
  packedIndex,
  tableView,
  type DecodeState,
} from './decode-common.js';

const TYPES: readonly TensorType[] = [
  TensorType.BOOL,
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
];
/** sizeof(DecodeStateLut) on x86-64 (TFLM allocates it persistently per output). */
const TFLM_STATE_BYTES = 72;

export class DecodeStateLut implements DecodeState {
  private readonly indices: Uint8Array;
  private readonly table: Uint8Array | Uint16Array | Int32Array;
  private readonly elementBytes: number;
  private readonly count: number;
  private readonly numChannels: number;
  private readonly alternateAxis: boolean;
  private readonly elementsPerChannel: number;
  private readonly stride: number;
  private readonly bitWidth: number;
  private readonly out32 = new Int32ViewCache();

  constructor(context: TfLiteContext, node: Node, input: Tensor, ancillary: Tensor, output: Tensor) {
    const anc = ancillary.bytes;
    context.allocatePersistentBuffer(TFLM_STATE_BYTES);
    if (anc[4] !== 1)
      throw new KernelError(OP, node.index, `ancillary tensor ${ancillary.index}: LUT version ${anc[4]} is not supported (1 is)`);
    this.elementBytes = outputElementSize(node, output, TYPES, 'LUT');
    this.count = numElements(output.dims);
    const layout = channelLayout(node, output, this.count);
    this.numChannels = layout.numChannels;
    this.alternateAxis = layout.alternateAxis;
    this.elementsPerChannel = layout.elementsPerChannel;
    this.bitWidth = anc[5]! & 0x07;
    this.stride = anc[6]!;
    if (this.bitWidth === 0)
      throw new KernelError(OP, node.index, `ancillary tensor ${ancillary.index}: LUT bit width 0 (TFLM decodes 1..7 bits)`);
    this.indices = input.bytes;
    const needBytes = Math.ceil((this.count * this.bitWidth) / 8);
    if (this.indices.length < needBytes)
      throw new KernelError(
        OP,
        node.index,
        `encoded tensor ${input.index} has ${this.indices.length} bytes; ${this.count} indices of ${this.bitWidth} bits need ${needBytes}`,
      );
    const tableEntries = Math.floor((anc.length - DCM_BYTES) / this.elementBytes);
    const reach = this.maxTableReach();
    if (reach >= tableEntries)
      throw new KernelError(
        OP,
        node.index,
        `ancillary tensor ${ancillary.index} holds ${tableEntries} value-table entries; the encoded indices reach entry ${reach}`,
      );
    this.table = tableView(context, anc, DCM_BYTES, reach + 1, this.elementBytes);
  }

  /** The largest table entry any element reads (channel base + index), from the constant indices. */
  private maxTableReach(): number {
    const mask = (1 << this.bitWidth) - 1;
    let reach = -1;
    for (let i = 0; i < this.count; i++) {
      const channel = this.alternateAxis ? i % this.numChannels : Math.floor(i / this.elementsPerChannel);
      const entry = channel * this.stride + packedIndex(this.indices, i, this.bitWidth, mask);
      if (entry > reach) reach = entry;
    }
    return reach;
  }

  decode(output: EvalTensor): void {
    const count = this.count;
    const bw = this.bitWidth;
    const mask = (1 << bw) - 1;
    const indices = this.indices;
    const stride = this.stride;
    const nc = this.numChannels;
    const alt = this.alternateAxis;
    const epc = this.elementsPerChannel;
    const eb = this.elementBytes;
    if (eb === 1) {
      const out = output.bytes;
      const table = this.table as Uint8Array;
      for (let i = 0, channel = 0, left = epc, base = 0; i < count; i++) {
        out[i] = table[base + packedIndex(indices, i, bw, mask)]!;
        if (alt) {
          if (++channel === nc) channel = 0;
          base = channel * stride;
        } else if (--left === 0) {
          left = epc;
          base += stride;
        }
      }
    } else if (eb === 2) {
      const out = output.data as Int16Array;
      const table = this.table as Uint16Array;
      for (let i = 0, channel = 0, left = epc, base = 0; i < count; i++) {
        out[i] = table[base + packedIndex(indices, i, bw, mask)]!;
        if (alt) {
          if (++channel === nc) channel = 0;
          base = channel * stride;
        } else if (--left === 0) {
          left = epc;
          base += stride;
        }
      }
    } else {
      const out = this.out32.of(output);
      const table = this.table as Int32Array;
      const words = eb >> 2;
      for (let i = 0, channel = 0, left = epc, base = 0; i < count; i++) {
        const at = (base + packedIndex(indices, i, bw, mask)) * words;
        out[i * words] = table[at]!;
        if (words === 2) out[i * 2 + 1] = table[at + 1]!;
        if (alt) {
          if (++channel === nc) channel = 0;
          base = channel * stride;
        } else if (--left === 0) {
          left = epc;
          base += stride;
        }
      }
    }
  }
}
