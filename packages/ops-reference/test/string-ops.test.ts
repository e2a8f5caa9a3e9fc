/**
 * String tensors end to end, and the string-using builtins on TFLite's own test vectors
 * (tensorflow/lite/kernels/{gather,gather_nd,hashtable_lookup,lsh_projection,skip_gram}_test.cc and
 * hashtable/hashtable_ops_test.cc): string graph inputs and outputs through `setInputStrings` /
 * `outputStrings`, their planned sizes and errors, HASHTABLE and its import, find and size,
 * HASHTABLE_LOOKUP, LSH_PROJECTION, SKIP_GRAM, and EMBEDDING_LOOKUP of a string table (which LiteRT.js
 * computes on the serialized bytes, see test-support's `LITERT_DIFFERS`: micrort gathers the strings).
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  InputError,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  StringCapacityError,
  TensorType,
  UnboundedStringError,
  encodeStrings,
  loadModel,
  type InterpreterOptions,
  type OperatorSpec,
  type Registration,
} from '@micrort/core';
import { StringWriter, setStringOutputCapacity } from '@micrort/kernel-support';
import { createPlanner } from '@micrort/planners';
import { registerReferenceOps } from '../src/index.js';

const S = TensorType.STRING;
const I32 = TensorType.INT32;
const I64 = TensorType.INT64;

function run(
  b: ModelBuilder,
  options: Partial<InterpreterOptions> = {},
  resolver = registerReferenceOps(new OpResolver()),
): MicroInterpreter {
  return new MicroInterpreter(loadModel(b.build()), resolver, { planner: createPlanner('greedy'), ...options }).allocateTensors();
}

const strings = (values: readonly string[]): Uint8Array => encodeStrings(values);
const int32s = (values: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(values).buffer);
const int64s = (values: readonly number[]): Uint8Array => new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
const float32s = (values: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(values).buffer);

/** A model of one op whose inputs are constants (given data) or graph inputs, with its outputs as graph outputs. */
function oneOp(
  op: BuiltinOperator,
  inputs: readonly { type: TensorType; shape: number[]; data?: Uint8Array }[],
  outputs: readonly { type: TensorType; shape: number[] }[],
  extra: Partial<OperatorSpec> = {},
): ModelBuilder {
  const b = new ModelBuilder();
  const ins = inputs.map((t, i) => b.addTensor({ name: `in${i}`, type: t.type, shape: t.shape, data: t.data }));
  const outs = outputs.map((t, i) => b.addTensor({ name: `out${i}`, type: t.type, shape: t.shape }));
  b.addOperator({ op, inputs: ins, outputs: outs, ...extra });
  return b.setInputs(ins.filter((_, i) => inputs[i]!.data === undefined)).setOutputs(outs);
}

