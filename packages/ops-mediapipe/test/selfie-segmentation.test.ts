/**
 * The real Convolution2DTransposeBias of MediaPipe's selfie_segmentation.tflite (@micrort/corpus): its
 * options and float16 weights are read from the file with core's `loadModel`, put into a small model
 * (the custom op then LOGISTIC, as the real model ends) and checked against ops-reference's
 * TRANSPOSE_CONV + bias on the same weights; then the whole model runs (ops-reference + this package),
 * and is compared with TFLite running the model with the custom node rewritten as TRANSPOSE_CONV.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  BuiltinOptionsType,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  loadModel,
  writeModel,
  type ModelDef,
  type OperatorDef,
} from '@micrort/core';
import { corpusBytes } from '@micrort/corpus';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { compareBytes } from '@micrort/test-support/conformance';
import { ORACLE_SKIP_REASON, oracleAvailable, runTflite } from '@micrort/test-support/tflite-oracle';
import { registerMediapipeOps } from '../src/index.js';

const F = TensorType.FLOAT32;

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

/** IEEE half → number (the file stores the weights as float16 constants feeding DEQUANTIZE). */
function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? Number.NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The float32 values of tensor `t`: a FLOAT16 constant behind the DEQUANTIZE that produces it. */
function dequantizedConstant(model: ModelDef, t: number): { shape: number[]; values: Float32Array } {
  const sg = model.subgraphs[0]!;
  const producer = sg.operators.find((op) => op.outputs[0] === t)!;
  expect(model.operatorCodes[producer.opcodeIndex]!.builtinCode).toBe(BuiltinOperator.DEQUANTIZE);
  const source = sg.tensors[producer.inputs[0]!]!;
  expect(source.type).toBe(TensorType.FLOAT16);
  const bytes = model.buffers[source.buffer]!.data;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(bytes.byteLength / 2);
  for (let i = 0; i < values.length; i++) values[i] = halfToNumber(view.getUint16(2 * i, true));
  return { shape: Array.from(source.shape), values };
}

function realOp(): { model: ModelDef; op: OperatorDef } {
  const model = loadModel(corpusBytes('selfie_segmentation'));
  const sg = model.subgraphs[0]!;
  const op = sg.operators.find((o) => model.operatorCodes[o.opcodeIndex]!.customCode === 'Convolution2DTransposeBias')!;
  return { model, op };
}

function values(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s >>> 8) / 2 ** 24) * 4 - 2;
  });
}

/** An RGB picture in [0, 1]: a skin-toned head and shoulders on a blue background. */
function portrait(height = 256, width = 256): Float32Array {
  const image = new Float32Array(height * width * 3);
  const cx = width / 2;
  const s = height / 256;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const head = ((x - cx) / (48 * s)) ** 2 + ((y - 96 * s) / (60 * s)) ** 2 < 1;
      const body = y > 150 * s && Math.abs(x - cx) < (40 + (y / s - 150) * 0.9) * s;
      const shade = 0.05 * Math.sin(x / 9) * Math.cos(y / 7);
      const rgb = head ? [0.87, 0.68, 0.56] : body ? [0.25, 0.3, 0.45] : [0.3, 0.55, 0.85];
      image.set(
        rgb.map((v) => v + shade),
        (y * width + x) * 3,
      );
    }
  }
  return image;
}

