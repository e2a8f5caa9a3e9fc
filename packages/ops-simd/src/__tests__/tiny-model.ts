/**
 * Test-only: a small hand-made int8 ModelDef that chains every ops-simd kernel and most CMSIS-NN paths
 * (im2col conv, 3x3 and opt depthwise, 1x1 conv, max and average pooling, ADD, MUL, FULLY_CONNECTED,
 * SOFTMAX), plus a no-reuse planner, for interpreter-level tests.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  Padding,
  TensorType,
  type BufferRequirement,
  type BuiltinOptions,
  type MemoryPlan,
  type MemoryPlanner,
  type ModelDef,
  type OperatorDef,
  type TensorDef,
} from '@micrort/core';
import { randomInt32, randomInt8, rng } from './reference-math.js';

/** No-reuse planner: every buffer gets its own range. */
export class LinearTestPlanner implements MemoryPlanner {
  readonly name = 'ops-simd-test-linear';
  plan(buffers: readonly BufferRequirement[]): MemoryPlan {
    const offsets = new Int32Array(buffers.length);
    let off = 0;
    buffers.forEach((b, i) => {
      offsets[i] = off;
      off += Math.ceil(b.size / 16) * 16;
    });
    return { offsets, headBytes: off };
  }
}

interface T {
  shape: number[];
  type?: TensorType;
  data?: Int8Array | Int32Array;
  scale: number | number[];
  zp?: number;
  qdim?: number;
}

