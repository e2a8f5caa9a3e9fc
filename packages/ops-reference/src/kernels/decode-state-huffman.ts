/**
 * TFLM_DECODE's Huffman decoder (TFLM kernels/decode_state_huffman.cc/.h): the encoded tensor is a bit
 * stream of codewords, read as big-endian 32-bit words; the ancillary tensor holds lookup tables of 16-
 * or 32-bit entries. Per output element: read `initial` bits (DCM byte 5, high nibble, + 1) and index the
 * first table; an entry without the "symbol" flag names a subtable (offset from the current entry) and how
 * many more bits to read (count field + 1); an entry with it is the symbol (its low byte, or low 16 bits
 * for int16 outputs), and its count field says how many of the bits read last belong to the codeword —
 * the rest are put back into the stream.
 *
 * 16-bit entries: symbol flag 0x8000, count 0x7800 (>> 11), value 0x07FF; 32-bit entries: 0x80000000,
 * 0x78000000 (>> 27), 0x07FFFFFF. DCM byte 4: the Huffman version (1); byte 5 bit 0: 32-bit entries.
 * 16-bit tables decode to int8 only; 32-bit tables to int8 or int16.
 *
 * The stream and tables are constant, so prepare runs the whole decode once and refuses a model whose
 * codewords lead outside the tables or past the end of the stream. Where the last codeword's lookups read
 * bits past the end of the stream (TFLM reads whatever memory follows; such bits are put back), this reads
 * zeros; a codeword that still ends past the end after its put-back, or a lookup that reads more than
 * 16 bits (the largest put-back) past it, is refused — table entries of 0 (no symbol, subtable offset 0)
 * read one bit at a time on the same entry and TFLM would run on through memory.
 */