describe('string graph inputs and outputs', () => {
  /** GATHER of a string graph input [3] by constant indices [2, 3] (gather_test.cc's 2DIndexString). */
  const gather = (): ModelBuilder =>
    oneOp(
      BuiltinOperator.GATHER,
      [
        { type: S, shape: [3] },
        { type: I32, shape: [2, 3], data: int32s([0, 2, 1, 1, 0, 2]) },
      ],
      [{ type: S, shape: [2, 3] }],
      { options: { axis: 0, batchDims: 0 } },
    );

  it('setInputStrings and outputStrings carry strings through GATHER', () => {
    const it = run(gather());
    it.setInputStrings(0, ['A', 'B', 'C']);
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['A', 'C', 'B', 'B', 'A', 'C']);
    it.setInputStrings(0, ['', 'ünïcödé', 'x'.repeat(100)]);
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['', 'x'.repeat(100), 'ünïcödé', 'ünïcödé', '', 'x'.repeat(100)]);
    expect(it.outputStrings(0, true)[1]).toEqual(new Uint8Array(100).fill(0x78));
  });

  it('plans a string input at stringInputBytes plus its header, and the output at the bound GATHER proves', () => {
    const it = run(gather(), { stringInputBytes: 64 });
    expect(it.input(0).byteLength).toBe(4 * (3 + 2) + 64);
    // Six strings, each at most the input's 64 bytes: header + 6 · 64.
    expect(it.output(0).byteLength).toBe(4 * (6 + 2) + 6 * 64);
    it.setInputStrings(0, ['a'.repeat(64), '', '']);
    it.invoke();
    expect(it.outputStrings(0)[0]).toBe('a'.repeat(64));
  });

  it('refuses strings that outgrow the input, a wrong count, and numbers', () => {
    const it = run(gather(), { stringInputBytes: 8 });
    expect(() => it.setInputStrings(0, ['123456789', '', ''])).toThrow(InputError);
    expect(() => it.setInputStrings(0, ['123456789', '', ''])).toThrow(/raise the interpreter option stringInputBytes/);
    expect(() => it.setInputStrings(0, ['a', 'b'])).toThrow(/holds 2 strings, its shape has 3 elements/);
    expect(() => it.setInput(0, [1, 2, 3])).toThrow(/give its strings to setInputStrings/);
    expect(() => it.outputStrings(1 as number)).toThrow();
    // Serialized bytes are accepted as they are.
    it.setInput(0, strings(['p', 'q', 'r']));
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['p', 'r', 'q', 'q', 'p', 'r']);
  });

  it('a string tensor no kernel bounded is an UnboundedStringError at planning; overflowing one a StringCapacityError', () => {
    const make = (bound: number | null): Registration => ({
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'WORDS',
      prepare(context, node) {
        if (bound !== null) setStringOutputCapacity('WORDS', context, node, 0, bound);
      },
      invoke(context, node) {
        const w = new StringWriter('WORDS output');
        w.begin(context.getEvalTensor(node.outputs[0]!).bytes, 2);
        w.append(new Uint8Array(20), 0, 20);
        w.append(new Uint8Array(20), 0, 20);
        w.finish();
      },
    });
    const model = (): ModelBuilder => {
      const b = new ModelBuilder();
      const x = b.addTensor({ name: 'x', type: I32, shape: [1] });
      const y = b.addTensor({ name: 'words', type: S, shape: [2] });
      b.addOperator({ op: { custom: 'WORDS' }, inputs: [x], outputs: [y] });
      return b.setInputs([x]).setOutputs([y]);
    };
    const resolver = (bound: number | null): OpResolver => new OpResolver().register(make(bound));
    expect(() => run(model(), {}, resolver(null))).toThrow(UnboundedStringError);
    expect(() => run(model(), {}, resolver(null))).toThrow(/string tensor 1 \(words\) has no size bound/);
    const small = run(model(), {}, resolver(16 + 30));
    expect(() => small.invoke()).toThrow(StringCapacityError);
    const enough = run(model(), {}, resolver(16 + 40));
    enough.invoke();
    expect(enough.outputStrings(0, true).map((s) => s.byteLength)).toEqual([20, 20]);
  });
});

describe('string variants of data movement (TFLite test vectors)', () => {
  it('GATHER_ND of strings (gather_nd_test.cc String)', () => {
    const letters = 'ABCDEFGHIJKLMNOPQR'.split('');
    const it = run(
      oneOp(
        BuiltinOperator.GATHER_ND,
        [
          { type: S, shape: [3, 2, 3], data: strings(letters) },
          { type: I32, shape: [2, 2], data: int32s([0, 0, 1, 1]) },
        ],
        [{ type: S, shape: [2, 3] }],
      ),
    );
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['A', 'B', 'C', 'J', 'K', 'L']);
  });

  it('EMBEDDING_LOOKUP of a string table gathers its rows’ strings', () => {
    const it = run(
      oneOp(
        BuiltinOperator.EMBEDDING_LOOKUP,
        [
          { type: I32, shape: [4], data: int32s([2, 0, 2, 1]) },
          { type: S, shape: [3, 2], data: strings(['a0', 'a1', 'bb0', 'bb1', 'ccc0', 'ccc1']) },
        ],
        [{ type: S, shape: [4, 2] }],
      ),
    );
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['ccc0', 'ccc1', 'a0', 'a1', 'ccc0', 'ccc1', 'bb0', 'bb1']);
  });
});

