/**
 * The string and hashing builtins against TFLite 2.9's C library on writer-made models, beyond the
 * one recipe per type combination of tflite-types.tflite-oracle.test.ts:
 *
 * - FarmHash's Fingerprint64 through LSH_PROJECTION DENSE with 16 × 32 seeds: every output bit is the
 *   sign of one Fingerprint64 (or of a weighted sum of them), so one model checks 512 hashes. Keys of
 *   4 + n bytes for n over every length branch of farmhashna::Hash64 (0–16, 17–32, 33–64, > 64 bytes
 *   and their boundaries), on random uint8, int32, int64 and float32 graph inputs, several rows with
 *   and without weights, and on string constants (TFLite hashes slices of the serialized buffer).
 * - SKIP_GRAM and HASHTABLE_LOOKUP with string values: their string outputs go into such an
 *   LSH_PROJECTION, whose 512 bits change with any byte of the serialized buffer (count, offsets,
 *   bytes), so the buffers are compared byte for byte although the addon cannot return strings.
 * - HASHTABLE_LOOKUP with keys and lookups as graph inputs over the whole int32 range, where TFLite's
 *   comparator `a - b` wraps and its bsearch takes the paths the wrap dictates.
 *
 * The tfjs-tflite-node addon cannot feed string graph inputs ("'kTfLiteString' is not yet
 * supported"), so sentences and string tables are constants here; string graph inputs are covered by
 * string-ops.test.ts. Skips with the oracle's reason without it.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, encodeStrings } from '@micrort/core';
import { prng } from '@micrort/test-support/tflite-recipe-builder';
import { ORACLE_SKIP_REASON, compareWithTflite, oracleAvailable, type OracleComparison } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const F32 = TensorType.FLOAT32;
const I32 = TensorType.INT32;
const S = TensorType.STRING;
const DENSE = 2;
const SPARSE = 1;
const HASH_FUNCTIONS = 16;
const BITS = 32;

/** Distinct float32 seeds in (−8, 8). */
function seeds(seed: number): Uint8Array {
  const next = prng(seed);
  return new Uint8Array(Float32Array.from({ length: HASH_FUNCTIONS * BITS }, () => 16 * next() - 8).buffer);
}

function randomBytes(n: number, seed: number): Uint8Array {
  const next = prng(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(256 * next()));
}

/** Adds an LSH_PROJECTION of `input` with 16 × 32 seeds (and `weight` when given) whose int32 output is a graph output. */
function project(b: ModelBuilder, input: number, type: number, seed: number, weight = -1): number {
  const hash = b.addTensor({ name: `hash${input}`, type: F32, shape: [HASH_FUNCTIONS, BITS], data: seeds(seed) });
  const size = type === DENSE ? HASH_FUNCTIONS * BITS : HASH_FUNCTIONS;
  const out = b.addTensor({ name: `bits${input}`, type: I32, shape: [size] });
  b.addOperator({
    op: BuiltinOperator.LSH_PROJECTION,
    inputs: weight >= 0 ? [hash, input, weight] : [hash, input],
    outputs: [out],
    options: { type },
  });
  return out;
}

function expectSame(r: OracleComparison, what: string): void {
  const bad = r.outputs.filter((o) => !o.pass);
  expect(
    r.pass,
    `${what}: ${bad.map((o) => `output ${o.index}: ${o.mismatches} of ${r.expected[o.index]!.length} bytes differ`).join('; ')}`,
  ).toBe(true);
  // Not a constant answer: the bits vary.
  for (const e of r.expected) expect(new Set(e).size, what).toBeGreaterThan(1);
}

