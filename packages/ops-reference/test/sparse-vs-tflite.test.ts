/**
 * Sparse weights against TFLite (the oracle): converter-shaped models built with ModelBuilder (DENSIFY
 * feeding FULLY_CONNECTED, DEQUANTIZE → CONV_2D, and int8), and the real MediaPipe file
 * face_detection_full_range_sparse (46 float16 sparse weight tensors).
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator as Op,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  loadModel,
  writeModel,
  type ModelDef,
} from '@micrort/core';
import { corpusBytes } from '@micrort/corpus';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import {
  compareWithTflite,
  ORACLE_SKIP_REASON,
  oracleAvailable,
  randomInputs,
  runTflite,
  TfliteOracle,
} from '@micrort/test-support/tflite-oracle';
import { denseToSparse, type SparseSpec } from '../src/kernels/__fixtures__/sparse-testing.js';
import { rng } from './uint8-models.js';

if (!oracleAvailable) it.skip(`sparse models vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

/** Random weights with about 30 % non-zero. */
function sparseWeights(next: () => number, n: number, round: (x: number) => number): number[] {
  return Array.from({ length: n }, () => (next() < 0.3 ? round(next() * 2 - 1) : 0));
}

function halfBits(x: number): number {
  // float32 → float16 bits for values in (-1, 1) with 10 mantissa bits kept (exact for our inputs)
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return s | ((e + 15) << 10) | m;
}

function fcModel(seed: number, spec: SparseSpec): Uint8Array {
  const next = rng(seed);
  const b = new ModelBuilder();
  const dense = sparseWeights(next, 8 * 16, (x) => Math.fround(x));
  const { sparsity, values } = denseToSparse(dense, [8, 16], spec);
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 16] });
  const ws = b.addTensor({ name: 'w_sparse', type: TensorType.FLOAT32, shape: [8, 16], data: Float32Array.from(values), sparsity });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [8, 16] });
  const bias = b.addTensor({
    name: 'bias',
    type: TensorType.FLOAT32,
    shape: [8],
    data: Float32Array.from({ length: 8 }, () => next() - 0.5),
  });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2, 8] });
  b.addOperator({ op: Op.DENSIFY, inputs: [ws], outputs: [w] });
  b.addOperator({ op: Op.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

function float16ConvModel(seed: number): Uint8Array {
  const next = rng(seed);
  const b = new ModelBuilder();
  const dense = sparseWeights(next, 8 * 32, (x) => Math.round(x * 1024) / 1024).map(halfBits);
  const { sparsity, values } = denseToSparse(dense, [8, 1, 1, 32], { sparse: [false, false, false, true] });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 5, 5, 32] });
  const ws = b.addTensor({ name: 'w_sparse', type: TensorType.FLOAT16, shape: [8, 1, 1, 32], data: Uint16Array.from(values), sparsity });
  const w16 = b.addTensor({ name: 'w16', type: TensorType.FLOAT16, shape: [8, 1, 1, 32] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [8, 1, 1, 32] });
  const bias = b.addTensor({
    name: 'bias',
    type: TensorType.FLOAT32,
    shape: [8],
    data: Float32Array.from({ length: 8 }, () => next() - 0.5),
  });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 5, 5, 8] });
  b.addOperator({ op: Op.DENSIFY, inputs: [ws], outputs: [w16] });
  b.addOperator({ op: Op.DEQUANTIZE, inputs: [w16], outputs: [w] });
  b.addOperator({ op: Op.CONV_2D, inputs: [x, w, bias], outputs: [y], options: { strideH: 1, strideW: 1 } });
  return b.setInputs([x]).setOutputs([y]).build();
}

function int8Model(seed: number): Uint8Array {
  const next = rng(seed);
  const b = new ModelBuilder();
  const dense = sparseWeights(next, 6 * 12, (x) => Math.round(x * 127));
  const { sparsity, values } = denseToSparse(dense, [6, 12], { blockMap: [1], blockSizes: [4], sparse: [false, true, false] });
  const q = { scale: 0.01, zeroPoint: 0 };
  const ws = b.addTensor({
    name: 'w_sparse',
    type: TensorType.INT8,
    shape: [6, 12],
    data: Int8Array.from(values),
    sparsity,
    quantization: q,
  });
  const w = b.addTensor({ name: 'w', type: TensorType.INT8, shape: [6, 12], quantization: q });
  b.addOperator({ op: Op.DENSIFY, inputs: [ws], outputs: [w] });
  return b.setInputs([]).setOutputs([w]).build();
}

