/**
 * Data-dependent output sizes (issue 20, item 1) through the interpreter: WHERE, UNIQUE, TOPK_V2 with a
 * runtime k, NON_MAX_SUPPRESSION_V4/V5 with a constant or runtime max_output_size and SLICE by a runtime
 * size declare their upper bound in prepare and set the actual dims at every invoke; their consumers
 * (SQUEEZE, CAST, GATHER, SHAPE, NEG, RELU, RESHAPE, EXPAND_DIMS, CONCATENATION, STRIDED_SLICE) follow
 * the actual dims. One interpreter runs each
 * model over inputs whose actual sizes differ and is compared after every invoke with TFLite 2.9, which
 * allocates such tensors dynamically: the outputs' dims with TFLite's shapes after the run, the values
 * byte for byte (floats within 1e-5 + 1e-4·|TFLite|). Then the refusals: a consumer that sizes its work
 * in prepare (DataDependentShapeError naming the tensor) and an output with no provable bound
 * (UnboundedShapeError).
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  DataDependentShapeError,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  TensorType,
  loadModel,
  tensorTypeName,
} from '@micrort/core';
import { UnboundedShapeError } from '@micrort/kernel-support';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import {
  booleanMaskModel,
  dataDependentConsumersModel,
  maskedModel,
  nmsInputs,
  nmsTailModel,
  runtimeTopKModel,
  uniqueCountModel,
} from '@micrort/test-support/data-dependent-models';
import { compareOutput } from '@micrort/test-support/output-compare';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

const u8 = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const maxDiff = new Map<string, number>();

/**
 * Runs `bytes` on each input set through one micrort interpreter and one TFLite interpreter, comparing
 * every output's dims and values after each invoke; returns the dims of output `watch` per run.
 */
function compareRuns(name: string, bytes: Uint8Array, inputSets: readonly ArrayBufferView[][], watch = 0): string[] {
  const oracle = new TfliteOracle(bytes);
  const interp = interpreter(bytes).allocateTensors();
  const data = Array.from({ length: interp.outputsSize }, (_, j) => interp.output(j).data);
  const seen: string[] = [];
  for (const inputs of inputSets) {
    const raw = inputs.map(u8);
    const want = oracle.run(raw);
    raw.forEach((b, i) => interp.setInput(i, b));
    interp.invoke();
    for (let j = 0; j < interp.outputsSize; j++) {
      const t = interp.output(j);
      expect(t.data, 'an output stays a view of its planned bytes').toBe(data[j]);
      const got = { dtype: tensorTypeName(t.type), bytes: t.bytes.slice(0, t.byteLength), dims: Array.from(t.dims) };
      const d = compareOutput(got, { dtype: oracle.outputs[j]!.dtype, bytes: want[j]!, dims: oracle.lastOutputShapes[j]! });
      maxDiff.set(name, Math.max(maxDiff.get(name) ?? 0, d.maxAbsDiff));
      expect(d.ok, `${name} output ${j} (${t.name}) on inputs #${seen.length}: ${d.detail}`).toBe(true);
    }
    seen.push(Array.from(interp.output(watch).dims).join('x'));
  }
  interp.dispose();
  return seen;
}

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