describe('TILE and RANK of strings', () => {
  it('TILE repeats a string graph input along each dimension (int32 and int64 multiples)', () => {
    for (const [type, data] of [
      [I32, int32s([2, 3])],
      [I64, int64s([2, 3])],
    ] as const) {
      const it = run(
        oneOp(
          BuiltinOperator.TILE,
          [
            { type: S, shape: [2, 2] },
            { type, shape: [2], data },
          ],
          [{ type: S, shape: [4, 6] }],
        ),
      );
      it.setInputStrings(0, ['a', 'bb', '', 'ünï']);
      it.invoke();
      const row0 = ['a', 'bb', 'a', 'bb', 'a', 'bb'];
      const row1 = ['', 'ünï', '', 'ünï', '', 'ünï'];
      expect(it.outputStrings(0)).toEqual([...row0, ...row1, ...row0, ...row1]);
      // Six copies of each input string at most: header + 24 · the longest possible input string.
      expect(it.output(0).byteLength).toBe(4 * (24 + 2) + 24 * 4096);
    }
  });

  it('RANK of a string tensor', () => {
    const it = run(oneOp(BuiltinOperator.RANK, [{ type: S, shape: [2, 1, 3] }], [{ type: I32, shape: [] }]));
    it.setInputStrings(0, ['a', 'b', 'c', 'd', 'e', 'f']);
    it.invoke();
    expect(Array.from(it.output(0).data as Int32Array)).toEqual([3]);
  });
});

describe('HASHTABLE_LOOKUP (hashtable_lookup_test.cc)', () => {
  const lookup = (values: { type: TensorType; shape: number[]; data: Uint8Array }, outShape: number[]): MicroInterpreter => {
    const it = run(
      oneOp(
        BuiltinOperator.HASHTABLE_LOOKUP,
        [{ type: I32, shape: [4] }, { type: I32, shape: [3] }, values],
        [
          { type: values.type, shape: outShape },
          { type: TensorType.UINT8, shape: [4] },
        ],
      ),
    );
    it.setInput(0, Int32Array.from([1234, -292, -11, 0]));
    it.setInput(1, Int32Array.from([-11, 0, 1234]));
    it.invoke();
    expect(Array.from(it.output(1).data as Uint8Array)).toEqual([1, 0, 1, 1]);
    return it;
  };

  it('Test2DInput', () => {
    const it = lookup({ type: TensorType.FLOAT32, shape: [3, 2], data: float32s([0, 0.1, 1, 1.1, 2, 2.1]) }, [4, 2]);
    expect(Array.from(it.output(0).data as Float32Array)).toEqual(Array.from(Float32Array.from([2, 2.1, 0, 0, 0, 0.1, 1, 1.1])));
  });

  it('Test1DInput', () => {
    const it = lookup({ type: TensorType.FLOAT32, shape: [3], data: float32s([0, 0.1, 0.4]) }, [4]);
    expect(Array.from(it.output(0).data as Float32Array)).toEqual(Array.from(Float32Array.from([0.4, 0, 0, 0.1])));
  });

  it('TestString', () => {
    const it = lookup({ type: S, shape: [3], data: strings(['Hello', '', 'Hi']) }, [4]);
    expect(it.outputStrings(0)).toEqual(['Hi', '', 'Hello', '']);
  });
});

describe('LSH_PROJECTION (lsh_projection_test.cc, little-endian results)', () => {
  const HASH = [0.123, 0.456, -0.321, 1.234, 5.678, -4.321];
  const project = (type: number, input: { shape: number[]; values: number[] }, weight: number[] | null, outSize: number): number[] => {
    const inputs = [
      { type: TensorType.FLOAT32, shape: [3, 2], data: float32s(HASH) },
      { type: I32, shape: input.shape },
    ];
    if (weight) inputs.push({ type: TensorType.FLOAT32, shape: [weight.length], data: float32s(weight) });
    const it = run(oneOp(BuiltinOperator.LSH_PROJECTION, inputs, [{ type: I32, shape: [outSize] }], { options: { type } }));
    it.setInput(0, Int32Array.from(input.values));
    it.invoke();
    return Array.from(it.output(0).data as Int32Array);
  };
  const ONE_D = { shape: [5], values: [12345, 54321, 67890, 9876, -12345678] };

  it('Dense1DInputs', () => {
    expect(project(2, ONE_D, [1, 1, 1, 1, 1], 6)).toEqual([0, 0, 0, 1, 0, 0]);
  });

  it('Sparse1DInputs', () => {
    expect(project(1, ONE_D, null, 3)).toEqual([0 + 0, 4 + 1, 8 + 0]);
  });

  it('Sparse3DInputs', () => {
    const input = {
      shape: [5, 2, 2],
      values: [1234, 2345, 3456, 1234, 4567, 5678, 6789, 4567, 7891, 8912, 9123, 7890, -987, -876, -765, -987, -543, -432, -321, -543],
    };
    expect(project(1, input, [0.12, 0.34, 0.56, 0.67, 0.78], 3)).toEqual([0 + 2, 4 + 1, 8 + 1]);
  });

  it('InvalidProjectionTypeTest', () => {
    expect(() => project(-1, ONE_D, null, 3)).toThrow(KernelError);
  });
});

