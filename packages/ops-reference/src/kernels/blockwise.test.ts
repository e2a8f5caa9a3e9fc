/**
 * Blockwise-quantized weights (LiteRT's BlockwiseQuantization) in FULLY_CONNECTED and EMBEDDING_LOOKUP:
 * hand-computed values, the dequantized float product on seeded models (test-support's blockwiseCases,
 * which the LiteRT.js test also runs), the refusals, and no allocation in invoke.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  loadModel,
  type ModelDef,
} from '@micrort/core';
import { halfToFloat } from '@micrort/kernel-support';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { blockwiseCases } from '@micrort/test-support/hybrid-models';
import { registerReferenceOps } from '../index.js';

/** q = [[1, -2, 3, 4], [-8, 7, 0, 1]] packed two per byte, low nibble first. */
const PACKED = new Uint8Array([0xe1, 0x43, 0x78, 0x10]);
/** Scales [[1, 0.5], [0.25, 2]] as float16 bits. */
const HALF_SCALES = new Uint16Array([0x3c00, 0x3800, 0x3400, 0x4000]);

interface Variant {
  op?: 'fc' | 'lookup';
  blockSize?: number;
  scaleShape?: number[];
  scaleType?: TensorType;
  zeroPoints?: Int8Array;
  weightType?: TensorType;
  activation?: ActivationFunctionType;
}

function model(v: Variant = {}): Uint8Array {
  const b = new ModelBuilder();
  const lookup = v.op === 'lookup';
  const x = lookup
    ? b.addTensor({ name: 'ids', type: TensorType.INT32, shape: [2] })
    : b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const scaleType = v.scaleType ?? TensorType.FLOAT16;
  const scaleShape = v.scaleShape ?? [2, 2];
  const n = scaleShape.reduce((a, c) => a * c, 1);
  const scales = b.addTensor({
    name: 'scales',
    type: scaleType,
    shape: scaleShape,
    data: scaleType === TensorType.FLOAT16 ? HALF_SCALES.slice(0, n) : new Int8Array(n),
  });
  const zeroPoints = v.zeroPoints ? b.addTensor({ name: 'zp', type: TensorType.INT8, shape: [2, 2], data: v.zeroPoints }) : -1;
  const w = b.addTensor({
    name: 'w',
    type: v.weightType ?? TensorType.INT4,
    shape: [2, 4],
    data: v.weightType === TensorType.INT8 ? new Int8Array(8) : PACKED,
    quantization: { scale: [], details: { kind: 'blockwise', scales, zeroPoints, blockSize: v.blockSize ?? 2 } },
  });
  if (lookup) {
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2, 4] });
    b.addOperator({ op: BuiltinOperator.EMBEDDING_LOOKUP, inputs: [x, w], outputs: [y] });
    return b.setInputs([x]).setOutputs([y]).build();
  }
  const bias = b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [2], data: new Float32Array([0.5, -1]) });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 2] });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    inputs: [x, w, bias],
    outputs: [y],
    options: { fusedActivationFunction: v.activation ?? ActivationFunctionType.NONE },
  });
  return b.setInputs([x]).setOutputs([y]).build();
}

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    arena: 'auto',
  });
}

function run(bytes: Uint8Array, input: Float32Array | Int32Array): number[] {
  const interp = interpreter(bytes).allocateTensors();
  interp.setInput(0, new Uint8Array(input.buffer));
  interp.invoke();
  const out = Array.from(interp.output(0).data as Float32Array);
  interp.dispose();
  return out;
}

const prepareError = (bytes: Uint8Array): Error => {
  try {
    interpreter(bytes).allocateTensors();
  } catch (e) {
    return e as Error;
  }
  throw new Error('allocateTensors succeeded');
};