/** The DENSIFY nodes of a model and the DEQUANTIZE nodes reading them, as a model whose outputs are the float32 weights. */
function densifiedWeightsModel(def: ModelDef): Uint8Array {
  const sg = def.subgraphs[0]!;
  const code = (i: number) => def.operatorCodes[sg.operators[i]!.opcodeIndex]!.builtinCode;
  const densify = sg.operators.filter((_, i) => code(i) === Op.DENSIFY);
  const dense = new Set(densify.map((op) => op.outputs[0]!));
  const dequantize = sg.operators.filter((op, i) => code(i) === Op.DEQUANTIZE && dense.has(op.inputs[0]!));
  const outputs = Int32Array.from(dequantize.map((op) => op.outputs[0]!));
  return writeModel({ ...def, subgraphs: [{ ...sg, inputs: new Int32Array(0), outputs, operators: [...densify, ...dequantize] }] });
}

describe.skipIf(!oracleAvailable)('sparse models vs TFLite', () => {
  it('float32 DENSIFY → FULLY_CONNECTED: CSR, 1x4 blocks (TFLite sparse FC), column-major traversal', () => {
    const specs: SparseSpec[] = [
      { sparse: [false, true] },
      { blockMap: [1], blockSizes: [4], sparse: [false, true, false] },
      { order: [1, 0], sparse: [true, true] },
    ];
    specs.forEach((spec, k) => {
      const bytes = fcModel(40 + k, spec);
      const cmp = compareWithTflite(bytes, randomInputs(new TfliteOracle(bytes).inputs, 5 + k));
      expect(cmp.outputs.map((o) => o.mismatches)).toEqual([0]);
    });
  });

  it('float16 DENSIFY → DEQUANTIZE → CONV_2D (the MediaPipe pattern), and int8 DENSIFY byte for byte', () => {
    const conv = float16ConvModel(50);
    expect(compareWithTflite(conv, randomInputs(new TfliteOracle(conv).inputs)).outputs.map((o) => o.mismatches)).toEqual([0]);
    const i8 = int8Model(51);
    const cmp = compareWithTflite(i8, []);
    expect(cmp.pass).toBe(true);
    expect(cmp.got[0]!.some((v) => v !== 0)).toBe(true);
  });

  it('face_detection_full_range_sparse: all 46 sparse float16 weights densify (and dequantize) exactly as TFLite', () => {
    const def = loadModel(corpusBytes('face_detection_full_range_sparse'));
    const bytes = densifiedWeightsModel(def);
    const expected = runTflite(bytes, []).outputBytes;
    expect(expected.length).toBe(46);
    const interp = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
      arena: 'auto',
    }).allocateTensors();
    interp.invoke();
    expected.forEach((e, j) => expect(Buffer.compare(Buffer.from(interp.output(j).bytes), Buffer.from(e))).toBe(0));
    // dense float16 (2 bytes per weight) and folded float32 (4 bytes) both persistent; nothing planned
    const u = interp.arenaUsage();
    const weights = expected.reduce((n, e) => n + e.byteLength / 4, 0);
    expect(u.headBytes).toBe(0);
    expect(u.persistentBufferBytes).toBeGreaterThanOrEqual(weights * 6);
    console.log(
      `face_detection_full_range_sparse: ${weights} weights in 46 sparse tensors (${def.subgraphs[0]!.tensors.filter((t) => t.sparsity).reduce((n, t) => n + def.buffers[t.buffer]!.data.byteLength, 0)} bytes stored) → ${u.persistentBufferBytes} persistent arena bytes after DENSIFY + DEQUANTIZE`,
    );
  });

  it('face_detection_full_range_sparse runs whole (DENSIFY, DEQUANTIZE, RESIZE_BILINEAR, DEPTH_TO_SPACE, ...) and matches TFLite', (ctx) => {
    const bytes = corpusBytes('face_detection_full_range_sparse');
    let missing: string | null = null;
    try {
      new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
        arena: 'auto',
      }).allocateTensors();
    } catch (e) {
      missing = (e as Error).message;
    }
    if (missing !== null && /no kernel registered/.test(missing)) ctx.skip(`needs kernels ops-reference lacks: ${missing}`);
    expect(missing).toBeNull();
    const cmp = compareWithTflite(bytes, randomInputs(new TfliteOracle(bytes).inputs), { relativeToMax: 1e-6 });
    expect(cmp.outputs.map((o) => o.mismatches)).toEqual(cmp.outputs.map(() => 0));
  });
});
