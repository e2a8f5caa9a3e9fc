import { ActivationFunctionType, BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { buildDemoModel } from '@micrort/app-kit';
import { Zoo, lcg, q } from './zoo-common.js';
import { shapeOps, spatialOps } from './zoo-data.js';
import { ifModel, variablesModel, whileModel } from './zoo-graph.js';
import { compareLogic, floatMath, int16Math, int8Math, reductions } from './zoo-math.js';
import { complexNet, detectionNet, float16Net, mediapipeNet, sparseNet, uint8Net } from './zoo-tflite.js';
import { signalBackEndNet, tflmCustomNet } from './zoo-tflm-custom.js';
import { compositeNet, stablehloNet } from './zoo-litert.js';
import { dilatedDynamicNet, dynamicBatchNet } from './zoo-dynamic.js';
import { stringsNet } from './zoo-strings.js';
import { blockwiseNet, hybridNet } from './zoo-hybrid.js';

/**
 * Small models made with the model writer, seeds for the fuzzer next to the conformance models: together
 * they reach every ops-reference kernel (the conformance models miss most of the pooling, elementwise and
 * data-movement kernels) with float32, int8 and int16 tensors, broadcasting, per-channel quantization,
 * constant shape/axis/padding tensors and fused activations — the math/comparison/reduction builtins
 * (zoo-math.ts), the data-movement ones (zoo-data.ts), control flow and resource variables
 * (zoo-graph.ts), and what TFLite runs beyond TFLM plus custom ops: uint8, float16 DEQUANTIZE, sparse
 * weights (DENSIFY), RFFT2D/COMPLEX_ABS, detection post-processing, MediaPipe's ops (zoo-tflite.ts), and TFLM's
 * other custom ops: the signal library's back end, CIRCULAR_BUFFER, TFLM_DECODE (zoo-tflm-custom.ts), and current LiteRT's StableHLO builtins and
 * STABLEHLO_COMPOSITE (zoo-litert.ts), dynamic shapes (a -1 input the fuzzer resizes, empty stored shapes,
 * shape subgraphs folded in prepare: zoo-dynamic.ts), STRING tensors and hash tables (zoo-strings.ts), and
 * hybrid and blockwise-quantized weights (zoo-hybrid.ts). Each is tiny, so a
 * mutated copy runs in microseconds and the fuzzer spends its time on many cases rather than on big
 * convolutions.
 */
export interface ZooModel {
  name: string;
  bytes: Uint8Array;
}

function floatConvNet(): Uint8Array {
  const z = new Zoo('float conv net');
  const x = z.f32('x', [1, 6, 6, 2]);
  const w = z.f32(
    'conv/w',
    [3, 3, 3, 2],
    lcg(54, 1, -8, 8).map((v) => v / 16),
  );
  const bias = z.f32('conv/b', [3], [0.1, -0.2, 0.05]);
  const c = z.f32('conv', [1, 6, 6, 3]);
  z.b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 1,
    inputs: [x, w, bias],
    outputs: [c],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: ActivationFunctionType.RELU },
  });
  const dw = z.f32(
    'dw/w',
    [1, 3, 3, 6],
    lcg(54, 2, -8, 8).map((v) => v / 16),
  );
  const d = z.f32('dw', [1, 2, 2, 6]);
  z.b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 1,
    inputs: [c, dw, -1],
    outputs: [d],
    options: { padding: Padding.VALID, strideW: 2, strideH: 2, depthMultiplier: 2, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const mp = z.f32('maxpool', [1, 1, 1, 6]);
  z.b.addOperator({
    op: BuiltinOperator.MAX_POOL_2D,
    inputs: [d],
    outputs: [mp],
    options: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 },
  });
  const ap = z.f32('avgpool', [1, 3, 3, 3]);
  z.b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [c],
    outputs: [ap],
    options: { padding: Padding.SAME, strideW: 2, strideH: 2, filterWidth: 3, filterHeight: 3 },
  });
  const oshape = z.i32('tconv/shape', [1, 6, 6, 2]);
  const tw = z.f32(
    'tconv/w',
    [2, 2, 2, 3],
    lcg(24, 3, -8, 8).map((v) => v / 16),
  );
  const tc = z.f32('tconv', [1, 6, 6, 2]);
  z.b.addOperator({
    op: BuiltinOperator.TRANSPOSE_CONV,
    version: 1,
    inputs: [oshape, tw, ap, -1],
    outputs: [tc],
    options: { padding: Padding.SAME, strideW: 2, strideH: 2 },
  });
  const axes = z.i32('mean/axes', [1, 2]);
  const m = z.f32('mean', [1, 1, 1, 2]);
  z.b.addOperator({ op: BuiltinOperator.MEAN, inputs: [tc, axes], outputs: [m], options: { keepDims: true } });
  return z.build([x], [mp, m]);
}