/** Σ_c x·q·scale + bias per output, in double, from the model's own bytes (the reference value). */
function dequantizedProduct(def: ModelDef, input: Float32Array): Float32Array {
  const sg = def.subgraphs[0]!;
  const op = sg.operators[0]!;
  const [wIndex, bIndex] = [op.inputs[1]!, op.inputs[2]!];
  const w = sg.tensors[wIndex]!;
  const details = w.quantization!.details!;
  if (details.kind !== 'blockwise') throw new Error('not blockwise');
  const [rows, cols] = [w.shape[0]!, w.shape[1]!];
  const packed = def.buffers[w.buffer]!.data;
  const halves = new Uint16Array(def.buffers[sg.tensors[details.scales]!.buffer]!.data.slice().buffer);
  const bias = new Float32Array(def.buffers[sg.tensors[bIndex]!.buffer]!.data.slice().buffer);
  const batches = input.length / cols;
  const out = new Float32Array(batches * rows);
  for (let b = 0; b < batches; b++)
    for (let r = 0; r < rows; r++) {
      let total = 0;
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        const q = (((packed[i >> 1]! >> ((i & 1) * 4)) & 15) << 28) >> 28;
        total += input[b * cols + c]! * q * halfToFloat(halves[r * (cols / details.blockSize) + Math.floor(c / details.blockSize)]!);
      }
      out[b * rows + r] = total + bias[r]!;
    }
  return out;
}

describe('blockwise weights', () => {
  it('FULLY_CONNECTED: Σ blocks scale × Σ input × q, plus the bias, then the activation', () => {
    const x = new Float32Array([1, 2, 3, 4]);
    // row 0: (1 - 4)·1 + (9 + 16)·0.5 + 0.5 = 10; row 1: (-8 + 14)·0.25 + (0 + 4)·2 - 1 = 8.5
    expect(run(model(), x)).toEqual([10, 8.5]);
    expect(run(model({ activation: ActivationFunctionType.RELU6 }), x)).toEqual([6, 6]);
    expect(run(model({ zeroPoints: new Int8Array(4) }), x)).toEqual([10, 8.5]);
  });

  it('EMBEDDING_LOOKUP: each value times its block scale (TFLite EvalBlockwise)', () => {
    expect(run(model({ op: 'lookup' }), new Int32Array([1, 0]))).toEqual([-2, 1.75, 0, 2, 1, -2, 1.5, 2]);
  });

  it('FULLY_CONNECTED equals the dequantized float product on the seeded models', () => {
    for (const c of blockwiseCases().filter((k) => k.name.startsWith('FULLY_CONNECTED'))) {
      const input = new Float32Array(c.inputs[0]!.slice().buffer);
      const got = run(c.bytes, input);
      const want = dequantizedProduct(loadModel(c.bytes), input);
      const relu = c.name.includes('RELU');
      got.forEach((g, i) => {
        const w = relu ? Math.max(0, want[i]!) : want[i]!;
        expect(Math.abs(g - w), `${c.name} output ${i}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(w));
      });
    }
  });

  it('refuses non-zero zero points, rows that are not whole blocks, a wrong scale count or type, int8 values, TANH', () => {
    expect(prepareError(model({ zeroPoints: new Int8Array([0, 1, 0, 0]) })).message).toMatch(
      /zero points \(tensor 2\) must be constant zeros: TFLite's blockwise kernels are symmetric/,
    );
    expect(prepareError(model({ blockSize: 3 })).message).toMatch(/has 4 values per row, not a whole number of blocks of 3/);
    expect(prepareError(model({ scaleShape: [2, 1] })).message).toMatch(/scales \(tensor 1\) hold 2 values; 2 rows × 2 blocks need 4/);
    expect(prepareError(model({ scaleType: TensorType.INT8 })).message).toMatch(/scales \(tensor 1\) must be float16 or float32, got int8/);
    expect(prepareError(model({ weightType: TensorType.INT8 })).message).toMatch(/blockwise filter/);
    expect(prepareError(model({ op: 'lookup', blockSize: 3 })).message).toMatch(/blockwise table \(tensor 2\)/);
    expect(prepareError(model({ activation: ActivationFunctionType.TANH })).message).toMatch(/TANH/);
  });

  it('invoke allocates nothing', () => {
    for (const c of blockwiseCases()) {
      const interp = interpreter(c.bytes).allocateTensors();
      c.inputs.forEach((b, i) => interp.setInput(i, b));
      const m = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 5, iterations: 400, rounds: 6 });
      expect(m.bytesPerCall, `${c.name}: heap deltas per trial ${m.deltas.join(', ')}`).toBeLessThan(1);
      interp.dispose();
    }
  });
});
