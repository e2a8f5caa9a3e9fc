/**
 * The StableHLO builtins of LiteRT's BuiltinOpResolver (and DILATE, REDUCE_WINDOW) on the models of
 * test-support's stablehlo-models.ts, with values worked out by hand from LiteRT's kernels (the
 * wrap-around, NaN and rounding cases included); LiteRT.js runs the same models on random inputs in
 * benchmarks/src/litert-parity.test.ts. Also: invoke allocates nothing, region subgraphs are read and not
 * prepared, and malformed options are refused naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, KernelError, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { caseModel, stablehloModels } from '@micrort/test-support/stablehlo-models';
import { floatToHalf, halfToFloatTable } from '../src/kernels/stablehlo-elementwise-common.js';
import { registerReferenceOps } from '../src/index.js';

const models = new Map(stablehloModels().map((m) => [m.name, m.bytes]));

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
}

/** Runs model `name` on `inputs` (typed arrays, in graph input order) and returns output 0's bytes. */
function run(name: string | Uint8Array, ...inputs: ArrayBufferView[]): Uint8Array {
  const interp = interpreter(typeof name === 'string' ? models.get(name)! : name);
  inputs.forEach((x, i) => interp.setInput(i, new Uint8Array(x.buffer, x.byteOffset, x.byteLength).slice().buffer));
  interp.invoke();
  const out = interp.output(0).bytes.slice();
  interp.dispose();
  return out;
}
const f32 = (b: Uint8Array) => Array.from(new Float32Array(b.buffer));
const i64 = (b: Uint8Array) => Array.from(new BigInt64Array(b.buffer), (x) => x.toString());