function int8ConvNet(): Uint8Array {
  const z = new Zoo('int8 conv net');
  const x = z.i8('x', [1, 5, 5, 2], 0.05, -3);
  const pads = z.i32('pad/paddings', [0, 0, 1, 1, 1, 1, 0, 0], [4, 2]);
  const xp = z.i8('padded', [1, 7, 7, 2], 0.05, -3);
  z.b.addOperator({ op: BuiltinOperator.PAD, version: 2, inputs: [x, pads], outputs: [xp] });
  const wScales = [0.01, 0.02, 0.015, 0.03];
  const w = z.t({
    name: 'conv/w',
    type: TensorType.INT8,
    shape: [4, 3, 3, 2],
    data: Int8Array.from(lcg(72, 4, -127, 127)),
    quantization: { scale: wScales, zeroPoint: 0, quantizedDimension: 0 },
  });
  const bias = z.t({
    name: 'conv/b',
    type: TensorType.INT32,
    shape: [4],
    data: Int32Array.from([100, -50, 0, 25]),
    quantization: { scale: wScales.map((s) => s * 0.05), zeroPoint: 0 },
  });
  const c = z.i8('conv', [1, 3, 3, 4], 0.1, 5);
  z.b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 3,
    inputs: [xp, w, bias],
    outputs: [c],
    options: {
      padding: Padding.VALID,
      strideW: 2,
      strideH: 2,
      dilationWFactor: 1,
      dilationHFactor: 1,
      fusedActivationFunction: ActivationFunctionType.RELU,
    },
  });
  const dScales = [0.02, 0.01, 0.03, 0.02];
  const dw = z.t({
    name: 'dw/w',
    type: TensorType.INT8,
    shape: [1, 3, 3, 4],
    data: Int8Array.from(lcg(36, 5, -127, 127)),
    quantization: { scale: dScales, zeroPoint: 0, quantizedDimension: 3 },
  });
  const db = z.t({
    name: 'dw/b',
    type: TensorType.INT32,
    shape: [4],
    data: Int32Array.from([7, -7, 70, 0]),
    quantization: { scale: dScales.map((s) => s * 0.1), zeroPoint: 0 },
  });
  const d = z.i8('dw', [1, 3, 3, 4], 0.08, -2);
  z.b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 3,
    inputs: [c, dw, db],
    outputs: [d],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, depthMultiplier: 1, dilationWFactor: 2, dilationHFactor: 2 },
  });
  const mp = z.i8('maxpool', [1, 2, 2, 4], 0.08, -2);
  z.b.addOperator({
    op: BuiltinOperator.MAX_POOL_2D,
    version: 2,
    inputs: [d],
    outputs: [mp],
    options: { padding: Padding.SAME, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 },
  });
  const ap = z.i8('avgpool', [1, 1, 1, 4], 0.08, -2);
  z.b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    version: 2,
    inputs: [mp],
    outputs: [ap],
    options: { padding: Padding.VALID, strideW: 1, strideH: 1, filterWidth: 2, filterHeight: 2 },
  });
  const axes = z.i32('mean/axes', [1, 2]);
  const m = z.i8('mean', [1, 4], 0.05, 1);
  z.b.addOperator({ op: BuiltinOperator.MEAN, version: 2, inputs: [d, axes], outputs: [m], options: { keepDims: false } });
  const tshape = z.i32('tconv/shape', [1, 6, 6, 2]);
  const tw = z.t({
    name: 'tconv/w',
    type: TensorType.INT8,
    shape: [2, 3, 3, 4],
    data: Int8Array.from(lcg(72, 6, -127, 127)),
    quantization: { scale: [0.01, 0.02], zeroPoint: 0, quantizedDimension: 0 },
  });
  const tc = z.i8('tconv', [1, 6, 6, 2], 0.2, 0);
  z.b.addOperator({
    op: BuiltinOperator.TRANSPOSE_CONV,
    version: 3,
    inputs: [tshape, tw, c, -1],
    outputs: [tc],
    options: { padding: Padding.SAME, strideW: 2, strideH: 2 },
  });
  return z.build([x], [ap, m, tc]);
}

