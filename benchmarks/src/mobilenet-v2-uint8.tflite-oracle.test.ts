/**
 * The uint8 MobileNetV2-shaped model (224×224, 1001 classes, every node's output made a graph output)
 * against TFLite 2.9 (tfjs-tflite-node's x86 build), layer by layer: where and why micrort's bytes part
 * from TFLite's. Every CONV_2D and FULLY_CONNECTED node of TFLite equals test-support's `ruy` rounding
 * model applied to TFLite's own input of that node, every DEPTHWISE_CONV_2D node the `reference` model
 * (TFLite's reference kernels, TFLM, ops-reference); micrort (ops-reference) first differs at the first
 * linear 1×1 projection, exactly where the two rules part. Skips when the addon is unavailable. (Only
 * the linear projections tell the rules apart here; ops-reference's uint8-rounding.tflite-oracle.test.ts
 * has single-op cases with data chosen to hit the ties for every kernel.)
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  loadModel,
  writeModel,
  type Conv2DOptions,
  type DepthwiseConv2DOptions,
  type FullyConnectedOptions,
  type ModelDef,
  type TensorDef,
} from '@micrort/core';
import {
  quantizedConv,
  quantizedFullyConnected,
  referenceRequantize,
  ruyRequantize,
  uint8ConvMultiplier,
  type RequantizeRule,
} from '@micrort/test-support/requantize-rules';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { seededInputs } from './inputs.js';
import { buildMobileNetV2Uint8 } from './mobilenet-v2-uint8.js';

if (!oracleAvailable) it.skip(`uint8 MobileNetV2 vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

const q = (t: TensorDef) => ({ scale: t.quantization!.scale[0]!, zeroPoint: t.quantization!.zeroPoint[0]! });

/** TFLite's CalculateActivationRangeQuantized for uint8, NONE or RELU6 (what the model uses). */
function activationRange(act: ActivationFunctionType, out: TensorDef): [number, number] {
  if (act === ActivationFunctionType.NONE) return [0, 255];
  if (act !== ActivationFunctionType.RELU6) throw new Error(`activation ${act} not modelled`);
  const { scale, zeroPoint } = q(out);
  return [Math.max(0, zeroPoint), Math.min(255, zeroPoint + Math.round(Math.fround(6 / scale)))];
}

/**
 * Node `i`'s output under `rule`, computed from `input` (its input bytes as TFLite produced them) and the
 * model's constants, for CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED.
 */
function layerModel(def: ModelDef, i: number, input: Uint8Array, rule: RequantizeRule): Int32Array {
  const sg = def.subgraphs[0]!;
  const node = sg.operators[i]!;
  const op = def.operatorCodes[node.opcodeIndex]!.builtinCode;
  const [x, f, b] = [...node.inputs].map((t) => sg.tensors[t]!);
  const y = sg.tensors[node.outputs[0]!]!;
  const filter = def.buffers[f!.buffer]!.data;
  const bias = new Int32Array(def.buffers[b!.buffer]!.data.slice().buffer);
  const multiplier = uint8ConvMultiplier(q(x!).scale, q(f!).scale, q(y).scale);
  if (op === BuiltinOperator.FULLY_CONNECTED) {
    const [actMin, actMax] = activationRange((node.builtinOptions as FullyConnectedOptions).fusedActivationFunction, y);
    const [units, depth] = [f!.shape[0]!, f!.shape[1]!];
    return quantizedFullyConnected(
      {
        batches: input.length / depth,
        depth,
        units,
        input,
        inputZeroPoint: q(x!).zeroPoint,
        weights: filter,
        weightsZeroPoint: q(f!).zeroPoint,
        bias,
        multiplier,
        outputZeroPoint: q(y).zeroPoint,
        actMin,
        actMax,
      },
      rule,
    );
  }
  const o = node.builtinOptions as Conv2DOptions | DepthwiseConv2DOptions;
  const [actMin, actMax] = activationRange(o.fusedActivationFunction, y);
  const depthwise = op === BuiltinOperator.DEPTHWISE_CONV_2D;
  return quantizedConv(
    {
      depthwise,
      inputShape: [x!.shape[0]!, x!.shape[1]!, x!.shape[2]!, x!.shape[3]!],
      input,
      inputZeroPoint: q(x!).zeroPoint,
      filter,
      kernel: [f!.shape[1]!, f!.shape[2]!],
      outChannels: depthwise ? f!.shape[3]! : f!.shape[0]!,
      filterZeroPoint: q(f!).zeroPoint,
      bias,
      stride: [o.strideH, o.strideW],
      padding: o.padding,
      multipliers: [multiplier],
      outputZeroPoint: q(y).zeroPoint,
      actMin,
      actMax,
    },
    rule,
  );
}