import { KernelError, TensorType, numElements, type EvalTensor, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { DCM_BYTES, OP, outputElementSize, tableView, type DecodeState } from './decode-common.js';

/** sizeof(DecodeStateHuffman) on x86-64 (TFLM allocates it persistently per output). */
const TFLM_STATE_BYTES = 56;
/** The most bits a lookup reads (4-bit count field + 1), and so the most a codeword puts back. */
const MAX_LOOKUP_BITS = 16;

/** 32-bit word `k` of the stream, big-endian; bytes past the end read as 0. */
function beWord(bytes: Uint8Array, k: number): number {
  const at = 4 * k;
  const n = bytes.length;
  if (at + 3 < n) return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
  let w = 0;
  for (let j = 0; j < 4; j++) w = (w << 8) | (at + j < n ? bytes[at + j]! : 0);
  return w >>> 0;
}

export class DecodeStateHuffman implements DecodeState {
  private readonly stream: Uint8Array;
  private readonly table: Uint16Array | Int32Array;
  private readonly wide: boolean;
  private readonly initialBits: number;
  private readonly count: number;
  private readonly elementBytes: number;
  /** Entry fields: symbol flag, count mask and shift, value mask (16- or 32-bit layout). */
  private readonly symbolFound: number;
  private readonly countMask: number;
  private readonly countShift: number;
  private readonly valueMask: number;
  /** Why `run` stopped at an element (prepare's dry run): `table`, or `stream` (past its end). */
  private stop: 'table' | 'stream' = 'table';

  constructor(context: TfLiteContext, node: Node, input: Tensor, ancillary: Tensor, output: Tensor) {
    const anc = ancillary.bytes;
    context.allocatePersistentBuffer(TFLM_STATE_BYTES);
    if (anc[4] !== 1)
      throw new KernelError(OP, node.index, `ancillary tensor ${ancillary.index}: Huffman version ${anc[4]} is not supported (1 is)`);
    this.wide = (anc[5]! & 0x01) !== 0;
    this.initialBits = ((anc[5]! & 0xf0) >> 4) + 1;
    this.symbolFound = this.wide ? 0x80000000 : 0x8000;
    this.countMask = this.wide ? 0x78000000 : 0x7800;
    this.countShift = this.wide ? 27 : 11;
    this.valueMask = this.wide ? 0x07ffffff : 0x07ff;
    this.elementBytes = outputElementSize(
      node,
      output,
      this.wide ? [TensorType.INT8, TensorType.INT16] : [TensorType.INT8],
      this.wide ? 'Huffman with 32-bit tables' : 'Huffman with 16-bit tables',
    );
    this.count = numElements(output.dims);
    this.stream = input.bytes;
    const entryBytes = this.wide ? 4 : 2;
    const entries = Math.floor((anc.length - DCM_BYTES) / entryBytes);
    this.table = tableView(context, anc, DCM_BYTES, entries, entryBytes) as Uint16Array | Int32Array;
    const bad = this.run(null);
    if (bad >= 0 && this.stop === 'stream')
      throw new KernelError(
        OP,
        node.index,
        `input tensor ${input.index}: the codeword of element ${bad} of ${this.count} runs past the end of the ${this.stream.length}-byte Huffman stream (${8 * this.stream.length} bits)`,
      );
    if (bad >= 0)
      throw new KernelError(
        OP,
        node.index,
        `ancillary tensor ${ancillary.index}: the codewords of element ${bad} lead outside its ${entries} Huffman table entries`,
      );
  }

  decode(output: EvalTensor): void {
    this.run(this.elementBytes === 1 ? output.bytes : (output.data as Int16Array));
  }

  /**
   * Decodes every element into `out` (null: prepare's dry run, checking every table index and the
   * stream's end). Returns the first element whose lookup leaves the tables (`stop` 'table') or the
   * stream (`stop` 'stream'), or -1.
   */
  private run(out: Uint8Array | Int16Array | null): number {
    const stream = this.stream;
    const table = this.table;
    const entries = table.length;
    const symbolFound = this.symbolFound;
    const countMask = this.countMask;
    const countShift = this.countShift;
    const valueMask = this.valueMask;
    const initial = this.initialBits;
    // the stream's bits; a lookup may read up to MAX_LOOKUP_BITS past them (put back), a codeword may not end past them
    const streamBits = 8 * stream.length;
    // bit-stream state (TFLM's head_offset, head_hold, head_next)
    let offset = 32;
    let hold = this.count > 0 ? beWord(stream, 0) : 0;
    let next = 1;
    for (let e = 0; e < this.count; e++) {
      let used = initial;
      // GetNextBits(used)
      let bits = 0;
      let need = used;
      if (need > offset) {
        bits = (hold & ((1 << offset) - 1)) << (need - offset);
        need -= offset;
        hold = beWord(stream, next++);
        offset = 32;
      }
      bits |= (hold >>> (offset - need)) & ((1 << need) - 1);
      offset -= need;
      let at = bits;
      if (32 * next - offset > streamBits + MAX_LOOKUP_BITS) return this.stopAt(e, 'stream');
      if (at >= entries) return this.stopAt(e, 'table');
      let value = table[at]!;
      while ((value & symbolFound) === 0) {
        used = ((value & countMask) >>> countShift) + 1;
        bits = 0;
        need = used;
        if (need > offset) {
          bits = (hold & ((1 << offset) - 1)) << (need - offset);
          need -= offset;
          hold = beWord(stream, next++);
          offset = 32;
        }
        bits |= (hold >>> (offset - need)) & ((1 << need) - 1);
        offset -= need;
        at += (value & valueMask) + bits;
        if (32 * next - offset > streamBits + MAX_LOOKUP_BITS) return this.stopAt(e, 'stream');
        if (at >= entries) return this.stopAt(e, 'table');
        value = table[at]!;
      }
      if (out !== null) out[e] = value;
      const residual = (value & countMask) >>> countShift;
      if (used > residual) {
        // PutBackBits(used - residual)
        offset += used - residual;
        if (offset > 32) {
          offset -= 32;
          next--;
          hold = beWord(stream, next - 1);
        }
      }
      if (32 * next - offset > streamBits) return this.stopAt(e, 'stream');
    }
    return -1;
  }

  private stopAt(element: number, why: 'table' | 'stream'): number {
    this.stop = why;
    return element;
  }
}