function floatElementwise(): Uint8Array {
  const z = new Zoo('float elementwise with broadcasting');
  const a = z.f32('a', [2, 1, 3]);
  const b = z.f32('b', [1, 4, 1]);
  const out = (name: string) => z.f32(name, [2, 4, 3]);
  const sub = out('sub');
  z.b.addOperator({
    op: BuiltinOperator.SUB,
    version: 1,
    inputs: [a, b],
    outputs: [sub],
    options: { fusedActivationFunction: ActivationFunctionType.RELU_N1_TO_1 },
  });
  const mul = out('mul');
  z.b.addOperator({ op: BuiltinOperator.MUL, inputs: [sub, b], outputs: [mul] });
  const k = z.f32('k', [3], [0.5, -2, 4]);
  const div = out('div');
  z.b.addOperator({ op: BuiltinOperator.DIV, inputs: [mul, k], outputs: [div] });
  const add = out('add');
  z.b.addOperator({
    op: BuiltinOperator.ADD,
    inputs: [div, a],
    outputs: [add],
    options: { fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const mx = out('max');
  z.b.addOperator({ op: BuiltinOperator.MAXIMUM, inputs: [add, b], outputs: [mx] });
  const mn = out('min');
  z.b.addOperator({ op: BuiltinOperator.MINIMUM, inputs: [mx, k], outputs: [mn] });
  const chain: [BuiltinOperator, object | undefined][] = [
    [BuiltinOperator.ABS, undefined],
    [BuiltinOperator.SIN, undefined],
    [BuiltinOperator.COS, undefined],
    [BuiltinOperator.LOGISTIC, undefined],
    [BuiltinOperator.TANH, undefined],
    [BuiltinOperator.RELU, undefined],
    [BuiltinOperator.RELU6, undefined],
    [BuiltinOperator.LEAKY_RELU, { alpha: 0.2 }],
  ];
  let prev = mn;
  for (const [op, options] of chain) {
    const o = out(`op${op}`);
    z.b.addOperator({ op, inputs: [prev], outputs: [o], ...(options ? { options } : {}) });
    prev = o;
  }
  const cast = z.t({ name: 'cast', type: TensorType.INT32, shape: [2, 4, 3] });
  z.b.addOperator({ op: BuiltinOperator.CAST, inputs: [mul], outputs: [cast] });
  const sm = z.f32('softmax', [2, 4, 3]);
  z.b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [prev], outputs: [sm], options: { beta: 1.5 } });
  return z.build([a, b], [sm, cast]);
}

function int8Elementwise(): Uint8Array {
  const z = new Zoo('int8 elementwise with broadcasting');
  const a = z.i8('a', [1, 2, 3, 4], 0.05, 2);
  const b = z.i8('b', [1, 1, 3, 1], 0.07, -5);
  const o = (name: string, scale: number, zp: number) => z.i8(name, [1, 2, 3, 4], scale, zp);
  const add = o('add', 0.1, 0);
  z.b.addOperator({
    op: BuiltinOperator.ADD,
    version: 2,
    inputs: [a, b],
    outputs: [add],
    options: { fusedActivationFunction: ActivationFunctionType.RELU },
  });
  const sub = o('sub', 0.1, 3);
  z.b.addOperator({ op: BuiltinOperator.SUB, version: 2, inputs: [add, b], outputs: [sub] });
  const mul = o('mul', 0.02, -1);
  z.b.addOperator({ op: BuiltinOperator.MUL, version: 2, inputs: [sub, a], outputs: [mul] });
  const mx = o('max', 0.1, 3);
  z.b.addOperator({ op: BuiltinOperator.MAXIMUM, version: 2, inputs: [sub, a], outputs: [mx] });
  const lg = o('logistic', 1 / 256, -128);
  z.b.addOperator({ op: BuiltinOperator.LOGISTIC, version: 2, inputs: [mul], outputs: [lg] });
  const th = o('tanh', 1 / 128, 0);
  z.b.addOperator({ op: BuiltinOperator.TANH, version: 2, inputs: [mx], outputs: [th] });
  const lr = o('leaky', 0.01, 0);
  z.b.addOperator({ op: BuiltinOperator.LEAKY_RELU, version: 2, inputs: [th], outputs: [lr], options: { alpha: 0.1 } });
  const re = o('relu', 0.01, -10);
  z.b.addOperator({ op: BuiltinOperator.RELU, version: 2, inputs: [lr], outputs: [re] });
  const ab = o('abs', 0.01, 0);
  z.b.addOperator({ op: BuiltinOperator.ABS, version: 2, inputs: [re], outputs: [ab] });
  const sm = o('softmax', 1 / 256, -128);
  z.b.addOperator({ op: BuiltinOperator.SOFTMAX, version: 2, inputs: [ab], outputs: [sm], options: { beta: 1 } });
  const dq = z.f32('dequant', [1, 2, 3, 4]);
  z.b.addOperator({ op: BuiltinOperator.DEQUANTIZE, version: 2, inputs: [sm], outputs: [dq] });
  return z.build([a, b], [dq, lg]);
}

function int16Net(): Uint8Array {
  const z = new Zoo('int16 activations');
  const x = z.f32('x', [1, 8]);
  const xq = z.i16('x16', [1, 8], 1 / 4096);
  z.b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [x], outputs: [xq] });
  const k = z.i16('k', [8], 1 / 2048, lcg(8, 7, -2048, 2048));
  const add = z.i16('add', [1, 8], 1 / 2048);
  z.b.addOperator({ op: BuiltinOperator.ADD, version: 3, inputs: [xq, k], outputs: [add] });
  const mul = z.i16('mul', [1, 8], 1 / 2048);
  z.b.addOperator({ op: BuiltinOperator.MUL, version: 4, inputs: [add, add], outputs: [mul] });
  const lg = z.i16('logistic', [1, 8], 1 / 32768);
  z.b.addOperator({ op: BuiltinOperator.LOGISTIC, version: 3, inputs: [mul], outputs: [lg] });
  const th = z.i16('tanh', [1, 8], 1 / 32768);
  z.b.addOperator({ op: BuiltinOperator.TANH, version: 3, inputs: [add], outputs: [th] });
  const w = z.t({
    name: 'fc/w',
    type: TensorType.INT8,
    shape: [3, 8],
    data: Int8Array.from(lcg(24, 8, -127, 127)),
    quantization: q(0.01, 0),
  });
  const bias = z.t({
    name: 'fc/b',
    type: TensorType.INT64,
    shape: [3],
    data: BigInt64Array.from([10n, -10n, 100n]),
    quantization: q(0.01 / 32768, 0),
  });
  const fc = z.i16('fc', [1, 3], 1 / 1024);
  z.b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, version: 7, inputs: [th, w, bias], outputs: [fc] });
  const dq = z.f32('y', [1, 3]);
  z.b.addOperator({ op: BuiltinOperator.DEQUANTIZE, version: 2, inputs: [fc], outputs: [dq] });
  return z.build([x], [dq, lg]);
}