/** Elements where `a` and `b` differ. */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

describe.skipIf(!oracleAvailable)('the uint8 MobileNetV2-shaped model against TFLite 2.9, node by node', () => {
  it('CONV_2D and FULLY_CONNECTED round like ruy, DEPTHWISE_CONV_2D like the reference kernels; micrort first differs at the first linear 1×1 CONV_2D', () => {
    const def = loadModel(buildMobileNetV2Uint8());
    const sg = def.subgraphs[0]!;
    const nodes = sg.operators;
    sg.outputs = Int32Array.from(nodes, (n) => n.outputs[0]!);
    const input = seededInputs([{ name: 'input', dtype: 'uint8', shape: [1, 224, 224, 3], bytes: 224 * 224 * 3 }])[0]!;
    const cmp = compareWithTflite(writeModel(def), [input]);
    const opOf = (i: number) => def.operatorCodes[nodes[i]!.opcodeIndex]!.builtinCode;
    // TFLite's bytes for whatever feeds node i (the graph input or an earlier node's output).
    const tfliteInputOf = (i: number) => {
      const t = nodes[i]!.inputs[0]!;
      return t === sg.inputs[0] ? input : cmp.expected[nodes.findIndex((n) => n.outputs[0] === t)]!;
    };

    const checked = { ruy: 0, reference: 0 };
    const telling: string[] = []; // nodes where the two rules part on this data
    nodes.forEach((_, i) => {
      const op = opOf(i);
      if (op !== BuiltinOperator.CONV_2D && op !== BuiltinOperator.FULLY_CONNECTED && op !== BuiltinOperator.DEPTHWISE_CONV_2D) return;
      const rule = op === BuiltinOperator.DEPTHWISE_CONV_2D ? 'reference' : 'ruy';
      const byRuy = layerModel(def, i, tfliteInputOf(i), ruyRequantize);
      const byReference = layerModel(def, i, tfliteInputOf(i), referenceRequantize);
      const model = rule === 'ruy' ? byRuy : byReference;
      expect(differing(cmp.expected[i]!, model).length, `node ${i} (${BuiltinOperator[op]}) vs the ${rule} model`).toBe(0);
      checked[rule]++;
      if (differing(byRuy, byReference).length > 0) telling.push(`${i} ${BuiltinOperator[op]}`);
    });
    expect(checked).toEqual({ ruy: 36, reference: 17 }); // 35 CONV_2D + the classifier; 17 depthwise
    // Only the linear 1×1 projections (output zero point 128) tell the rules apart on this data: a RELU6
    // output with zero point 0 clamps every negative tie away (so the depthwise nodes here cannot; the
    // single-op cases in ops-reference's uint8-rounding test can).
    expect(telling).toHaveLength(15);
    for (const t of telling) expect(t).toMatch(/ CONV_2D$/);

    // micrort: byte-equal up to node 2, the first block's linear 1×1 projection (output zero point 128),
    // which differs from TFLite exactly where the two rules part, by one step.
    const first = cmp.outputs.findIndex((o) => !o.pass);
    expect(first).toBe(2);
    expect(opOf(2)).toBe(BuiltinOperator.CONV_2D);
    expect(sg.tensors[nodes[2]!.inputs[1]!]!.shape[1]).toBe(1);
    expect((nodes[2]!.builtinOptions as Conv2DOptions).fusedActivationFunction).toBe(ActivationFunctionType.NONE);
    const micrortVsTflite = differing(cmp.got[2]!, cmp.expected[2]!);
    const rulesPart = differing(layerModel(def, 2, cmp.got[1]!, referenceRequantize), layerModel(def, 2, cmp.got[1]!, ruyRequantize));
    expect(micrortVsTflite).toEqual(rulesPart);
    expect(micrortVsTflite.length).toBe(197); // of 200,704
    expect(micrortVsTflite.every((e) => cmp.expected[2]![e]! - cmp.got[2]![e]! === 1)).toBe(true);
    // the differences spread: most nodes after it differ somewhere
    expect(cmp.outputs.filter((o) => !o.pass).length).toBeGreaterThan(50);
    // the final softmax of this untrained model is all 0 (for both), so comparing final outputs tells nothing
    const last = nodes.length - 1;
    expect([...new Set(cmp.expected[last])]).toEqual([0]);
    expect(cmp.outputs[last]!.pass).toBe(true);
  });
});
