/**
 * Test-only tracing of the memory accesses that reveal a kernel's blocking: the word loads (LDR of four
 * int8 / two int16) and the output stores, in order. The emulated mode is traced through a SimdMachine
 * subclass; the fast mode through Proxies around its DataViews (word reads) and its output array
 * (stores). Two runs with the same blocking, loop structure and tail handling give the same traces.
 */
import { INSTR_CLASS_COUNT } from '../counters.js';
import { SimdMachine } from '../machine.js';

/** A named array whose accesses are traced. */
export interface TracedArray {
  name: string;
  array: Int8Array | Int16Array | Int32Array;
}

/** The ordered accesses of one run: word loads as `name@index`, output stores as element indices. */
export interface AccessTrace {
  words: string[];
  stores: number[];
}

/** A fresh, empty trace. */
export function newTrace(): AccessTrace {
  return { words: [], stores: [] };
}

function nameOf(arrays: readonly TracedArray[], a: ArrayBufferView): string | null {
  for (const t of arrays) if (t.array === a) return t.name;
  return null;
}

/**
 * The emulated mode's machine, recording the word loads of `arrays` (element indices) and the byte
 * stores into `output`.
 */
export class TracingMachine extends SimdMachine {
  constructor(
    private readonly arrays: readonly TracedArray[],
    private readonly output: Int8Array,
    readonly trace: AccessTrace,
  ) {
    super(new Float64Array(INSTR_CLASS_COUNT));
  }

  private word(a: ArrayBufferView, i: number): void {
    const name = nameOf(this.arrays, a);
    if (name !== null) this.trace.words.push(`${name}@${i}`);
  }

  override ldS8x4(a: Int8Array, i: number): number {
    this.word(a, i);
    return super.ldS8x4(a, i);
  }

  override ldcS8x4(a: Int8Array, i: number): number {
    this.word(a, i);
    return super.ldcS8x4(a, i);
  }

  override ldQ15x2(a: Int16Array, i: number): number {
    this.word(a, i);
    return super.ldQ15x2(a, i);
  }

  override stB(a: Int8Array, i: number, v: number): void {
    if (a === this.output) this.trace.stores.push(i);
    super.stB(a, i, v);
  }
}

/**
 * A DataView over `arrays[k].array.buffer` (all in the same buffer) whose `getInt32` records
 * `name@index` of the array the byte offset falls in (the first listed wins where arrays overlap).
 */
export function tracedView(arrays: readonly TracedArray[], trace: AccessTrace): DataView {
  const view = new DataView(arrays[0]!.array.buffer as ArrayBuffer);
  return new Proxy(view, {
    get(target, key) {
      if (key === 'getInt32') {
        return (offset: number, littleEndian?: boolean): number => {
          const t = arrays.find((a) => offset >= a.array.byteOffset && offset < a.array.byteOffset + a.array.byteLength);
          trace.words.push(t ? `${t.name}@${(offset - t.array.byteOffset) / t.array.BYTES_PER_ELEMENT}` : `?@${offset}`);
          return target.getInt32(offset, littleEndian);
        };
      }
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** `output` behind a Proxy that records the index of every element store. */
export function tracedOutput(output: Int8Array, trace: AccessTrace): Int8Array {
  return new Proxy(output, {
    set(target, key, value: number) {
      if (typeof key === 'string' && /^\d+$/.test(key)) trace.stores.push(Number(key));
      return Reflect.set(target, key, value);
    },
    get(target, key) {
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** A deterministic int8 generator. */
export function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    return s >> 24;
  };
}

/** `n` random int8 at byte `offset` of a fresh buffer (unaligned placement, as in an arena). */
export function placed(n: number, offset: number, rnd: () => number): Int8Array {
  const a = new Int8Array(new ArrayBuffer(n + offset + 8), offset, n);
  for (let i = 0; i < n; i++) a[i] = rnd();
  return a;
}