function dataMovement(): Uint8Array {
  const z = new Zoo('data movement');
  const x = z.i8('x', [2, 3, 4], 0.1, 1);
  const perm = z.i32('transpose/perm', [2, 0, 1]);
  const t = z.i8('transposed', [4, 2, 3], 0.1, 1);
  z.b.addOperator({ op: BuiltinOperator.TRANSPOSE, version: 2, inputs: [x, perm], outputs: [t] });
  const begin = z.i32('ss/begin', [1, 0, -2]);
  const end = z.i32('ss/end', [4, 2, 3]);
  const strides = z.i32('ss/strides', [2, 1, 1]);
  const ss = z.i8('slice', [2, 2, 2], 0.1, 1);
  z.b.addOperator({
    op: BuiltinOperator.STRIDED_SLICE,
    version: 2,
    inputs: [t, begin, end, strides],
    outputs: [ss],
    options: { beginMask: 0, endMask: 0, shrinkAxisMask: 0 },
  });
  const shape = z.i32('reshape/shape', [2, 4]);
  const r = z.i8('reshaped', [2, 4], 0.1, 1);
  z.b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [ss, shape], outputs: [r], options: { newShape: Int32Array.from([2, 4]) } });
  const other = z.i8('y', [2, 3], 0.1, 1);
  const cat = z.i8('concat', [2, 7], 0.1, 1);
  z.b.addOperator({ op: BuiltinOperator.CONCATENATION, version: 2, inputs: [r, other], outputs: [cat], options: { axis: -1 } });
  const pads = z.i32('padv2/paddings', [1, 0, 0, 2], [2, 2]);
  const cv = z.i8('padv2/value', [1], 0.1, 1, [-5]);
  const p = z.i8('padded', [3, 9], 0.1, 1);
  z.b.addOperator({ op: BuiltinOperator.PADV2, inputs: [cat, pads, cv], outputs: [p] });
  const pf = z.f32('f', [2, 3]);
  const fshape = z.i32('reshape2/shape', [6]);
  const fr = z.f32('f_flat', [6]);
  z.b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [pf, fshape], outputs: [fr] });
  const fpads = z.i32('pad2/paddings', [2, 1], [1, 2]);
  const fp = z.f32('f_padded', [9]);
  z.b.addOperator({ op: BuiltinOperator.PAD, inputs: [fr, fpads], outputs: [fp] });
  const fq = z.i8('f_quant', [9], 0.02, -4);
  z.b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [fp], outputs: [fq] });
  const requant = z.i8('f_requant', [9], 0.05, 7);
  z.b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [fq], outputs: [requant] });
  return z.build([x, other, pf], [p, requant]);
}