describe('STABLEHLO element-wise ops', () => {
  it('wrap integers as C++ does, int64 and uint64 included', () => {
    const a8 = Int8Array.of(100, -128, 127, 5, -1, 0);
    const b8 = Int8Array.of(100, -1, 1, 3, -1, 7);
    expect(Array.from(new Int8Array(run('STABLEHLO_ADD int8', a8, b8).buffer))).toEqual([-56, 127, -128, 8, -2, 7]);
    expect(Array.from(new Int8Array(run('STABLEHLO_MULTIPLY int8', a8, b8).buffer))).toEqual([16, -128, 127, 15, 1, 0]);
    const a64 = BigInt64Array.of(0xffffffffn, -1n, 2n ** 62n, -(2n ** 63n), 123456789012345n, 7n);
    const b64 = BigInt64Array.of(1n, -1n, 4n, -1n, 987654321n, -9n);
    expect(i64(run('STABLEHLO_ADD int64', a64, b64))).toEqual([
      '4294967296',
      '-2',
      '4611686018427387908',
      '9223372036854775807',
      '123457776666666',
      '-2',
    ]);
    expect(i64(run('STABLEHLO_MULTIPLY int64', a64, b64))).toEqual(
      [0xffffffffn, 1n, 0n, -(2n ** 63n), BigInt.asIntN(64, 123456789012345n * 987654321n), -63n].map(String),
    );
    expect(i64(run('STABLEHLO_MAXIMUM int64', a64, b64))).toEqual([
      '4294967295',
      '-1',
      '4611686018427387904',
      '-1',
      '123456789012345',
      '7',
    ]);
    const u = new BigUint64Array(run('STABLEHLO_MINIMUM uint64', a64, b64).buffer);
    expect(Array.from(u, String)).toEqual(['1', '18446744073709551615', '4', '9223372036854775808', '987654321', '7']);
    expect(
      Array.from(
        new Uint32Array(
          run('STABLEHLO_MULTIPLY uint32', Uint32Array.of(0xffffffff, 65536, 3, 0, 1, 2), Uint32Array.of(2, 65536, 5, 9, 1, 0x80000000))
            .buffer,
        ),
      ),
    ).toEqual([0xfffffffe, 0, 15, 0, 1, 0]);
  });

  it('keep std::max / std::min NaN semantics and bool logic', () => {
    const a = Float32Array.of(Number.NaN, 1, -0, 0, 2, -3);
    const b = Float32Array.of(1, Number.NaN, 0, -0, 3, -4);
    const max = f32(run('STABLEHLO_MAXIMUM float32', a, b));
    expect(max.map((x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x))).toEqual(['NaN', 1, '-0', 0, 3, -3]);
    const min = f32(run('STABLEHLO_MINIMUM float32', a, b));
    expect(min.map((x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x))).toEqual(['NaN', 1, '-0', 0, 2, -4]);
    const p = Uint8Array.of(0, 0, 1, 1, 1, 0);
    const q = Uint8Array.of(0, 1, 0, 1, 1, 1);
    expect(Array.from(run('STABLEHLO_ADD bool', p, q))).toEqual([0, 1, 1, 1, 1, 1]);
    expect(Array.from(run('STABLEHLO_MULTIPLY bool', p, q))).toEqual([0, 0, 0, 1, 1, 0]);
    expect(Array.from(run('STABLEHLO_AND bool', p, q))).toEqual([0, 0, 0, 1, 1, 0]);
    expect(
      Array.from(
        new Int16Array(
          run('STABLEHLO_AND int16', Int16Array.of(-1, 0x0ff0, 5, 0, -32768, 3), Int16Array.of(0x1234, 0x00ff, 3, 9, -1, 1)).buffer,
        ),
      ),
    ).toEqual([0x1234, 0x00f0, 1, 0, -32768, 1]);
  });

  it('round float16 arithmetic through float32 to nearest even, NaN keeping its sign', () => {
    const t = halfToFloatTable();
    expect([t[0x3c00], t[0x0001], t[0x7bff], t[0xfc00]]).toEqual([1, 2 ** -24, 65504, Number.NEGATIVE_INFINITY]);
    expect([
      floatToHalf(1),
      floatToHalf(1 + 2 ** -11),
      floatToHalf(1 + 3 * 2 ** -11),
      floatToHalf(65520),
      floatToHalf(2 ** -25),
      floatToHalf(3 * 2 ** -26),
    ]).toEqual([0x3c00, 0x3c00, 0x3c02, 0x7c00, 0x0000, 0x0001]);
    // 1 + 2^-11 (ties to even: 1), 2048 + 1 (ties to even: 2048), NaN + 1, 1 + (−NaN), ∞ − ∞ (x86's default NaN), 65504 + 16.
    const a = Uint16Array.of(0x3c00, 0x6800, 0x7e01, 0x3c00, 0x7c00, 0x7bff);
    const b = Uint16Array.of(0x1000, 0x3c00, 0x3c00, 0xfe00, 0xfc00, 0x4c00);
    expect(Array.from(new Uint16Array(run('STABLEHLO_ADD float16', a, b).buffer))).toEqual([
      0x3c00, 0x6800, 0x7e00, 0xfe00, 0xfe00, 0x7c00,
    ]);
  });

  it('STABLEHLO_SHIFT_LEFT narrows to the type and takes the count modulo 32', () => {
    expect(
      Array.from(new Int8Array(run('STABLEHLO_SHIFT_LEFT int8', Int8Array.of(1, 3, -1, 64, 1, 5), Int8Array.of(7, 2, 1, 1, 8, 0)).buffer)),
    ).toEqual([-128, 12, -2, -128, 0, 5]);
    expect(
      Array.from(
        new Int32Array(run('STABLEHLO_SHIFT_LEFT int32', Int32Array.of(1, 1, 3, -1, 7, 1), Int32Array.of(31, 33, 0, 4, 32, -1)).buffer),
      ),
    ).toEqual([-2147483648, 2, 3, -16, 7, -2147483648]);
  });
});

