/**
 * DEFLATE decompression (RFC 1951: stored, fixed-Huffman and dynamic-Huffman blocks), synchronous and
 * the same in Node and the browser, for the deflated entries of a model's zip archive. The output is
 * bounded by the size the archive states: a stream that would write more, ends early, or holds an
 * invalid code is a `MetadataError`, never a hang or an unbounded allocation.
 */
import { MetadataError } from './errors.js';

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
  24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code-length code lengths are stored in. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const MAX_BITS = 15;

/** A canonical Huffman code: how many codes of each length, and the symbols in code order. */
interface Huffman {
  counts: Uint16Array;
  symbols: Uint16Array;
}

class Inflater {
  private pos = 0;
  private bitBuf = 0;
  private bitCount = 0;
  private outPos = 0;

  constructor(
    private readonly input: Uint8Array,
    private readonly out: Uint8Array,
    private readonly where: string,
  ) {}

  private fail(message: string): never {
    throw new MetadataError(`deflate stream: ${message}`, this.where);
  }

  private bits(n: number): number {
    while (this.bitCount < n) {
      if (this.pos >= this.input.length) this.fail(`ends early (at input byte ${this.pos})`);
      this.bitBuf |= this.input[this.pos++]! << this.bitCount;
      this.bitCount += 8;
    }
    const v = this.bitBuf & ((1 << n) - 1);
    this.bitBuf >>>= n;
    this.bitCount -= n;
    return v;
  }

  private build(lengths: ArrayLike<number>, what: string): Huffman {
    const counts = new Uint16Array(MAX_BITS + 1);
    for (let s = 0; s < lengths.length; s++) counts[lengths[s]!]!++;
    counts[0] = 0;
    let left = 1;
    for (let len = 1; len <= MAX_BITS; len++) {
      left = (left << 1) - counts[len]!;
      if (left < 0) this.fail(`the ${what} code is over-subscribed`);
    }
    const offsets = new Uint16Array(MAX_BITS + 2);
    for (let len = 1; len <= MAX_BITS; len++) offsets[len + 1] = offsets[len]! + counts[len]!;
    const symbols = new Uint16Array(lengths.length);
    for (let s = 0; s < lengths.length; s++) if (lengths[s]) symbols[offsets[lengths[s]!]!++] = s;
    return { counts, symbols };
  }

  private decode(h: Huffman): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len <= MAX_BITS; len++) {
      code |= this.bits(1);
      const count = h.counts[len]!;
      if (code - first < count) return h.symbols[index + code - first]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return this.fail('invalid Huffman code');
  }

  private put(byte: number): void {
    if (this.outPos >= this.out.length) this.fail(`inflates to more than the ${this.out.length} bytes the archive states`);
    this.out[this.outPos++] = byte;
  }

  private stored(): void {
    this.bitBuf = 0;
    this.bitCount = 0;
    if (this.pos + 4 > this.input.length) this.fail('stored block header ends early');
    const len = this.input[this.pos]! | (this.input[this.pos + 1]! << 8);
    const nlen = this.input[this.pos + 2]! | (this.input[this.pos + 3]! << 8);
    this.pos += 4;
    if (len !== (~nlen & 0xffff)) this.fail('stored block length and its complement disagree');
    if (this.pos + len > this.input.length) this.fail('stored block ends early');
    if (this.outPos + len > this.out.length) this.fail(`inflates to more than the ${this.out.length} bytes the archive states`);
    this.out.set(this.input.subarray(this.pos, this.pos + len), this.outPos);
    this.pos += len;
    this.outPos += len;
  }

  private codes(lit: Huffman, dist: Huffman): void {
    for (;;) {
      const sym = this.decode(lit);
      if (sym < 256) this.put(sym);
      else if (sym === 256) return;
      else {
        const l = sym - 257;
        if (l >= 29) this.fail(`invalid length symbol ${sym}`);
        const length = LENGTH_BASE[l]! + this.bits(LENGTH_EXTRA[l]!);
        const d = this.decode(dist);
        if (d >= 30) this.fail(`invalid distance symbol ${d}`);
        const distance = DIST_BASE[d]! + this.bits(DIST_EXTRA[d]!);
        if (distance > this.outPos) this.fail(`distance ${distance} reaches before the start of the output`);
        if (this.outPos + length > this.out.length) this.fail(`inflates to more than the ${this.out.length} bytes the archive states`);
        for (let i = 0; i < length; i++, this.outPos++) this.out[this.outPos] = this.out[this.outPos - distance]!;
      }
    }
  }

  private fixed(): void {
    const lengths = new Uint8Array(288);
    lengths.fill(8, 0, 144);
    lengths.fill(9, 144, 256);
    lengths.fill(7, 256, 280);
    lengths.fill(8, 280, 288);
    this.codes(this.build(lengths, 'fixed literal/length'), this.build(new Uint8Array(30).fill(5), 'fixed distance'));
  }

  private dynamic(): void {
    const nlen = this.bits(5) + 257;
    const ndist = this.bits(5) + 1;
    const ncode = this.bits(4) + 4;
    if (nlen > 286 || ndist > 30) this.fail(`${nlen} literal/length and ${ndist} distance codes are too many`);
    const clLengths = new Uint8Array(19);
    for (let i = 0; i < ncode; i++) clLengths[CODE_LENGTH_ORDER[i]!] = this.bits(3);
    const cl = this.build(clLengths, 'code length');
    const lengths = new Uint8Array(nlen + ndist);
    for (let i = 0; i < nlen + ndist;) {
      const sym = this.decode(cl);
      if (sym < 16) {
        lengths[i++] = sym;
        continue;
      }
      let repeat: number;
      let value = 0;
      if (sym === 16) {
        if (i === 0) this.fail('a repeat code comes before any length');
        value = lengths[i - 1]!;
        repeat = 3 + this.bits(2);
      } else if (sym === 17) repeat = 3 + this.bits(3);
      else repeat = 11 + this.bits(7);
      if (i + repeat > nlen + ndist) this.fail('code lengths repeat past their end');
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
    if (lengths[256] === 0) this.fail('the end-of-block code has no length');
    this.codes(this.build(lengths.subarray(0, nlen), 'literal/length'), this.build(lengths.subarray(nlen), 'distance'));
  }

  run(): number {
    let last = 0;
    while (!last) {
      last = this.bits(1);
      const type = this.bits(2);
      if (type === 0) this.stored();
      else if (type === 1) this.fixed();
      else if (type === 2) this.dynamic();
      else this.fail('block type 3 is reserved');
    }
    return this.outPos;
  }
}

/**
 * Inflates a raw DEFLATE stream that the archive says holds `size` bytes. `where` names the entry for
 * errors. Throws `MetadataError` when the stream is malformed or its size differs.
 */
export function inflateRaw(input: Uint8Array, size: number, where: string): Uint8Array {
  const out = new Uint8Array(size);
  const n = new Inflater(input, out, where).run();
  if (n !== size) throw new MetadataError(`deflate stream: inflates to ${n} bytes, the archive states ${size}`, where);
  return out;
}