describe('SKIP_GRAM (skip_gram_test.cc, on a constant sentence)', () => {
  const SENTENCE = 'The quick\t brown fox\n jumps over\n the lazy dog!';
  const grams = (sentence: string, ngramSize: number, maxSkipSize: number, includeAllNgrams: boolean, count: number): string[] => {
    const it = run(
      oneOp(BuiltinOperator.SKIP_GRAM, [{ type: S, shape: [1], data: strings([sentence]) }], [{ type: S, shape: [count] }], {
        options: { ngramSize, maxSkipSize, includeAllNgrams },
      }),
    );
    it.invoke();
    return it.outputStrings(0);
  };
  const sorted = (a: readonly string[]): string[] => [...a].sort();
  const UNIGRAMS = ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog!'];
  const BIGRAMS = ['The quick', 'quick brown', 'brown fox', 'fox jumps', 'jumps over', 'over the', 'the lazy', 'lazy dog!'];
  const TRIGRAMS = [
    'The quick brown',
    'quick brown fox',
    'brown fox jumps',
    'fox jumps over',
    'jumps over the',
    'over the lazy',
    'the lazy dog!',
  ];
  const SKIP2_BIGRAMS = [
    'The quick',
    'The brown',
    'The fox',
    'quick brown',
    'quick fox',
    'quick jumps',
    'brown fox',
    'brown jumps',
    'brown over',
    'fox jumps',
    'fox over',
    'fox the',
    'jumps over',
    'jumps the',
    'jumps lazy',
    'over the',
    'over lazy',
    'over dog!',
    'the lazy',
    'the dog!',
    'lazy dog!',
  ];
  const SKIP2_TRIGRAMS = [
    'The quick brown',
    'The quick fox',
    'The quick jumps',
    'The brown fox',
    'The brown jumps',
    'The brown over',
    'The fox jumps',
    'The fox over',
    'The fox the',
    'quick brown fox',
    'quick brown jumps',
    'quick brown over',
    'quick fox jumps',
    'quick fox over',
    'quick fox the',
    'quick jumps over',
    'quick jumps the',
    'quick jumps lazy',
    'brown fox jumps',
    'brown fox over',
    'brown fox the',
    'brown jumps over',
    'brown jumps the',
    'brown jumps lazy',
    'brown over the',
    'brown over lazy',
    'brown over dog!',
    'fox jumps over',
    'fox jumps the',
    'fox jumps lazy',
    'fox over the',
    'fox over lazy',
    'fox over dog!',
    'fox the lazy',
    'fox the dog!',
    'jumps over the',
    'jumps over lazy',
    'jumps over dog!',
    'jumps the lazy',
    'jumps the dog!',
    'jumps lazy dog!',
    'over the lazy',
    'over the dog!',
    'over lazy dog!',
    'the lazy dog!',
  ];
  const cases: [string, number, number, boolean, string[]][] = [
    ['TestUnigram', 1, 0, false, UNIGRAMS],
    ['TestBigram', 2, 0, false, BIGRAMS],
    ['TestAllBigram', 2, 0, true, [...UNIGRAMS, ...BIGRAMS]],
    ['TestAllTrigram', 3, 0, true, [...UNIGRAMS, ...BIGRAMS, ...TRIGRAMS]],
    [
      'TestSkip1Bigram',
      2,
      1,
      false,
      [
        'The quick',
        'The brown',
        'quick brown',
        'quick fox',
        'brown fox',
        'brown jumps',
        'fox jumps',
        'fox over',
        'jumps over',
        'jumps the',
        'over the',
        'over lazy',
        'the lazy',
        'the dog!',
        'lazy dog!',
      ],
    ],
    ['TestSkip2Bigram', 2, 2, false, SKIP2_BIGRAMS],
    [
      'TestSkip1Trigram',
      3,
      1,
      false,
      [
        'The quick brown',
        'The quick fox',
        'The brown fox',
        'The brown jumps',
        'quick brown fox',
        'quick brown jumps',
        'quick fox jumps',
        'quick fox over',
        'brown fox jumps',
        'brown fox over',
        'brown jumps over',
        'brown jumps the',
        'fox jumps over',
        'fox jumps the',
        'fox over the',
        'fox over lazy',
        'jumps over the',
        'jumps over lazy',
        'jumps the lazy',
        'jumps the dog!',
        'over the lazy',
        'over the dog!',
        'over lazy dog!',
        'the lazy dog!',
      ],
    ],
    ['TestSkip2Trigram', 3, 2, false, SKIP2_TRIGRAMS],
    ['TestAllSkip2Trigram', 3, 2, true, [...UNIGRAMS, ...SKIP2_BIGRAMS, ...SKIP2_TRIGRAMS]],
  ];
  it.each(cases)('%s', (_, n, skip, all, expected) => {
    expect(sorted(grams(SENTENCE, n, skip, all, expected.length))).toEqual(sorted(expected));
  });

  it('TestSingleWord, TestWordsLessThanGram, TestEmptyInput, TestWhitespaceInput, TestInputWithExtraSpace', () => {
    expect(grams('Hi', 1, 1, false, 1)).toEqual(['Hi']);
    expect(grams('Hi hi', 3, 1, false, 0)).toEqual([]);
    expect(grams('', 1, 1, false, 0)).toEqual([]);
    expect(grams('    ', 1, 1, false, 0)).toEqual([]);
    expect(grams('   Hello   world    !  ', 1, 1, false, 3)).toEqual(['Hello', 'world', '!']);
  });

  it('a sentence known only at invoke needs a data-dependent output shape: refused in prepare', () => {
    const b = oneOp(BuiltinOperator.SKIP_GRAM, [{ type: S, shape: [1] }], [{ type: S, shape: [3] }], {
      options: { ngramSize: 1, maxSkipSize: 0, includeAllNgrams: false },
    });
    expect(() => run(b)).toThrow(/data-dependent output shape/);
  });
});

