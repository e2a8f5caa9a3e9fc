/**
 * The reference kernels' in-place variants (DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D, PAD/PADV2)
 * run on really aliased buffers — the output written over its input from the input's first byte — for
 * float32, int8, int16 and uint8, on random shapes (strides 1 and 2, dilation, SAME and VALID, batches):
 * the bytes equal the normal kernels'. Each model is input → MAX_POOL_2D 1x1 → X → op → Y → MAX_POOL_2D
 * 1x1 → output, so X and Y are planned tensors and X dies at the op.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, Padding, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { createSchedule, scheduleReport } from '@micrort/schedules';
import { AlwaysSharePlanner } from '@micrort/test-support/always-share';
import { Rng } from '@micrort/test-support/spatial-models';
import { registerReferenceOps } from '../src/index.js';

type Kind = 'float32' | 'int8' | 'int16' | 'uint8';
type Op = 'dw' | 'maxpool' | 'avgpool' | 'pad' | 'padv2';
const TYPE: Record<Kind, TensorType> = {
  float32: TensorType.FLOAT32,
  int8: TensorType.INT8,
  int16: TensorType.INT16,
  uint8: TensorType.UINT8,
};

function model(r: Rng, kind: Kind, op: Op): Uint8Array {
  const b = new ModelBuilder();
  const T = TYPE[kind];
  const q =
    kind === 'float32'
      ? undefined
      : { scale: 0.05 + r.next() * 0.05, zeroPoint: kind === 'int16' ? 0 : kind === 'uint8' ? r.int(100, 150) : r.int(-10, 10) };
  const n = r.int(1, 2);
  const h = r.int(3, 13);
  const w = r.int(3, 13);
  const c = r.int(1, 6);
  const act = (shape: number[], name: string, quant = q) =>
    b.addTensor({ name, type: T, shape, ...(quant ? { quantization: quant } : {}) });
  const input = act([n, h, w, c], 'input');
  const x = act([n, h, w, c], 'x');
  const identity = { padding: Padding.VALID, strideH: 1, strideW: 1, filterHeight: 1, filterWidth: 1 };
  b.addOperator({ op: BuiltinOperator.MAX_POOL_2D, inputs: [input], outputs: [x], options: identity });
  let y: number;
  let oh: number;
  let ow: number;
  if (op === 'pad' || op === 'padv2') {
    const p = [0, 0, r.int(0, 2), r.int(0, 2), r.int(0, 2), r.int(0, 2), 0, 0];
    oh = h + p[2]! + p[3]!;
    ow = w + p[4]! + p[5]!;
    y = act([n, oh, ow, c], 'y');
    const paddings = b.addTensor({ name: 'paddings', type: TensorType.INT32, shape: [4, 2], data: Int32Array.from(p) });
    const inputs = [x, paddings];
    if (op === 'padv2') {
      const value =
        kind === 'float32'
          ? new Float32Array([1.5])
          : kind === 'int16'
            ? new Int16Array([7])
            : kind === 'uint8'
              ? new Uint8Array([q!.zeroPoint + 3])
              : new Int8Array([q!.zeroPoint + 3]);
      inputs.push(b.addTensor({ name: 'value', type: T, shape: [1], data: value, ...(q ? { quantization: q } : {}) }));
    }
    b.addOperator({ op: op === 'pad' ? BuiltinOperator.PAD : BuiltinOperator.PADV2, inputs, outputs: [y] });
  } else {
    const k = r.int(1, 3);
    const s = r.int(1, 2);
    const d = op === 'dw' && k > 1 && r.next() < 0.3 ? 2 : 1;
    let padding = r.next() < 0.5 ? Padding.SAME : Padding.VALID;
    const size = (x: number) => (padding === Padding.SAME ? Math.ceil(x / s) : Math.floor((x - (k - 1) * d - 1) / s) + 1);
    if (size(h) < 1 || size(w) < 1) padding = Padding.SAME;
    oh = size(h);
    ow = size(w);
    if (op === 'dw') {
      const fScales = Array.from({ length: c }, () => 0.01 + r.next() * 0.02);
      const count = k * k * c;
      const filter =
        kind === 'float32'
          ? b.addTensor({ name: 'f', type: T, shape: [1, k, k, c], data: Float32Array.from({ length: count }, () => r.next() * 2 - 1) })
          : kind === 'uint8'
            ? b.addTensor({
                name: 'f',
                type: TensorType.UINT8,
                shape: [1, k, k, c],
                data: Uint8Array.from({ length: count }, () => r.int(0, 255)),
                quantization: { scale: 0.02, zeroPoint: 127 },
              })
            : b.addTensor({
                name: 'f',
                type: TensorType.INT8,
                shape: [1, k, k, c],
                data: Int8Array.from({ length: count }, () => r.int(-127, 127)),
                quantization: { scale: fScales, zeroPoint: fScales.map(() => 0), quantizedDimension: 3 },
              });
      const biasScale = (i: number) => q!.scale * (kind === 'uint8' ? 0.02 : fScales[i]!);
      const bias =
        kind === 'float32'
          ? b.addTensor({ name: 'bias', type: T, shape: [c], data: Float32Array.from({ length: c }, () => r.next() - 0.5) })
          : kind === 'int16'
            ? b.addTensor({
                name: 'bias',
                type: TensorType.INT64,
                shape: [c],
                data: BigInt64Array.from({ length: c }, () => BigInt(r.int(-2000, 2000))),
                quantization: { scale: fScales.map((_, i) => biasScale(i)), zeroPoint: fScales.map(() => 0), quantizedDimension: 0 },
              })
            : b.addTensor({
                name: 'bias',
                type: TensorType.INT32,
                shape: [c],
                data: Int32Array.from({ length: c }, () => r.int(-500, 500)),
                quantization:
                  kind === 'uint8'
                    ? { scale: biasScale(0) }
                    : { scale: fScales.map((_, i) => biasScale(i)), zeroPoint: fScales.map(() => 0), quantizedDimension: 0 },
              });
      y = act([n, oh, ow, c], 'y', q ? { scale: q.scale * 2, zeroPoint: q.zeroPoint } : undefined);
      b.addOperator({
        op: BuiltinOperator.DEPTHWISE_CONV_2D,
        version: kind === 'int16' ? 5 : 3,
        inputs: [x, filter, bias],
        outputs: [y],
        options: { padding, strideH: s, strideW: s, dilationHFactor: d, dilationWFactor: d, depthMultiplier: 1 },
      });
    } else {
      y = act([n, oh, ow, c], 'y');
      b.addOperator({
        op: op === 'maxpool' ? BuiltinOperator.MAX_POOL_2D : BuiltinOperator.AVERAGE_POOL_2D,
        inputs: [x],
        outputs: [y],
        options: { padding, strideH: s, strideW: s, filterHeight: k, filterWidth: k },
      });
    }
  }
  const out = act([n, oh, ow, c], 'output', op === 'dw' && q ? { scale: q.scale * 2, zeroPoint: q.zeroPoint } : q);
  b.addOperator({ op: BuiltinOperator.MAX_POOL_2D, inputs: [y], outputs: [out], options: identity });
  b.setInputs([input]).setOutputs([out]);
  return b.build();
}

function run(bytes: Uint8Array, schedule: 'normal' | 'inplace', seed: number) {
  // Every variant that may run, on buffers really shared (greedy would keep pairs apart when that is smaller).
  const planner = schedule === 'inplace' ? new AlwaysSharePlanner() : createPlanner('greedy');
  const interp = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner,
    schedule: createSchedule({ name: schedule, inPlaceVariants: 'all' }),
  }).allocateTensors();
  const r = new Rng(seed);
  const input = interp.input(0);
  for (let i = 0; i < input.bytes.length; i++) input.bytes[i] = r.int(0, 255);
  if (input.type === TensorType.FLOAT32) (input.data as Float32Array).forEach((_, i, a) => (a[i] = r.next() * 4 - 2));
  interp.invoke();
  return { out: Array.from(interp.output(0).bytes), interp };
}

describe('in-place variants of the reference kernels on aliased buffers', () => {
  for (const op of ['dw', 'maxpool', 'avgpool', 'pad', 'padv2'] as const) {
    for (const kind of ['float32', 'int8', 'int16', 'uint8'] as const) {
      it(`${op} ${kind}: equals the normal kernel`, () => {
        for (let seed = 1; seed <= 12; seed++) {
          const bytes = model(new Rng(seed * 31 + op.length), kind, op);
          const normal = run(bytes, 'normal', seed);
          const inPlace = run(bytes, 'inplace', seed);
          const granted = scheduleReport(inPlace.interp).inPlace!;
          expect(granted.map((g) => g.node)).toContain(1);
          const x = inPlace.interp.tensor(granted.find((g) => g.node === 1)!.input);
          const y = inPlace.interp.tensor(granted.find((g) => g.node === 1)!.output);
          expect(y.bytes.byteOffset).toBe(x.bytes.byteOffset);
          expect(inPlace.out).toEqual(normal.out);
        }
      });
    }
  }
});