function svdfNet(): Uint8Array {
  const z = new Zoo('float SVDF');
  const x = z.f32('x', [1, 6]);
  const wf = z.f32(
    'svdf/wf',
    [4, 6],
    lcg(24, 9, -8, 8).map((v) => v / 16),
  );
  const wt = z.f32(
    'svdf/wt',
    [4, 3],
    lcg(12, 10, -8, 8).map((v) => v / 16),
  );
  const bias = z.f32('svdf/b', [2], [0.1, -0.1]);
  const state = z.t({ name: 'svdf/state', type: TensorType.FLOAT32, shape: [1, 12], variable: true });
  const y = z.f32('y', [1, 2]);
  z.b.addOperator({
    op: BuiltinOperator.SVDF,
    inputs: [x, wf, wt, bias, state],
    outputs: [y],
    options: { rank: 2, fusedActivationFunction: ActivationFunctionType.RELU },
  });
  return z.build([x], [y]);
}

/** The zoo, in a fixed order. Throws if a builder no longer produces a valid file (a bug in the zoo). */
export function zooModels(): ZooModel[] {
  const models: [string, () => Uint8Array][] = [
    ['zoo:demo_mlp', buildDemoModel],
    ['zoo:float_conv', floatConvNet],
    ['zoo:int8_conv', int8ConvNet],
    ['zoo:float_elementwise', floatElementwise],
    ['zoo:int8_elementwise', int8Elementwise],
    ['zoo:int16', int16Net],
    ['zoo:data_movement', dataMovement],
    ['zoo:svdf', svdfNet],
    ['zoo:float_math', floatMath],
    ['zoo:int8_math', int8Math],
    ['zoo:int16_math', int16Math],
    ['zoo:compare_logic', compareLogic],
    ['zoo:reductions', reductions],
    ['zoo:shape_ops', shapeOps],
    ['zoo:spatial_ops', spatialOps],
    ['zoo:if', ifModel],
    ['zoo:while', whileModel],
    ['zoo:variables', variablesModel],
    ['zoo:uint8', uint8Net],
    ['zoo:float16', float16Net],
    ['zoo:sparse', sparseNet],
    ['zoo:complex', complexNet],
    ['zoo:detection_postprocess', detectionNet],
    ['zoo:mediapipe', mediapipeNet],
    ['zoo:signal_back_end', signalBackEndNet],
    ['zoo:tflm_custom', tflmCustomNet],
    ['zoo:stablehlo', stablehloNet],
    ['zoo:composite', compositeNet],
    ['zoo:dynamic_batch', dynamicBatchNet],
    ['zoo:dynamic_dilated_conv', dilatedDynamicNet],
    ['zoo:strings', stringsNet],
    ['zoo:hybrid', hybridNet],
    ['zoo:blockwise', blockwiseNet],
  ];
  return models.map(([name, build]) => ({ name, bytes: build() }));
}