describe('selfie_segmentation: the real Convolution2DTransposeBias', () => {
  it('has the options and weights this package expects (SAME, stride 2x2, 2x2x16 weights, one channel)', () => {
    const { model, op } = realOp();
    const options = op.customOptions!;
    const view = new DataView(options.buffer, options.byteOffset, options.byteLength);
    expect(options.byteLength).toBe(12);
    expect([view.getInt32(0, true), view.getInt32(4, true), view.getInt32(8, true)]).toEqual([1, 2, 2]); // SAME, stride_w, stride_h
    expect(dequantizedConstant(model, op.inputs[1]!).shape).toEqual([1, 2, 2, 16]);
    expect(dequantizedConstant(model, op.inputs[2]!).shape).toEqual([1]);
  });

  it('a small model around it (custom op → LOGISTIC) matches TRANSPOSE_CONV + bias → LOGISTIC on the same weights', () => {
    const { model, op } = realOp();
    const weights = dequantizedConstant(model, op.inputs[1]!);
    const bias = dequantizedConstant(model, op.inputs[2]!);
    const inShape = [1, 12, 10, 16];
    const outShape = [1, 24, 20, 1];
    const build = (custom: boolean) => {
      const b = new ModelBuilder();
      const x = b.addTensor({ name: 'x', type: F, shape: inShape });
      const w = b.addTensor({ name: 'segment/Kernel', type: F, shape: weights.shape, data: weights.values });
      const bb = b.addTensor({ name: 'segment/Bias', type: F, shape: bias.shape, data: bias.values });
      const seg = b.addTensor({ name: 'segment', type: F, shape: outShape });
      const y = b.addTensor({ name: 'activation', type: F, shape: outShape });
      if (custom) {
        b.addOperator({
          op: { custom: 'Convolution2DTransposeBias' },
          inputs: [x, w, bb],
          outputs: [seg],
          customOptions: op.customOptions!,
        });
      } else {
        const shape = b.addTensor({ name: 'output_shape', type: TensorType.INT32, shape: [4], data: Int32Array.from(outShape) });
        b.addOperator({
          op: BuiltinOperator.TRANSPOSE_CONV,
          inputs: [shape, w, x, bb],
          outputs: [seg],
          options: { padding: Padding.SAME, strideW: 2, strideH: 2 },
        });
      }
      b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [seg], outputs: [y] });
      return loadModel(b.setInputs([x]).setOutputs([y]).build());
    };
    const resolver = registerMediapipeOps(registerReferenceOps(new OpResolver()));
    const input = values(12 * 10 * 16, 7);
    const run = (custom: boolean) => {
      const it_ = new MicroInterpreter(build(custom), resolver, { planner: createPlanner('greedy') }).allocateTensors();
      it_.setInput(0, input);
      it_.invoke();
      return Float32Array.from(it_.output(0).data as Float32Array);
    };
    const got = run(true);
    const want = run(false);
    expect(got.length).toBe(24 * 20);
    for (let i = 0; i < got.length; i++)
      expect(Math.abs(got[i]! - want[i]!), `element ${i}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!));
    // not a constant map: the weights really act on the input
    expect(Math.max(...got) - Math.min(...got)).toBeGreaterThan(0.01);
  });

  it('the whole model runs with ops-reference + ops-mediapipe; the node equals TRANSPOSE_CONV on its actual input', () => {
    // linear plan: no tensor is reused, so the custom op's input and output can be read after invoke
    const resolver = registerMediapipeOps(registerReferenceOps(new OpResolver()));
    const interpreter = new MicroInterpreter(loadModel(corpusBytes('selfie_segmentation')), resolver, {
      planner: createPlanner('linear'),
      arena: 'auto',
    }).allocateTensors();
    const { model, op } = realOp();
    interpreter.setInput(0, portrait());
    interpreter.invoke();
    const out = interpreter.output(0).data as Float32Array;
    expect(out.length).toBe(256 * 256);
    for (let i = 0; i < out.length; i++)
      if (!(out[i]! >= 0 && out[i]! <= 1)) throw new Error(`mask value ${out[i]} at ${i} is not in [0, 1]`);
    // the custom op's node inside the model, recomputed by TRANSPOSE_CONV on its actual input
    const x = Float32Array.from(interpreter.tensor(op.inputs[0]!).data as Float32Array);
    const seg = interpreter.tensor(op.outputs[0]!).data as Float32Array;
    const weights = dequantizedConstant(model, op.inputs[1]!);
    const bias = dequantizedConstant(model, op.inputs[2]!);
    const b = new ModelBuilder();
    const xt = b.addTensor({ name: 'x', type: F, shape: [1, 128, 128, 16] });
    const shape = b.addTensor({ name: 'output_shape', type: TensorType.INT32, shape: [4], data: Int32Array.of(1, 256, 256, 1) });
    const w = b.addTensor({ name: 'w', type: F, shape: weights.shape, data: weights.values });
    const bb = b.addTensor({ name: 'b', type: F, shape: bias.shape, data: bias.values });
    const y = b.addTensor({ name: 'y', type: F, shape: [1, 256, 256, 1] });
    b.addOperator({
      op: BuiltinOperator.TRANSPOSE_CONV,
      inputs: [shape, w, xt, bb],
      outputs: [y],
      options: { padding: Padding.SAME, strideW: 2, strideH: 2 },
    });
    const ref = new MicroInterpreter(loadModel(b.setInputs([xt]).setOutputs([y]).build()), registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    ref.setInput(0, x);
    ref.invoke();
    const want = ref.output(0).data as Float32Array;
    for (let i = 0; i < want.length; i++)
      if (!(Math.abs(seg[i]! - want[i]!) <= 1e-5 + 1e-4 * Math.abs(want[i]!)))
        throw new Error(`segment[${i}] = ${seg[i]}, TRANSPOSE_CONV gives ${want[i]}`);
  }, 300_000);

  for (const name of ['selfie_segmentation', 'selfie_segmentation_landscape']) {
    it.skipIf(!oracleAvailable)(
      `${name}: the whole model matches TFLite running it with the custom op rewritten as TRANSPOSE_CONV + bias`,
      () => {
        // TFLite does not have MediaPipe's op; with the node rewritten as its builtin equivalent (same float16
        // weights behind DEQUANTIZE, SAME, stride 2) TFLite runs the rest of the model with its own kernels.
        const original = corpusBytes(name);
        const def = loadModel(original);
        const sg = def.subgraphs[0]!;
        const node = sg.operators.find((o) => def.operatorCodes[o.opcodeIndex]!.customCode === 'Convolution2DTransposeBias')!;
        expect(Array.from(node.customOptions!)).toEqual([1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]); // SAME, stride 2x2
        def.operatorCodes.push({
          builtinCode: BuiltinOperator.TRANSPOSE_CONV,
          deprecatedBuiltinCode: BuiltinOperator.TRANSPOSE_CONV,
          customCode: null,
          version: 3,
        });
        def.buffers.push({ data: new Uint8Array(Int32Array.from(sg.tensors[node.outputs[0]!]!.shape).buffer) });
        sg.tensors.push({
          name: 'segment/output_shape',
          type: TensorType.INT32,
          shape: Int32Array.of(4),
          buffer: def.buffers.length - 1,
          quantization: null,
          isVariable: false,
        });
        node.opcodeIndex = def.operatorCodes.length - 1;
        node.inputs = Int32Array.of(sg.tensors.length - 1, node.inputs[1]!, node.inputs[0]!, node.inputs[2]!);
        node.builtinOptionsType = BuiltinOptionsType.TransposeConvOptions;
        node.builtinOptions = {
          padding: Padding.SAME,
          strideW: 2,
          strideH: 2,
          fusedActivationFunction: ActivationFunctionType.NONE,
          quantizedBiasType: 0,
        };
        node.customOptions = null;
        const rewritten = writeModel(def);

        const [, height, width] = Array.from(sg.tensors[sg.inputs[0]!]!.shape);
        const image = portrait(height!, width!);
        const input = new Uint8Array(image.buffer, image.byteOffset, image.byteLength);
        const expected = runTflite(rewritten, [input]).outputBytes[0]!;
        const resolver = registerMediapipeOps(registerReferenceOps(new OpResolver()));
        const interpreter = new MicroInterpreter(loadModel(original), resolver, { planner: createPlanner('greedy') }).allocateTensors();
        interpreter.setInput(0, image);
        interpreter.invoke();
        const cmp = compareBytes('float32', interpreter.output(0).bytes, expected);
        expect(cmp, JSON.stringify(cmp)).toMatchObject({ pass: true, mismatches: 0, elements: height! * width! });
        // the mask is not flat: the model sees something in the picture
        const mask = new Float32Array(expected.slice().buffer);
        expect(Math.max(...mask) - Math.min(...mask)).toBeGreaterThan(0.1);
        console.log(`${name} vs TFLite: max |difference| ${cmp.maxAbsDiff.toExponential(2)} over ${cmp.elements} mask values`);
      },
      300_000,
    );
  }
});
