/**
 * LSTM's BASIC kernel (kernel_type 1: 5 inputs, 4 outputs; lstm-basic.ts) against TFLite 2.9 on
 * writer-made models: the quantized cell (uint8 activations, uint8 weights with several zero points,
 * int32 bias, int16 state with 4 integer bits) and the float32 cell, batches 1 and 3, with the previous
 * activation and state as graph inputs (new each invoke) or as variable tensors (TFLite copies the new
 * activation and state back into them, so the state carries across the three invokes). All four
 * outputs are compared after every invoke: integers byte for byte, floats within 1e-5 + 1e-4·|TFLite|.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  TensorType,
  loadModel,
  tensorTypeName,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import { compareOutput } from '@micrort/test-support/output-compare';
import { encodeValues, randomValues, type DType } from '@micrort/test-support/tflite-recipe-builder';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

interface Case {
  quantized: boolean;
  batch: number;
  inDepth: number;
  depth: number;
  /** Previous activation and state as variable tensors (else graph inputs). */
  variables: boolean;
  weightsZeroPoint?: number;
  biasScale?: number;
}

const INVOKES = 3;

interface Built {
  bytes: Uint8Array;
  inputs: { type: DType; count: number; range: [number, number] }[];
}

function basicModel(c: Case, seed: number): Built {
  const b = new ModelBuilder();
  const { batch, inDepth, depth } = c;
  const total = inDepth + depth;
  const act = { scale: [1 / 128], zeroPoint: [128] };
  const q = <T>(v: T) => (c.quantized ? v : undefined);
  const type = (t: TensorType) => (c.quantized ? t : TensorType.FLOAT32);
  const inputs: Built['inputs'] = [];
  const graphInput = (
    name: string,
    t: TensorType,
    shape: number[],
    quant: { scale: number[]; zeroPoint: number[] } | undefined,
    range: [number, number],
  ) => {
    inputs.push({ type: tensorTypeName(type(t)) as DType, count: shape[0]! * shape[1]!, range: c.quantized ? range : [-1, 1] });
    return b.addTensor({ name, type: type(t), shape, ...(quant ? { quantization: quant } : {}) });
  };
  const x = graphInput('x', TensorType.UINT8, [batch, inDepth], q(act), [0, 255]);
  const state = (
    name: string,
    t: TensorType,
    shape: number[],
    quant: { scale: number[]; zeroPoint: number[] } | undefined,
    range: [number, number],
  ) =>
    c.variables
      ? b.addTensor({ name, type: type(t), shape, variable: true, ...(quant ? { quantization: quant } : {}) })
      : graphInput(name, t, shape, quant, range);
  const prevActiv = state('prev_activ', TensorType.UINT8, [batch, depth], q(act), [0, 255]);
  const wZp = c.weightsZeroPoint ?? 128;
  const wType: DType = c.quantized ? 'uint8' : 'float32';
  const w = b.addTensor({
    name: 'w',
    type: type(TensorType.UINT8),
    shape: [4 * depth, total],
    data: encodeValues(wType, randomValues(wType, 4 * depth * total, seed * 7 + 1, c.quantized ? [0, 255] : [-0.6, 0.6])),
    ...(c.quantized ? { quantization: { scale: [0.02], zeroPoint: [wZp] } } : {}),
  });
  const biasScale = c.biasScale ?? (1 / 128) * 0.02;
  const bType: DType = c.quantized ? 'int32' : 'float32';
  const bias = b.addTensor({
    name: 'bias',
    type: type(TensorType.INT32),
    shape: [4 * depth],
    data: encodeValues(bType, randomValues(bType, 4 * depth, seed * 7 + 2, c.quantized ? [-600, 600] : [-0.5, 0.5])),
    ...(c.quantized ? { quantization: { scale: [biasScale], zeroPoint: [0] } } : {}),
  });
  const stateQ = { scale: [1 / 2048], zeroPoint: [0] };
  const prevState = state('prev_state', TensorType.INT16, [batch, depth], q(stateQ), [-20000, 20000]);
  const out = [
    b.addTensor({ name: 'activ', type: type(TensorType.UINT8), shape: [batch, depth], ...(c.quantized ? { quantization: act } : {}) }),
    b.addTensor({ name: 'state', type: type(TensorType.INT16), shape: [batch, depth], ...(c.quantized ? { quantization: stateQ } : {}) }),
    b.addTensor({ name: 'concat', type: type(TensorType.UINT8), shape: [batch, total], ...(c.quantized ? { quantization: act } : {}) }),
    b.addTensor({
      name: 'activ_temp',
      type: type(TensorType.INT16),
      shape: [batch, 4 * depth],
      ...(c.quantized ? { quantization: { scale: [1 / 4096], zeroPoint: [0] } } : {}),
    }),
  ];
  b.addOperator({
    op: BuiltinOperator.LSTM,
    version: c.quantized ? 2 : 1,
    inputs: [x, prevActiv, w, bias, prevState],
    outputs: out,
    rawOptions: [
      { id: 0, type: 'int8', value: ActivationFunctionType.TANH },
      { id: 3, type: 'int8', value: 1 },
    ],
  });
  const graphInputs = c.variables ? [x] : [x, prevActiv, prevState];
  return { bytes: b.setInputs(graphInputs).setOutputs(out).build(), inputs };
}

const CASES: [string, Case][] = [
  ['uint8, batch 1, state as graph inputs', { quantized: true, batch: 1, inDepth: 3, depth: 4, variables: false }],
  [
    'uint8, batch 3, weights zero point 121, larger bias scale',
    { quantized: true, batch: 3, inDepth: 5, depth: 6, variables: false, weightsZeroPoint: 121, biasScale: 0.0004 },
  ],
  ['uint8, batch 2, state as variables (carried across invokes)', { quantized: true, batch: 2, inDepth: 4, depth: 3, variables: true }],
  ['float32, batch 3, state as graph inputs', { quantized: false, batch: 3, inDepth: 5, depth: 4, variables: false }],
  ['float32, batch 2, state as variables', { quantized: false, batch: 2, inDepth: 3, depth: 5, variables: true }],
];

describe.skipIf(!oracleAvailable)('LSTM BASIC kernel vs TFLite 2.9', () => {
  it.each(CASES.map(([label, c], i) => [label, c, i] as const))('%s', (_, c, i) => {
    const model = basicModel(c, 50 + i);
    const oracle = new TfliteOracle(model.bytes);
    const interp = new MicroInterpreter(loadModel(model.bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
    interp.allocateTensors();
    let maxDiff = 0;
    for (let k = 0; k < INVOKES; k++) {
      const bytes = model.inputs.map((o, j) => encodeValues(o.type, randomValues(o.type, o.count, 4000 + i * 97 + k * 13 + j, o.range)));
      const want = oracle.run(bytes);
      bytes.forEach((v, j) => interp.setInput(j, v));
      interp.invoke();
      expect(want.length).toBe(4);
      want.forEach((wb, j) => {
        const d = compareOutput(
          { dtype: tensorTypeName(interp.output(j).type), bytes: interp.output(j).bytes.slice() },
          { dtype: oracle.outputs[j]!.dtype, bytes: wb },
        );
        if (c.quantized) expect(d.maxAbsDiff, `invoke ${k}, output ${j}`).toBe(0);
        maxDiff = Math.max(maxDiff, d.maxAbsDiff);
        expect(d.ok, `invoke ${k}, output ${j}: ${d.detail}`).toBe(true);
      });
    }
    if (!c.quantized) console.log(`${CASES[i]![0]}: max |Δ| ${maxDiff.toExponential(2)}`);
    interp.dispose();
  });
});
