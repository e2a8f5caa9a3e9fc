/**
 * The math kernels that declare `Registration.inPlace` stay exact when their output really shares its
 * input's bytes: chains of them run with `inPlace: true` (each intermediate dies at the next node, so the
 * allocator pairs it) and give the same bytes as without sharing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel, type BuiltinOptionsSpec } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { registerReferenceOps } from '../src/index.js';

interface Step {
  op: BuiltinOperator;
  type: TensorType;
  /** Extra constant inputs after the chained one. */
  extra?: { type: TensorType; shape: number[]; data: ArrayBufferView; scale?: number; zeroPoint?: number }[];
  scale?: number;
  zeroPoint?: number;
  options?: BuiltinOptionsSpec;
}

/** input -> step 0 -> step 1 -> ... -> output, every tensor of `shape`. */
function chain(shape: number[], input: { type: TensorType; scale?: number; zeroPoint?: number }, steps: Step[]): Uint8Array {
  const b = new ModelBuilder();
  const q = (scale?: number, zeroPoint?: number) => (scale === undefined ? undefined : { scale, zeroPoint: zeroPoint ?? 0 });
  const x = b.addTensor({ name: 'x', type: input.type, shape, quantization: q(input.scale, input.zeroPoint) });
  let prev = x;
  steps.forEach((s, k) => {
    const extras = (s.extra ?? []).map((e, j) =>
      b.addTensor({ name: `c${k}_${j}`, type: e.type, shape: e.shape, data: e.data, quantization: q(e.scale, e.zeroPoint) }),
    );
    const out = b.addTensor({ name: `t${k}`, type: s.type, shape, quantization: q(s.scale, s.zeroPoint) });
    b.addOperator({ op: s.op, inputs: [prev, ...extras], outputs: [out], options: s.options });
    prev = out;
  });
  return b.setInputs([x]).setOutputs([prev]).build();
}

function runModel(bytes: Uint8Array, input: Uint8Array, inPlace: boolean): { out: Uint8Array; pairs: number } {
  const interp = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    arena: 'auto',
    inPlace,
  }).allocateTensors();
  interp.setInput(0, input);
  interp.invoke();
  const plan = interp.memoryPlan();
  for (const p of plan.inPlacePairs) expect(interp.tensor(p.output).bytes.byteOffset).toBe(interp.tensor(p.input).bytes.byteOffset);
  const out = interp.output(0).bytes.slice();
  interp.dispose();
  return { out, pairs: plan.inPlacePairs.length };
}

function expectSameInPlace(bytes: Uint8Array, input: Uint8Array, minPairs: number): void {
  const shared = runModel(bytes, input, true);
  expect(shared.pairs).toBeGreaterThanOrEqual(minPairs);
  expect(Array.from(shared.out)).toEqual(Array.from(runModel(bytes, input, false).out));
}

const F32 = TensorType.FLOAT32;
const I8 = TensorType.INT8;

describe('math kernels in place', () => {
  it('float32 unary, activation and binary kernels', () => {
    const shape = [2, 3, 4];
    const data = Float32Array.from({ length: 24 }, (_, i) => Math.sin(i) * 3);
    const steps: Step[] = [
      { op: BuiltinOperator.NEG, type: F32 },
      { op: BuiltinOperator.SQUARE, type: F32 },
      { op: BuiltinOperator.SQRT, type: F32 },
      { op: BuiltinOperator.RSQRT, type: F32 },
      { op: BuiltinOperator.ROUND, type: F32 },
      { op: BuiltinOperator.HARD_SWISH, type: F32 },
      { op: BuiltinOperator.ELU, type: F32 },
      { op: BuiltinOperator.LOG_SOFTMAX, type: F32 },
      { op: BuiltinOperator.L2_NORMALIZATION, type: F32 },
      { op: BuiltinOperator.SQUARED_DIFFERENCE, type: F32, extra: [{ type: F32, shape: [4], data: Float32Array.from([0.5, -1, 2, 0]) }] },
      { op: BuiltinOperator.FLOOR_MOD, type: F32, extra: [{ type: F32, shape: [1], data: Float32Array.from([0.75]) }] },
      { op: BuiltinOperator.EXP, type: F32 },
      { op: BuiltinOperator.LOG, type: F32 },
    ];
    expectSameInPlace(chain(shape, { type: F32 }, steps), new Uint8Array(data.buffer), steps.length - 1);
  });

  it('int8 kernels, an int8 comparison into bool and bool logic', () => {
    const shape = [2, 8];
    const data = Int8Array.from({ length: 16 }, (_, i) => i * 16 - 128);
    const steps: Step[] = [
      { op: BuiltinOperator.HARD_SWISH, type: I8, scale: 0.05, zeroPoint: -100 },
      { op: BuiltinOperator.ELU, type: I8, scale: 0.04, zeroPoint: -20 },
      { op: BuiltinOperator.L2_NORMALIZATION, type: I8, scale: 1 / 128, zeroPoint: 0 },
      { op: BuiltinOperator.LOG_SOFTMAX, type: I8, scale: 16 / 256, zeroPoint: 127 },
      {
        op: BuiltinOperator.GREATER,
        type: TensorType.BOOL,
        extra: [{ type: I8, shape: [8], data: Int8Array.from([120, 100, 80, 60, 40, 20, 0, -20]), scale: 16 / 256, zeroPoint: 127 }],
      },
      { op: BuiltinOperator.LOGICAL_NOT, type: TensorType.BOOL },
      {
        op: BuiltinOperator.LOGICAL_OR,
        type: TensorType.BOOL,
        extra: [{ type: TensorType.BOOL, shape: [8], data: Uint8Array.from([0, 1, 0, 0, 0, 0, 0, 1]) }],
      },
    ];
    expectSameInPlace(chain(shape, { type: I8, scale: 0.1, zeroPoint: 0 }, steps), new Uint8Array(data.buffer), steps.length - 1);
  });
});