describe.skipIf(!oracleAvailable)('LSH_PROJECTION: FarmHash Fingerprint64 against TFLite 2.9', () => {
  // Key = 4 seed bytes ‖ n item bytes: 5 … 204 bytes, every branch of Hash64 and its edges.
  const ITEM_BYTES = [1, 2, 3, 4, 5, 8, 11, 12, 13, 20, 28, 29, 30, 44, 59, 60, 61, 62, 80, 123, 124, 125, 126, 189, 200];

  it.each(ITEM_BYTES)('one uint8 row of %i bytes (key of 4 + n bytes), DENSE', (n) => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.UINT8, shape: [1, n] });
    const y = project(b, x, DENSE, 1000 + n);
    const model = b.setInputs([x]).setOutputs([y]).build();
    for (const s of [1, 2]) expectSame(compareWithTflite(model, [randomBytes(n, 77 * n + s)]), `n = ${n}, input ${s}`);
  });

  const typed: [string, TensorType, number, number[]][] = [
    ['int32 [5, 3]', I32, 4, [5, 3]],
    ['int64 [3, 9]', TensorType.INT64, 8, [3, 9]],
    ['float32 [7, 2, 2]', F32, 4, [7, 2, 2]],
    ['uint8 [4, 70]', TensorType.UINT8, 1, [4, 70]],
  ];
  it.each(typed)('%s rows, DENSE and SPARSE, without and with graph-input weights', (_, type, size, shape) => {
    const bytes = shape.reduce((a, c) => a * c, size);
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type, shape });
    const w = b.addTensor({ name: 'w', type: F32, shape: [shape[0]!] });
    const outs = [project(b, x, DENSE, 11), project(b, x, SPARSE, 12), project(b, x, DENSE, 13, w), project(b, x, SPARSE, 14, w)];
    const model = b.setInputs([x, w]).setOutputs(outs).build();
    const next = prng(bytes);
    const weights = new Uint8Array(Float32Array.from({ length: shape[0]! }, () => 2 * next() - 1).buffer);
    // Random bytes (float32 inputs included: any bit pattern is hashed as it is).
    expectSame(compareWithTflite(model, [randomBytes(bytes, bytes + 1), weights]), 'random');
  });

  it.each([
    ['one short string', ['ab']],
    ['three strings, one empty', ['the quick', '', 'ünïcödé ✓']],
    ['two long strings', ['x'.repeat(70), 'lorem ipsum dolor sit amet, consectetur adipiscing elit']],
  ])('string constant: %s (the serialized buffer sliced by rows)', (_, values) => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: S, shape: [values.length], data: encodeStrings(values) });
    const model = b
      .setInputs([])
      .setOutputs([project(b, x, DENSE, 21), project(b, x, SPARSE, 22)])
      .build();
    expectSame(compareWithTflite(model, []), values.join('|'));
  });
});

/** The grams TFLite's SKIP_GRAM makes, enumerated independently of the kernel (as sets of word positions). */
function gramCount(words: number, n: number, maxSkip: number, all: boolean): number {
  let count = 0;
  const extend = (last: number, size: number): void => {
    if (all || size === n) count++;
    if (size === n) return;
    for (let next = last + 1; next < words && next - last - 1 <= maxSkip; next++) extend(next, size + 1);
  };
  if (words < n) return 0;
  for (let first = 0; first < words; first++) extend(first, 1);
  return count;
}

describe.skipIf(!oracleAvailable)('SKIP_GRAM against TFLite 2.9 (output bytes through an LSH_PROJECTION probe)', () => {
  const SENTENCES: [string, number][] = [
    ['The quick\t brown fox\n jumps over\n the lazy dog!', 9],
    ['  two  leading spaces,\vvertical tab\fform feed\r\nand ünïcödé words ', 10],
    [' one leading space', 2],
    ['single', 1],
  ];
  const OPTIONS: [number, number, boolean][] = [
    [1, 0, false],
    [2, 0, false],
    [2, 1, false],
    [3, 2, false],
    [3, 1, true],
    [4, 3, true],
  ];
  const cases = SENTENCES.flatMap(([s, words]) => OPTIONS.map(([n, skip, all]) => ({ s, words, n, skip, all })));
  it.each(cases)('$s: ngram $n, skip $skip, all $all', ({ s, words, n, skip, all }) => {
    const count = gramCount(words, n, skip, all);
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'sentence', type: S, shape: [1], data: encodeStrings([s]) });
    const grams = b.addTensor({ name: 'grams', type: S, shape: [count] });
    b.addOperator({
      op: BuiltinOperator.SKIP_GRAM,
      inputs: [x],
      outputs: [grams],
      options: { ngramSize: n, maxSkipSize: skip, includeAllNgrams: all },
    });
    if (count === 0) return;
    const model = b
      .setInputs([])
      .setOutputs([project(b, grams, DENSE, 31)])
      .build();
    expectSame(compareWithTflite(model, []), s);
  });
});