describe('STABLEHLO data movement', () => {
  it('STABLEHLO_PAD: interior padding, negative low padding (a crop), high padding', () => {
    // [[1 2 3], [4 5 6]], low (1, −1), high (0, 2), interior (1, 0), value 9.
    const y = f32(run('STABLEHLO_PAD float32', Float32Array.of(1, 2, 3, 4, 5, 6), Float32Array.of(9)));
    expect(y).toEqual([9, 9, 9, 9, 2, 3, 9, 9, 9, 9, 9, 9, 5, 6, 9, 9]);
  });

  it('STABLEHLO_GATHER clips the start indices so the slice fits (int32 and int64 indices)', () => {
    const operand = Float32Array.from({ length: 20 }, (_, i) => i);
    // Starts (2, 1), (9 → 3, 3 → 2), (−1 → 0, 7 → 2); slices of [1, 3].
    const expected = [11, 12, 13, 17, 18, 19, 2, 3, 4];
    expect(f32(run('STABLEHLO_GATHER float32, int32 indices', operand))).toEqual(expected);
    expect(f32(run('STABLEHLO_GATHER float32, int64 indices', operand))).toEqual(expected);
    const i8 = new Int8Array(
      run(
        'STABLEHLO_GATHER int8, int32 indices',
        Int8Array.from({ length: 20 }, (_, i) => i - 10),
      ).buffer,
    );
    expect(Array.from(i8)).toEqual(expected.map((x) => x - 10));
  });

  it('STABLEHLO_SCATTER: update, add (row 3 twice), multiply, max, min; an update outside the operand is skipped', () => {
    const operand = Float32Array.from({ length: 12 }, (_, i) => i + 1);
    const updates = Float32Array.of(10, 20, 30, 1, 2, 3, 100, 200, 300, 7, 8, 9);
    expect(f32(run('STABLEHLO_SCATTER float32, update', operand, updates))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 200, 300]);
    expect(f32(run('STABLEHLO_SCATTER float32, add', operand, updates))).toEqual([2, 4, 6, 4, 5, 6, 7, 8, 9, 120, 231, 342]);
    expect(f32(run('STABLEHLO_SCATTER float32, multiply', operand, updates))).toEqual([1, 4, 9, 4, 5, 6, 7, 8, 9, 10000, 44000, 108000]);
    expect(f32(run('STABLEHLO_SCATTER float32, maximum', operand, updates))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 200, 300]);
    expect(f32(run('STABLEHLO_SCATTER float32, minimum', operand, updates))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(
      i64(
        run(
          'STABLEHLO_SCATTER int64, add',
          BigInt64Array.from({ length: 12 }, () => 2n ** 40n),
          BigInt64Array.from({ length: 12 }, () => -1n),
        ),
      ),
    ).toEqual([...Array(3).fill(String(2n ** 40n - 1n)), ...Array(6).fill(String(2n ** 40n)), ...Array(3).fill(String(2n ** 40n - 2n))]);
  });

  it('DILATE spreads the input and fills the holes with the padding value', () => {
    const y = f32(run('DILATE float32', Float32Array.of(1, 2, 3, 4, 5, 6), Float32Array.of(0)));
    expect(y).toEqual([1, 0, 2, 0, 3, ...Array(10).fill(0), 4, 0, 5, 0, 6]);
  });
});