describe.skipIf(!oracleAvailable)('data-dependent output sizes vs TFLite 2.9 (actual dims and values, one interpreter)', () => {
  it('boolean mask: GREATER → WHERE → SQUEEZE → CAST → GATHER → NEG, and SHAPE of the gathered values', () => {
    const sets = [
      [1, -2, 3, -4, 5, 0, 7, -8],
      [-1, -2, -3, -4, -5, -6, -7, -8],
      [1, 2, 3, 4, 5, 6, 7, 8],
      [0, 0, 0.5, 0, 0, 0, 0, 0],
      [-0, Number.NaN, 2, -3, 1e-30, 4, -5, 6],
    ].map((v) => [Float32Array.from(v)]);
    expect(compareRuns('boolean mask', booleanMaskModel(8), sets)).toEqual(['4', '0', '8', '1', '4']);
  });

  it('the unary elementwise kernels that follow actual dims, on the gathered positives', () => {
    const sets = [
      [1.5, -2, 3.25, -4, 0.5, 0, 7, -8],
      [-1, -2, -3, -4, -5, -6, -7, 2.75],
      [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    ].map((v) => [Float32Array.from(v)]);
    const ops: [keyof typeof BuiltinOperator, Record<string, unknown>?][] = [
      ['ABS'],
      ['RELU'],
      ['RELU6'],
      ['LEAKY_RELU', { alpha: 0.2 }],
      ['ELU'],
      ['HARD_SWISH'],
      ['LOGISTIC'],
      ['TANH'],
      ['SIN'],
      ['COS'],
      ['EXP'],
      ['LOG'],
      ['SQRT'],
      ['RSQRT'],
      ['SQUARE'],
      ['FLOOR'],
      ['CEIL'],
      ['ROUND'],
    ];
    for (const [op, options] of ops)
      expect(compareRuns(op, booleanMaskModel(8, BuiltinOperator[op], options), sets), op).toEqual(['4', '1', '8']);
  });

  it('UNIQUE → CAST and SHAPE (the distinct count)', () => {
    const sets = [
      [3, 1, 3, 2, 1, 7, 7, 3, 0, 2],
      [5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
      [-1, 2, -1, 2, -1, 2, -3, 4, -3, 4],
    ].map((v) => [Int32Array.from(v)]);
    expect(compareRuns('UNIQUE', uniqueCountModel(10), sets)).toEqual(['5', '1', '10', '4']);
  });

  it('TOPK_V2 with a runtime k (0, 1, 3 and n) → RELU', () => {
    const x = Float32Array.from([0.5, -1, 3, 3, 0, 2, -4, 1, 1, -1, 6, 0.25]);
    const sets = [3, 0, 6, 1].map((k) => [x, Int32Array.from([k])]);
    expect(compareRuns('TOPK_V2', runtimeTopKModel(2, 6), sets)).toEqual(['2x3', '2x0', '2x6', '2x1']);
  });

  for (const v5 of [false, true]) {
    const op = v5 ? 'NON_MAX_SUPPRESSION_V5' : 'NON_MAX_SUPPRESSION_V4';
    it(`${op} → SLICE by the valid count → GATHER of boxes and scores → EXPAND_DIMS → CONCATENATION, STRIDED_SLICE (constant max_output_size 5)`, () => {
      const sets = [1, 2, 3, 4, 5].map((seed) => {
        const { boxes, scores } = nmsInputs(8, seed);
        if (seed === 2) scores.forEach((_, i) => (scores[i] = i === 1 || i === 6 ? 0.9 - i / 100 : 0.05)); // two candidates
        if (seed === 3) for (let i = 4; i < 32; i++) boxes[i] = boxes[i % 4]!; // one box, eight times
        if (seed === 4) scores.fill(0.05); // nothing above the score threshold
        return [boxes, scores];
      });
      const kept = compareRuns(op, nmsTailModel({ v5 }), sets);
      expect(kept[3]).toBe('0x4');
      expect(new Set(kept).size, `kept boxes per run: ${kept.join(', ')}`).toBeGreaterThan(2);
    });

    it(`${op} with a runtime max_output_size: outputs bounded by the number of boxes, [max_output_size] at invoke`, () => {
      const { boxes, scores } = nmsInputs(8, 7);
      const sets = [5, 0, 8, 2, 3].map((m) => [boxes, scores, Int32Array.from([m])]);
      // output 2 is the NMS's own selected_indices: [max_output_size] (zeros past the valid count), as TFLite.
      expect(compareRuns(`${op} (runtime max)`, nmsTailModel({ v5, maxOutput: 'input' }), sets, 2)).toEqual(['5', '0', '8', '2', '3']);
    });

    it(`${op} with max_output_size above the number of boxes pads with zeros as TFLite (constant 12, runtime up to the stored 12; 8 boxes)`, () => {
      const { boxes, scores } = nmsInputs(8, 5);
      const sets = [1, 2, 3].map((seed) => Object.values(nmsInputs(8, seed)));
      expect(compareRuns(`${op} (constant max 12)`, nmsTailModel({ v5, maxOutput: 12 }), sets, 2)).toEqual(['12', '12', '12']);
      const runtime = [12, 9, 5, 0, 10].map((m) => [boxes, scores, Int32Array.from([m])]);
      expect(compareRuns(`${op} (runtime max, stored 12)`, nmsTailModel({ v5, maxOutput: 'input', stored: 12 }), runtime, 2)).toEqual([
        '12',
        '9',
        '5',
        '0',
        '10',
      ]);
    });
  }

  it('prints the largest float difference per model', () => {
    console.log([...maxDiff].map(([k, v]) => `${k}: max |Δ| ${v.toExponential(2)}`).join('\n'));
  });
});

describe('data-dependent output sizes: bounds, reports and refusals', () => {
  it('plans each data-dependent tensor at its bound; check() lists them as bounded; graph outputs report actual dims', () => {
    const interp = interpreter(booleanMaskModel(8)).allocateTensors();
    const bounded = (interp.check().shapes ?? []).filter((n) => n.kind === 'bounded');
    expect(bounded.map((n) => [n.name, n.shape, n.op])).toEqual([
      ['coords', [8, 1], 'WHERE'],
      ['coords/flat', [8], 'SQUEEZE'],
      ['coords/int32', [8], 'CAST'],
      ['positives', [8], 'GATHER'],
      ['negated', [8], 'NEG'],
    ]);
    expect(interp.output(0).byteLength).toBe(32); // the bound until the first invoke
    interp.setInput(0, Float32Array.from([-1, 2, -3, 4, -5, 6, -7, 8]));
    interp.invoke();
    expect(Array.from(interp.output(0).dims)).toEqual([4]);
    expect(Array.from((interp.output(0).data as Float32Array).subarray(0, 4))).toEqual([-2, -4, -6, -8]);
    expect(Array.from(interp.output(1).data as Int32Array)).toEqual([4]);
    expect(Array.from(interp.output(2).dims)).toEqual([4]);
    expect(Array.from((interp.output(2).data as Int32Array).subarray(0, 4))).toEqual([1, 3, 5, 7]);
  });

  it('check() lists the consumers of a data-dependent tensor as bounded, each at the shape its kernel derived from the bound', () => {
    const interp = interpreter(dataDependentConsumersModel(8)).allocateTensors();
    const bounded = (interp.check().shapes ?? [])
      .filter((n) => n.kind === 'bounded')
      .map((n) => `${n.op} ${n.name} [${n.shape.join(',')}]`);
    expect(bounded).toEqual([
      'WHERE coords [8,1]',
      'SQUEEZE coords/flat [8]',
      'CAST coords/int32 [8]',
      'GATHER positives [8]',
      'EXPAND_DIMS column [8,1]',
      'MUL scaled [8,1]',
      'CONCATENATION grid [8,2]',
      'SUM sum [8]',
      'MEAN mean [1,2]',
      'REDUCE_MAX max [2]',
      'SOFTMAX softmax [8,2]',
      'TRANSPOSE transposed [2,8]',
      'TILE tiled [16,2]',
      'PACK packed [8,2]',
      'UNPACK unpacked0 [8]',
      'UNPACK unpacked1 [8]',
      'GREATER above [8]',
      'SELECT_V2 selected [8]',
      'ADD shifted [8,2]',
      'LOG_SOFTMAX log_softmax [8]',
      'REDUCE_PROD prod [8]',
      'ARG_MAX argmax [8]',
      'SPLIT split0 [8,1]',
      'SPLIT split1 [8,1]',
    ]);
    interp.setInput(0, Float32Array.from([-1, 2, -3, 4, -5, 6, -7, 0]));
    interp.invoke();
    expect(Array.from(interp.output(4).dims), 'TRANSPOSE of [3, 2]').toEqual([2, 3]);
    expect(Array.from(interp.output(5).dims), 'TILE of [3, 2] by [2, 1]').toEqual([6, 2]);
    expect(Array.from(interp.output(0).data as Float32Array).slice(0, 3), 'SUM of each row: p - 1.5p').toEqual([-1, -2, -3]);
    interp.dispose();
  });

  it("shapes: 'file' (TFLM's rule) refuses a data-dependent output, naming the tensor", () => {
    const interp = new MicroInterpreter(loadModel(booleanMaskModel(8)), referenceResolver(), {
      planner: createPlanner('greedy'),
      arena: 'auto',
      shapes: 'file',
    });
    expect(() => interp.allocateTensors()).toThrow(/tensor 3 \(coords\) has a shape that depends on data \(at most \[8, 1\]\)/);
  });

  it('a consumer that sizes its work in prepare gets DataDependentShapeError naming the tensor and its bound', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [6] });
    const zero = b.addTensor({ name: 'zero', type: TensorType.FLOAT32, shape: [], data: new Float32Array([0]) });
    const mask = b.addTensor({ name: 'mask', type: TensorType.BOOL, shape: [6] });
    const coords = b.addTensor({ name: 'coords', type: TensorType.INT64, shape: [6, 1] });
    const asFloat = b.addTensor({ name: 'coords/float', type: TensorType.FLOAT32, shape: [6, 1] });
    const axis = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [], data: new Int32Array([0]) });
    const soft = b.addTensor({ name: 'cumsum', type: TensorType.FLOAT32, shape: [6, 1] });
    b.addOperator({ op: BuiltinOperator.GREATER, inputs: [x, zero], outputs: [mask] });
    b.addOperator({ op: BuiltinOperator.WHERE, inputs: [mask], outputs: [coords] });
    b.addOperator({ op: BuiltinOperator.CAST, inputs: [coords], outputs: [asFloat] });
    b.addOperator({ op: BuiltinOperator.CUMSUM, inputs: [asFloat, axis], outputs: [soft] });
    const bytes = b.setInputs([x]).setOutputs([soft]).build();
    const e = errorOf(() => interpreter(bytes).allocateTensors());
    const inner = e instanceof DataDependentShapeError ? e : (e as { cause?: unknown }).cause;
    expect(inner, `${e.constructor.name}: ${e.message}`).toBeInstanceOf(DataDependentShapeError);
    expect((inner as DataDependentShapeError).tensor).toBe(asFloat);
    expect((inner as DataDependentShapeError).upperBound).toEqual([6, 1]);
    expect((inner as DataDependentShapeError).message).toMatch(
      /input 0 \(tensor 4, coords\/float\) has a shape that depends on data \(at most \[6, 1\]\)/,
    );
    const report = interpreter(bytes).check();
    expect(report.nodes.filter((n) => n.status !== 'ok').map((n) => n.op)).toEqual(['CUMSUM']);
  });

  it('a kernel that follows actual dims for some types refuses the others with DataDependentShapeError (int8 REDUCE_PROD of a masked tensor)', () => {
    const model = maskedModel(
      (s) => {
        const axis = s.b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [1], data: new Int32Array([0]) });
        const prod = s.b.addTensor({ name: 'prod', type: TensorType.INT8, shape: [1], quantization: { scale: 0.5, zeroPoint: 0 } });
        s.b.addOperator({ op: BuiltinOperator.REDUCE_PROD, inputs: [s.positives, axis], outputs: [prod], options: { keepDims: true } });
        return [prod];
      },
      { type: TensorType.INT8, quantization: { scale: 0.05, zeroPoint: 0 } },
    );
    const e = errorOf(() => interpreter(model).allocateTensors());
    expect(`${e.message} ${String((e as { cause?: Error }).cause?.message ?? '')}`).toMatch(
      /input 0 \(tensor 6, positives\) has a shape that depends on data \(at most \[8\]\); the quantized rescaling depends on the number of reduced elements/,
    );
  });

  it('RANGE of runtime scalars has no bound: UnboundedShapeError naming the output tensor', () => {
    const b = new ModelBuilder();
    const [start, limit, delta] = ['start', 'limit', 'delta'].map((name) => b.addTensor({ name, type: TensorType.INT32, shape: [] }));
    const out = b.addTensor({ name: 'range', type: TensorType.INT32, shape: [4] });
    b.addOperator({ op: BuiltinOperator.RANGE, inputs: [start!, limit!, delta!], outputs: [out] });
    const e = errorOf(() => interpreter(b.setInputs([start!, limit!, delta!]).setOutputs([out]).build()).allocateTensors());
    const inner = e instanceof UnboundedShapeError ? e : (e as { cause?: unknown }).cause;
    expect(inner, `${e.constructor.name}: ${e.message}`).toBeInstanceOf(UnboundedShapeError);
    expect((inner as UnboundedShapeError).tensor).toBe(out);
    expect((inner as Error).message).toMatch(
      /output \(tensor 3, range\) has a shape that depends on data and no upper bound is known in prepare/,
    );
  });

  it('a runtime max_output_size above its bound (the boxes, or the stored length) fails that invoke with a KernelError; the next invoke runs', () => {
    const interp = interpreter(nmsTailModel({ maxOutput: 'input' })).allocateTensors();
    const { boxes, scores } = nmsInputs(8, 3);
    interp.setInput(0, u8(boxes));
    interp.setInput(1, u8(scores));
    interp.setInput(2, u8(Int32Array.from([9])));
    const e = errorOf(() => interp.invoke());
    const inner = e instanceof KernelError ? e : (e as { cause?: unknown }).cause;
    expect(String((inner as Error | undefined)?.message ?? e.message)).toMatch(
      /max_output_size 9 is more than the 8 planned \(the larger of the 8 boxes and the stored length of selected_indices\)/,
    );
    interp.setInput(2, u8(Int32Array.from([4])));
    interp.invoke();
    expect(Array.from(interp.output(2).dims)).toEqual([4]);
  });
});