describe.skipIf(!oracleAvailable)('HASHTABLE_LOOKUP against TFLite 2.9', () => {
  it('keys and lookups over the whole int32 range (the wrapping comparator), float32 rows', () => {
    const b = new ModelBuilder();
    const lookup = b.addTensor({ name: 'lookup', type: I32, shape: [64] });
    const keys = b.addTensor({ name: 'keys', type: I32, shape: [16] });
    const values = b.addTensor({ name: 'values', type: F32, shape: [16, 3] });
    const out = b.addTensor({ name: 'out', type: F32, shape: [64, 3] });
    const hits = b.addTensor({ name: 'hits', type: TensorType.UINT8, shape: [64] });
    b.addOperator({ op: BuiltinOperator.HASHTABLE_LOOKUP, inputs: [lookup, keys, values], outputs: [out, hits] });
    const model = b.setInputs([lookup, keys, values]).setOutputs([out, hits]).build();
    for (const seed of [1, 2, 3, 4]) {
      const next = prng(seed);
      const word = () => (Math.floor(next() * 4294967296) | 0) >> (seed === 1 ? 0 : 8 * (seed - 1));
      const k = Int32Array.from({ length: 16 }, word).sort();
      // Half the lookups are keys (hits unless the wrap misleads the search), half random.
      const l = Int32Array.from({ length: 64 }, (_, i) => (i % 2 === 0 ? k[(i >> 1) % 16]! : word()));
      const v = Float32Array.from({ length: 48 }, () => next());
      const r = compareWithTflite(model, [new Uint8Array(l.buffer), new Uint8Array(k.buffer), new Uint8Array(v.buffer)]);
      expect(r.pass, `seed ${seed}`).toBe(true);
      expect(new Set(r.expected[1]).size, `seed ${seed}: hits and misses`).toBe(2);
    }
  });

  it('string values: the serialized output (hits, misses as empty strings) through an LSH_PROJECTION probe', () => {
    const b = new ModelBuilder();
    const lookup = b.addTensor({ name: 'lookup', type: I32, shape: [6] });
    const keys = b.addTensor({ name: 'keys', type: I32, shape: [4], data: new Uint8Array(Int32Array.from([-7, 0, 3, 1000]).buffer) });
    const values = b.addTensor({ name: 'values', type: S, shape: [4], data: encodeStrings(['minus seven', '', 'three ✓', 'a thousand']) });
    const out = b.addTensor({ name: 'out', type: S, shape: [6] });
    const hits = b.addTensor({ name: 'hits', type: TensorType.UINT8, shape: [6] });
    b.addOperator({ op: BuiltinOperator.HASHTABLE_LOOKUP, inputs: [lookup, keys, values], outputs: [out, hits] });
    const model = b
      .setInputs([lookup])
      .setOutputs([hits, project(b, out, DENSE, 41)])
      .build();
    for (const l of [
      [3, 1000, 5, -7, 0, 3],
      [1, 2, 1000, 1000, -8, 0],
    ])
      expectSame(compareWithTflite(model, [new Uint8Array(Int32Array.from(l).buffer)]), l.join(','));
  });
});