describe('HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND, HASHTABLE_SIZE (hashtable_ops_test.cc)', () => {
  interface Table {
    id: number;
    keyType: TensorType;
    valueType: TensorType;
    keys: Uint8Array;
    values: Uint8Array;
    count: number;
    /** Null: no import node; 2: two. */
    imports?: number;
    queries: number;
  }

  /**
   * TFLite's HashtableGraph: per table a HASHTABLE, its import(s) of keys and values, a FIND of the
   * queries with the default value and a SIZE, keys, values, queries and default as graph inputs.
   */
  function graph(tables: readonly Table[]): ModelBuilder {
    const b = new ModelBuilder();
    const inputs: number[] = [];
    const outputs: number[] = [];
    for (const t of tables) {
      const h = b.addTensor({ name: `table${t.id}`, type: TensorType.RESOURCE, shape: [] });
      b.addOperator({
        op: BuiltinOperator.HASHTABLE,
        inputs: [],
        outputs: [h],
        options: { tableId: t.id, keyDtype: t.keyType, valueDtype: t.valueType },
      });
      const keys = b.addTensor({ name: `keys${t.id}`, type: t.keyType, shape: [t.count] });
      const values = b.addTensor({ name: `values${t.id}`, type: t.valueType, shape: [t.count] });
      for (let i = 0; i < (t.imports ?? 1); i++)
        b.addOperator({ op: BuiltinOperator.HASHTABLE_IMPORT, inputs: [h, keys, values], outputs: [] });
      const query = b.addTensor({ name: `query${t.id}`, type: t.keyType, shape: [t.queries] });
      const dflt = b.addTensor({ name: `default${t.id}`, type: t.valueType, shape: [1] });
      const found = b.addTensor({ name: `found${t.id}`, type: t.valueType, shape: [t.queries] });
      const size = b.addTensor({ name: `size${t.id}`, type: I64, shape: [1] });
      b.addOperator({ op: BuiltinOperator.HASHTABLE_FIND, inputs: [h, query, dflt], outputs: [found] });
      b.addOperator({ op: BuiltinOperator.HASHTABLE_SIZE, inputs: [h], outputs: [size] });
      inputs.push(keys, values, query, dflt);
      outputs.push(found, size);
    }
    return b.setInputs(inputs).setOutputs(outputs);
  }

  const int64Values = (it: MicroInterpreter, j: number): number[] => Array.from(it.output(j).data as BigInt64Array, Number);

  function feed(it: MicroInterpreter, first: number, t: Table, queries: Uint8Array, dflt: Uint8Array): void {
    it.setInput(first, t.keys);
    it.setInput(first + 1, t.values);
    it.setInput(first + 2, queries);
    it.setInput(first + 3, dflt);
  }

  /** setInput takes serialized string bytes as they are; int64 bytes as raw bytes too. */
  const STRING_TO_INT64 = (id: number, keys: string[], values: number[], queries: number): Table => ({
    id,
    keyType: S,
    valueType: I64,
    keys: strings(keys),
    values: int64s(values),
    count: keys.length,
    queries,
  });

  it('TestInt64ToStringHashtable', () => {
    const t: Table = { id: 1, keyType: I64, valueType: S, keys: int64s([1, 2, 3]), values: strings(['a', 'b', 'c']), count: 3, queries: 3 };
    const it = run(graph([t]));
    feed(it, 0, t, int64s([2, 3, 4]), strings(['d']));
    it.invoke();
    expect(it.outputStrings(0)).toEqual(['b', 'c', 'd']);
    expect(int64Values(it, 1)).toEqual([3]);
  });

  it('TestStringToInt64Hashtable', () => {
    const t = STRING_TO_INT64(1, ['A', 'B', 'C'], [4, 5, 6], 3);
    const it = run(graph([t]));
    feed(it, 0, t, strings(['B', 'C', 'D']), int64s([-1]));
    it.invoke();
    expect(int64Values(it, 0)).toEqual([5, 6, -1]);
    expect(int64Values(it, 1)).toEqual([3]);
  });

  it('TestNoImport', () => {
    const t = { ...STRING_TO_INT64(1, ['1', '2', '3'], [4, 5, 6], 3), imports: 0 };
    const it = run(graph([t]));
    feed(it, 0, t, strings(['1', '2', '3']), int64s([-1]));
    expect(() => it.invoke()).toThrow(/hashtable need to be initialized before using/);
  });

  it('TestImportTwice (the second import is ignored)', () => {
    const t = { ...STRING_TO_INT64(1, ['1', '2', '3'], [4, 5, 6], 3), imports: 2 };
    const it = run(graph([t]));
    feed(it, 0, t, strings(['2', '3', '4']), int64s([-1]));
    it.invoke();
    expect(int64Values(it, 0)).toEqual([5, 6, -1]);
    expect(int64Values(it, 1)).toEqual([3]);
    // Later invokes keep the first import's pairs, as TFLite's table does (inputs are set again: the
    // planner may reuse a graph input's bytes after its last reader).
    feed(it, 0, { ...t, values: int64s([7, 8, 9]) }, strings(['2', '3', '4']), int64s([-1]));
    it.invoke();
    expect(int64Values(it, 0)).toEqual([5, 6, -1]);
  });

  it('TestTwoHashtables', () => {
    const one = STRING_TO_INT64(1, ['1', '2', '3'], [4, 5, 6], 3);
    const two = STRING_TO_INT64(2, ['-1', '-2', '-3'], [7, 8, 9], 3);
    const it = run(graph([one, two]));
    feed(it, 0, one, strings(['2', '3', '4']), int64s([-1]));
    feed(it, 4, two, strings(['-4', '-2', '-3']), int64s([-2]));
    it.invoke();
    expect(int64Values(it, 0)).toEqual([5, 6, -1]);
    expect(int64Values(it, 1)).toEqual([3]);
    expect(int64Values(it, 2)).toEqual([-2, 8, 9]);
    expect(int64Values(it, 3)).toEqual([3]);
  });

  it('TestImportDifferentKeyAndValueSize is refused', () => {
    const b = new ModelBuilder();
    const h = b.addTensor({ name: 'table', type: TensorType.RESOURCE, shape: [] });
    b.addOperator({ op: BuiltinOperator.HASHTABLE, inputs: [], outputs: [h], options: { tableId: 1, keyDtype: S, valueDtype: I64 } });
    const keys = b.addTensor({ name: 'keys', type: S, shape: [3], data: strings(['1', '2', '3']) });
    const values = b.addTensor({ name: 'values', type: I64, shape: [2], data: int64s([4, 5]) });
    b.addOperator({ op: BuiltinOperator.HASHTABLE_IMPORT, inputs: [h, keys, values], outputs: [] });
    expect(() => run(b)).toThrow(/must have one shape/);
  });

  it('a repeated key keeps its first value; the size counts distinct keys', () => {
    const t = STRING_TO_INT64(1, ['x', 'y', 'x', 'z'], [1, 2, 3, 4], 4);
    const it = run(graph([t]));
    feed(it, 0, t, strings(['x', 'y', 'z', '']), int64s([0]));
    it.invoke();
    expect(int64Values(it, 0)).toEqual([1, 2, 4, 0]);
    expect(int64Values(it, 1)).toEqual([3]);
  });
});
