/**
 * Shared parts of TFLM_DECODE (TFLM kernels/decode.cc, decode_state*.cc): the Decode Common Metadata
 * (DCM) header of an ancillary tensor, the output's channel layout, aligned element views of constant
 * tables, and a cached int32 view of an output tensor (float32 and int64 outputs are written as raw
 * 32-bit words, so no float conversion and no BigInt is involved).
 *
 * An ancillary tensor (uint8, constant) starts with a 16-byte DCM: byte 0 the decode type (0 LUT,
 * 1 Huffman, 2 prune, 127 custom), byte 1 the DCM version (1); bytes 4.. are the type's own metadata
 * (its version at byte 4). The type's tables follow from byte 16, in the output's element type (LUT,
 * prune) or as 16/32-bit Huffman table entries, in host (little-endian) byte order.
 */
import {
  KernelError,
  TensorType,
  elementSize,
  tensorTypeName,
  type ArenaRegion,
  type EvalTensor,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

export const OP = 'TFLM_DECODE';

/** DCM decode types. */
export const enum DcmType {
  LUT = 0,
  HUFFMAN = 1,
  PRUNE = 2,
  CUSTOM = 127,
}

/** Size of the DCM header; tables start here. */
export const DCM_BYTES = 16;

/** A prepared decoder of one (encoded, ancillary) -> output triple. */
export interface DecodeState {
  /** Writes the decoded values into `output` (the eval tensor of the node's output). Allocates nothing. */
  decode(output: EvalTensor): void;
}

/** The output's channels as TFLM's decoders see them (from its affine quantization). */
export interface ChannelLayout {
  /** Number of channels (scales); 1 without quantization. */
  numChannels: number;
  /** Channels along the last axis (quantized_dimension == rank - 1 with > 1 channels); else the first. */
  alternateAxis: boolean;
  /** Elements per channel: 1 on the alternate axis, else count / numChannels. */
  elementsPerChannel: number;
}

/**
 * TFLM's channel resolution (DecodeStateLut/Prune::Setup): channels from the number of scales; the last
 * axis when quantized_dimension is the last dimension and there is more than one channel; otherwise the
 * quantized dimension must be 0. The element count must split evenly into the channels (TFLM would
 * leave a remainder undecoded, or loop past the end on the last axis).
 */
export function channelLayout(node: Node, output: Tensor, count: number): ChannelLayout {
  const q = output.quantization;
  let numChannels = 1;
  let alternateAxis = false;
  if (q && q.scale.length > 0) {
    numChannels = q.scale.length;
    if (q.quantizedDimension === output.dims.length - 1 && numChannels > 1) alternateAxis = true;
    else if (q.quantizedDimension !== 0)
      throw new KernelError(
        OP,
        node.index,
        `output (tensor ${output.index}): unsupported quantization axis ${q.quantizedDimension} (TFLM decodes channels on axis 0 or on the last axis)`,
      );
  }
  if (count % numChannels !== 0)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) has ${count} elements, not a multiple of its ${numChannels} channels`,
    );
  return { numChannels, alternateAxis, elementsPerChannel: alternateAxis ? 1 : count / numChannels };
}

/** Element size of an output type the decoders write, or a KernelError naming the type. */
export function outputElementSize(node: Node, output: Tensor, types: readonly TensorType[], what: string): number {
  if (!types.includes(output.type))
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) has type ${tensorTypeName(output.type)}; ${what} decodes ${types.map(tensorTypeName).join(', ')}`,
    );
  return elementSize(output.type)!;
}

/**
 * The table of `count` elements of `bytesPerElement` bytes that starts at `byteOffset` of a constant
 * tensor, as Uint8Array (1), Uint16Array (2) or Int32Array (4, and 8 as word pairs: raw bits, read as
 * int32 so no value is boxed). A zero-copy view when the bytes are aligned; otherwise a copy in a
 * persistent arena buffer (counted in the arena).
 */
export function tableView(
  context: TfLiteContext,
  bytes: Uint8Array,
  byteOffset: number,
  count: number,
  bytesPerElement: number,
): Uint8Array | Uint16Array | Int32Array {
  const start = bytes.byteOffset + byteOffset;
  const length = count * bytesPerElement;
  const unit = bytesPerElement === 1 ? 1 : bytesPerElement === 2 ? 2 : 4;
  let buffer: ArrayBufferLike = bytes.buffer;
  let at = start;
  if (start % unit !== 0) {
    const region: ArenaRegion = context.allocatePersistentBuffer(Math.max(length, 1));
    region.u8.set(bytes.subarray(byteOffset, byteOffset + length));
    buffer = region.buffer;
    at = region.offset;
  }
  if (unit === 1) return new Uint8Array(buffer, at, length);
  if (unit === 2) return new Uint16Array(buffer, at, length / 2);
  return new Int32Array(buffer, at, length / 4);
}

const EMPTY_I32 = new Int32Array(0);

/**
 * An Int32Array over an output tensor's bytes, made on first use and kept while the tensor stays bound
 * to the same memory, so `invoke()` allocates nothing after its first call.
 */
export class Int32ViewCache {
  private view: Int32Array = EMPTY_I32;

  of(t: EvalTensor): Int32Array {
    const b = t.bytes;
    let v = this.view;
    if (v.buffer !== b.buffer || v.byteOffset !== b.byteOffset || v.length !== b.byteLength >>> 2) {
      v = new Int32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
      this.view = v;
    }
    return v;
  }
}

/**
 * Index `i` of a stream of `bitWidth`-bit indices packed most significant bit first (TFLM's
 * GetNextTableIndexWidthN, bit widths 1..7: an index spans at most two bytes, and the second byte is read
 * only when the index reaches into it).
 */
export function packedIndex(bytes: Uint8Array, i: number, bitWidth: number, mask: number): number {
  const bit = i * bitWidth;
  const byte = bit >>> 3;
  const off = bit & 7;
  let v = bytes[byte]! << 8;
  if (off + bitWidth > 8) v |= bytes[byte + 1]!;
  return (v >>> (16 - off - bitWidth)) & mask;
}