describe('reduce windows', () => {
  /** The reduce window of stablehlo-models.ts computed directly: dilate rows by 2, pad, windows [3, 2] dilated 2 on columns. */
  function reference(x: number[], init: number, op: (a: number, b: number) => number): number[] {
    const at = (n: number, h: number, w: number, c: number) => x[((n * 5 + h) * 4 + w) * 2 + c]!;
    const padded = (h: number, w: number, c: number): number => {
      const dh = h - 1; // low padding 1 on rows
      const dw = w - 1; // low padding 1 on columns
      if (dh < 0 || dh >= 9 || dw < 0 || dw >= 4 || dh % 2) return init;
      return at(0, dh / 2, dw, c);
    };
    const out: number[] = [];
    for (let oh = 0; oh < 4; oh++)
      for (let ow = 0; ow < 2; ow++)
        for (let c = 0; c < 2; c++) {
          let acc = init;
          for (let kh = 0; kh < 3; kh++) for (let kw = 0; kw < 2; kw++) acc = op(acc, padded(oh * 2 + kh, ow * 2 + kw * 2, c));
          out.push(acc);
        }
    return out;
  }
  const x = Array.from({ length: 40 }, (_, i) => ((i * 7) % 13) - 6);

  it('STABLEHLO_REDUCE_WINDOW with base dilation, padding, strides and window dilation (add, max, min)', () => {
    expect(f32(run('STABLEHLO_REDUCE_WINDOW float32, add', Float32Array.from(x), Float32Array.of(0.5)))).toEqual(
      reference(x, 0.5, (a, b) => a + b),
    );
    expect(f32(run('STABLEHLO_REDUCE_WINDOW float32, max', Float32Array.from(x), Float32Array.of(-100)))).toEqual(
      reference(x, -100, Math.max),
    );
    const i8 = new Int8Array(run('STABLEHLO_REDUCE_WINDOW int8, mul', Int8Array.from(x), Int8Array.of(3)).buffer);
    expect(Array.from(i8)).toEqual(reference(x, 3, (a, b) => (Math.imul(a, b) << 24) >> 24));
    expect(i64(run('STABLEHLO_REDUCE_WINDOW int64, min', BigInt64Array.from(x, BigInt), BigInt64Array.of(5n)))).toEqual(
      reference(x, 5, Math.min).map(String),
    );
  });

  it('REDUCE_WINDOW (deprecated) reads its window from int64 constants', () => {
    const v = Float32Array.from({ length: 20 }, (_, i) => i);
    // Windows [2, 2] with column dilation 2, strides (2, 1): sum of x[r][c], x[r][c+2], x[r+1][c], x[r+1][c+2].
    const expected = [0, 1, 2, 10, 11, 12].map((s) => v[s]! + v[s + 2]! + v[s + 5]! + v[s + 7]! + 1);
    expect(f32(run('REDUCE_WINDOW float32, add', v, Float32Array.of(1)))).toEqual(expected);
  });
});

describe('STABLEHLO_CASE', () => {
  it('runs the branch its index names, the last one for an index out of range', () => {
    const x = Float32Array.of(1, -2, 3, 4);
    const y = Float32Array.of(5, 6, -7, 0.5);
    const go = (i: number) => f32(run(caseModel(), Int32Array.of(i), x, y));
    expect(go(0)).toEqual([6, 4, -4, 4.5]);
    expect(go(1)).toEqual([5, -12, -21, 2]);
    expect(go(2)).toEqual([5, 6, 3, 4]);
    expect(go(7)).toEqual(go(2));
    expect(go(-1)).toEqual(go(2));
  });
});

describe('StableHLO models allocate nothing in invoke', () => {
  // One model per op and element-type family (float16, int64 and the typed-array ones take different
  // paths); each measured on its own, as a deployment runs one model.
  const picked = new Map<string, Uint8Array>();
  for (const m of stablehloModels()) {
    const family = m.name.includes('int64') ? 'int64' : m.name.includes('float16') ? 'float16' : 'typed';
    const key = `${m.op} ${family}`;
    if (!picked.has(key)) picked.set(key, m.bytes);
  }
  for (const [key, bytes] of picked) {
    it(key, () => {
      const interp = interpreter(bytes);
      const measure = measureAllocation(() => interp.invoke(), { warmup: 200, trials: 5, iterations: 200 });
      expect(measure.bytesPerCall, `heap deltas per trial: ${measure.deltas.join(', ')}`).toBeLessThan(1);
    });
  }
});