/** The tiny model (input `[1, hw, hw, 3]`, `hw` even); outputs: the softmax and the first convolution. */
export function tinyInt8Model(seed = 1, hw = 6): ModelDef {
  const r = rng(seed);
  const tensors: T[] = [];
  const add = (t: T): number => tensors.push(t) - 1;
  const perCh = (n: number) => Array.from({ length: n }, (_, i) => 0.004 + 0.0003 * i);
  const conv = (inIdx: number, inC: number, outC: number, k: number, hw: number, outScale: number): number => {
    const w = add({ shape: [outC, k, k, inC], data: randomInt8(r, outC * k * k * inC), scale: perCh(outC), qdim: 0 });
    const b = add({ shape: [outC], type: TensorType.INT32, data: randomInt32(r, outC, 2000), scale: perCh(outC).map((s) => s * 0.05) });
    const o = add({ shape: [1, hw, hw, outC], scale: outScale, zp: -3 });
    ops.push({
      code: BuiltinOperator.CONV_2D,
      inputs: [inIdx, w, b],
      outputs: [o],
      options: {
        padding: Padding.SAME,
        strideW: 1,
        strideH: 1,
        fusedActivationFunction: ActivationFunctionType.RELU,
        dilationWFactor: 1,
        dilationHFactor: 1,
        quantizedBiasType: 0,
      },
    });
    return o;
  };
  const dw = (inIdx: number, c: number, k: number, hw: number): number => {
    const w = add({ shape: [1, k, k, c], data: randomInt8(r, k * k * c), scale: perCh(c), qdim: 3 });
    const b = add({ shape: [c], type: TensorType.INT32, data: randomInt32(r, c, 2000), scale: perCh(c).map((s) => s * 0.05) });
    const o = add({ shape: [1, hw, hw, c], scale: 0.08, zp: 2 });
    ops.push({
      code: BuiltinOperator.DEPTHWISE_CONV_2D,
      inputs: [inIdx, w, b],
      outputs: [o],
      options: {
        padding: Padding.SAME,
        strideW: 1,
        strideH: 1,
        depthMultiplier: 1,
        fusedActivationFunction: ActivationFunctionType.NONE,
        dilationWFactor: 1,
        dilationHFactor: 1,
      },
    });
    return o;
  };
  const ops: { code: BuiltinOperator; inputs: number[]; outputs: number[]; options: BuiltinOptions }[] = [];

  const input = add({ shape: [1, hw, hw, 3], scale: 0.05, zp: 1 });
  const half = hw / 2;
  const c1 = conv(input, 3, 8, 3, hw, 0.06); // arm_convolve_s8
  const d1 = dw(c1, 8, 3, hw); // arm_depthwise_conv_3x3_s8
  const d2 = dw(d1, 8, 5, hw); // arm_depthwise_conv_s8_opt (5x5, padding 2)
  const c2 = conv(d2, 8, 4, 1, hw, 0.1); // arm_convolve_1x1_s8_fast
  const mp = add({ shape: [1, half, half, 4], scale: 0.1, zp: -3 });
  ops.push({
    code: BuiltinOperator.MAX_POOL_2D,
    inputs: [c2],
    outputs: [mp],
    options: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2, fusedActivationFunction: 0 },
  });
  const ap = add({ shape: [1, 1, 1, 4], scale: 0.1, zp: -3 });
  ops.push({
    code: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [mp],
    outputs: [ap],
    options: { padding: Padding.VALID, strideW: 1, strideH: 1, filterWidth: half, filterHeight: half, fusedActivationFunction: 0 },
  });
  const sum = add({ shape: [1, 1, 1, 4], scale: 0.15, zp: 0 });
  ops.push({ code: BuiltinOperator.ADD, inputs: [ap, ap], outputs: [sum], options: { fusedActivationFunction: 0, potScaleInt16: true } });
  const prod = add({ shape: [1, 1, 1, 4], scale: 0.2, zp: 1 });
  ops.push({ code: BuiltinOperator.MUL, inputs: [sum, ap], outputs: [prod], options: { fusedActivationFunction: 0 } });
  const fw = add({ shape: [5, 4], data: randomInt8(r, 20), scale: 0.01 });
  const fb = add({ shape: [5], type: TensorType.INT32, data: randomInt32(r, 5, 500), scale: 0.002 });
  const fc = add({ shape: [1, 5], scale: 0.05, zp: 4 });
  ops.push({
    code: BuiltinOperator.FULLY_CONNECTED,
    inputs: [prod, fw, fb],
    outputs: [fc],
    options: {
      fusedActivationFunction: 0,
      weightsFormat: FullyConnectedWeightsFormat.DEFAULT,
      keepNumDims: false,
      asymmetricQuantizeInputs: false,
      quantizedBiasType: 0,
    },
  });
  const sm = add({ shape: [1, 5], scale: 1 / 256, zp: -128 });
  ops.push({ code: BuiltinOperator.SOFTMAX, inputs: [fc], outputs: [sm], options: { beta: 1 } });

  const buffers: ModelDef['buffers'] = [{ data: new Uint8Array(0) }];
  const tdefs: TensorDef[] = tensors.map((t, i) => {
    let buffer = 0;
    if (t.data) {
      buffers.push({ data: new Uint8Array(t.data.buffer.slice(0)) });
      buffer = buffers.length - 1;
    }
    const scales = Array.isArray(t.scale) ? t.scale : [t.scale];
    return {
      name: `t${i}`,
      type: t.type ?? TensorType.INT8,
      shape: Int32Array.from(t.shape),
      buffer,
      quantization: {
        scale: Float32Array.from(scales),
        zeroPoint: Int32Array.from(scales.map(() => t.zp ?? 0)),
        quantizedDimension: t.qdim ?? 0,
      },
      isVariable: false,
    };
  });
  const codes = [...new Set(ops.map((o) => o.code))];
  const odefs: OperatorDef[] = ops.map((o) => ({
    opcodeIndex: codes.indexOf(o.code),
    inputs: Int32Array.from(o.inputs),
    outputs: Int32Array.from(o.outputs),
    intermediates: new Int32Array(0),
    builtinOptionsType: 1,
    builtinOptions: o.options,
    customOptions: null,
  }));
  return {
    version: 3,
    description: 'ops-simd tiny int8 chain',
    operatorCodes: codes.map((c) => ({ builtinCode: c, deprecatedBuiltinCode: c, customCode: null, version: 1 })),
    subgraphs: [{ name: 'main', tensors: tdefs, inputs: Int32Array.of(input), outputs: Int32Array.of(sm, c1), operators: odefs }],
    buffers,
    metadata: [],
    signatureDefs: [],
  };
}
