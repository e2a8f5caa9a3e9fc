import type { Rng } from './rng.js';

/**
 * Raw byte mutations of a .tflite file, the way a corrupted download or a hostile file differs from a
 * good one: bit flips, runs of bytes, truncation, off-by-some 32-bit words (FlatBuffers offsets, vector
 * lengths, vtable entries and indices are all little-endian integers at aligned positions), inserted and
 * deleted bytes (every later offset shifts) and copied chunks. These mostly exercise the verifier.
 */
export type ByteMutator = (bytes: Uint8Array, rng: Rng) => [Uint8Array, string];

const WORD_VALUES = [0, 1, 2, 4, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffc, 0x10000, 0x7ffffff0];

const flipBits: ByteMutator = (bytes, rng) => {
  const out = bytes.slice();
  const n = 1 + rng.int(8);
  for (let k = 0; k < n; k++) {
    const at = rng.int(out.length);
    out[at] = out[at]! ^ (1 << rng.int(8));
  }
  return [out, `${n} bit flip(s)`];
};

const byteRun: ByteMutator = (bytes, rng) => {
  const out = bytes.slice();
  const len = 1 + rng.int(32);
  const at = rng.int(out.length);
  const value = rng.pick([0x00, 0xff, 0x7f, 0x80, -1]);
  for (let i = at; i < Math.min(out.length, at + len); i++) out[i] = value < 0 ? rng.int(256) : value;
  return [out, `${len} bytes at ${at} set to ${value < 0 ? 'random' : `0x${value.toString(16)}`}`];
};

const truncate: ByteMutator = (bytes, rng) => {
  const r = rng.float();
  const len = r < 0.3 ? bytes.length - 1 - rng.int(16) : r < 0.4 ? rng.int(16) : rng.int(bytes.length);
  const cut = Math.max(0, Math.min(bytes.length - 1, len));
  return [bytes.slice(0, cut), `truncated to ${cut} of ${bytes.length} bytes`];
};

const nudgeWord: ByteMutator = (bytes, rng) => {
  if (bytes.length < 8) return flipBits(bytes, rng);
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const at = rng.int((out.length >> 2) - 1) * 4;
  const old = view.getUint32(at, true);
  let v: number;
  if (rng.chance(0.6)) v = (old + rng.pick([1, -1, 2, -2, 4, -4, 8, -8, 16, 256, -256])) >>> 0;
  else if (rng.chance(0.2)) v = bytes.length + rng.pick([0, -4, 4, -at]);
  else v = rng.pick(WORD_VALUES);
  view.setUint32(at, v >>> 0, true);
  return [out, `u32 at ${at}: ${old} -> ${v >>> 0}`];
};

const nudgeHalf: ByteMutator = (bytes, rng) => {
  if (bytes.length < 4) return flipBits(bytes, rng);
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const at = rng.int((out.length >> 1) - 1) * 2;
  const old = view.getUint16(at, true);
  const v = rng.chance(0.6) ? (old + rng.pick([1, -1, 2, -2, 4, -4])) & 0xffff : rng.pick([0, 4, 0xffff, 0x7fff, 0x8000]);
  view.setUint16(at, v, true);
  return [out, `u16 at ${at}: ${old} -> ${v}`];
};

const insertBytes: ByteMutator = (bytes, rng) => {
  const at = rng.int(bytes.length);
  const n = 1 + rng.int(8);
  const out = new Uint8Array(bytes.length + n);
  out.set(bytes.subarray(0, at));
  for (let i = 0; i < n; i++) out[at + i] = rng.int(256);
  out.set(bytes.subarray(at), at + n);
  return [out, `${n} byte(s) inserted at ${at}`];
};

const deleteBytes: ByteMutator = (bytes, rng) => {
  const at = rng.int(bytes.length);
  const n = Math.min(bytes.length - at, 1 + rng.int(8));
  const out = new Uint8Array(bytes.length - n);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at + n), at);
  return [out, `${n} byte(s) deleted at ${at}`];
};

const copyChunk: ByteMutator = (bytes, rng) => {
  const out = bytes.slice();
  const len = 4 + rng.int(60);
  const from = rng.int(Math.max(1, out.length - len));
  const to = rng.int(Math.max(1, out.length - len));
  out.copyWithin(to, from, from + len);
  return [out, `${len} bytes copied from ${from} to ${to}`];
};

/** Every byte mutator with its relative weight. */
export const BYTE_MUTATORS: readonly (readonly [ByteMutator, number])[] = [
  [flipBits, 4],
  [byteRun, 3],
  [truncate, 1],
  [nudgeWord, 6],
  [nudgeHalf, 3],
  [insertBytes, 1],
  [deleteBytes, 1],
  [copyChunk, 1],
];
const WEIGHTS = BYTE_MUTATORS.map(([, w]) => w);

/** Applies `count` byte mutations; returns the new bytes (a fresh, aligned array) and their descriptions. */
export function mutateBytes(bytes: Uint8Array, rng: Rng, count: number): [Uint8Array, string[]] {
  let out = bytes;
  const done: string[] = [];
  for (let k = 0; k < count && out.length > 0; k++) {
    const [mutator] = BYTE_MUTATORS[rng.weighted(WEIGHTS)]!;
    const [next, what] = mutator(out, rng);
    out = next;
    done.push(what);
  }
  return [out === bytes ? bytes.slice() : out, done];
}