describe('regions and malformed StableHLO options', () => {
  it('a region subgraph is read, never prepared: a MUL on int64 scalars (no kernel for it) is fine there', () => {
    const out = run(
      'STABLEHLO_REDUCE_WINDOW int64, mul',
      BigInt64Array.from({ length: 40 }, () => 1n),
      BigInt64Array.of(1n),
    );
    expect(i64(out).every((v) => v === '1')).toBe(true);
  });

  function scatterWith(region: (b: ModelBuilder) => void): Uint8Array {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
    const idx = b.addTensor({ name: 'i', type: TensorType.INT32, shape: [1, 1], data: Int32Array.of(1) });
    const u = b.addTensor({ name: 'u', type: TensorType.FLOAT32, shape: [1] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
    b.addSubgraph('region');
    region(b);
    b.selectSubgraph(0);
    b.addOperator({
      op: BuiltinOperator.STABLEHLO_SCATTER,
      inputs: [x, idx, u],
      outputs: [y],
      builtinOptions2: {
        updateWindowDims: Int32Array.of(),
        insertedWindowDims: Int32Array.of(0),
        scatterDimsToOperandDims: Int32Array.of(0),
        indexVectorDim: 1,
        updateComputationSubgraphIndex: 1,
      },
    });
    return b.setInputs([x, u]).setOutputs([y]).build();
  }
  const refused = (bytes: Uint8Array): Error => {
    try {
      interpreter(bytes);
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected allocateTensors to fail');
  };

  it('STABLEHLO_SCATTER refuses a region of two operators or of an operator it cannot name', () => {
    const scalars = (b: ModelBuilder) => [0, 1, 2, 3].map((i) => b.addTensor({ name: `s${i}`, type: TensorType.FLOAT32, shape: [] }));
    const two = refused(
      scatterWith((b) => {
        const [p, q, r, s] = scalars(b);
        b.addOperator({ op: BuiltinOperator.STABLEHLO_ADD, inputs: [p!, q!], outputs: [r!] });
        b.addOperator({ op: BuiltinOperator.STABLEHLO_ADD, inputs: [r!, q!], outputs: [s!] });
        b.setInputs([p!, q!]).setOutputs([s!]);
      }),
    );
    expect(two).toBeInstanceOf(KernelError);
    expect(two.message).toMatch(/only one operator is allowed in the update computation, subgraph 1 has 2/);
    const sub = refused(
      scatterWith((b) => {
        const [p, q, r] = scalars(b);
        b.addOperator({ op: BuiltinOperator.SUB, inputs: [p!, q!], outputs: [r!] });
        b.setInputs([p!, q!]).setOutputs([r!]);
      }),
    );
    expect(sub.message).toMatch(/update computation SUB: only update, STABLEHLO_ADD, MULTIPLY, MAXIMUM and MINIMUM are supported/);
    // The well-formed control case: x with element 1 replaced.
    const ok = scatterWith((b) => {
      const [p, q] = scalars(b);
      b.setInputs([p!, q!]).setOutputs([q!]);
    });
    expect(f32(run(ok, Float32Array.of(1, 2, 3, 4), Float32Array.of(9)))).toEqual([1, 9, 3, 4]);
  });

  it('STABLEHLO_GATHER refuses options that would index outside the operand', () => {
    const gather = (options: Record<string, unknown>, outShape: number[]) => {
      const b = new ModelBuilder();
      const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4, 5] });
      const idx = b.addTensor({ name: 'i', type: TensorType.INT32, shape: [2, 1], data: Int32Array.of(0, 1) });
      const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: outShape });
      b.addOperator({
        op: BuiltinOperator.STABLEHLO_GATHER,
        inputs: [x, idx],
        outputs: [y],
        builtinOptions2: {
          offsetDims: Int32Array.of(1),
          collapsedSliceDims: Int32Array.of(0),
          startIndexMap: Int32Array.of(0),
          indexVectorDim: 1,
          sliceSizes: Int32Array.of(1, 5),
          ...options,
        },
      });
      return b.setInputs([x]).setOutputs([y]).build();
    };
    expect(() => interpreter(gather({}, [2, 5]))).not.toThrow();
    expect(refused(gather({ sliceSizes: Int32Array.of(1, 6) }, [2, 6])).message).toMatch(
      /slice_sizes\[1\] = 6 does not fit operand dimension 5/,
    );
    expect(refused(gather({ startIndexMap: Int32Array.of(2) }, [2, 5])).message).toMatch(
      /start_index_map\[0\] = 2 is not a dimension of a rank-2 tensor/,
    );
    expect(refused(gather({ collapsedSliceDims: Int32Array.of() }, [2, 5])).message).toMatch(
      /1 offset_dims and 0 collapsed_slice_dims do not make the operand's rank 2/,
    );
    expect(refused(gather({}, [2, 4])).message).toMatch(/output \(tensor 2\) has shape \[2, 4\]; the inputs give \[2, 5\]/);
  });
});
