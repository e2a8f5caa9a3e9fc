/**
 * LSTM's integer kernel (int8 input and output state, int8 weights, int16 cell state, 5 intermediate
 * tensors: TFLite's 8x8_16 cell, lstm-integer-tflite.ts) against TFLite 2.9 on writer-made models: the
 * plain cell, CIFG, peephole, layer normalization, projection with bias and clip, cell clip, nonzero
 * zero points, a hidden intermediate whose scale differs from the output state's, and two cell scales.
 * Each model is invoked three times with new inputs (the states carry over); outputs byte-equal.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import { encodeValues, randomValues } from '@micrort/test-support/tflite-recipe-builder';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

interface Variant {
  cifg?: boolean;
  peephole?: boolean;
  layerNorm?: boolean;
  projection?: boolean;
  cellClip?: number;
  projClip?: number;
  /** log2 of the cell state scale (default -11). */
  cellPower?: number;
  inputZp?: number;
  stateZp?: number;
  hidden?: { scale: number; zeroPoint: number };
}

const INVOKES = 3;

/** An LSTM model of `v` (batch 2, 5 inputs, 4 cells; 3 outputs with projection). */
function lstmModel(v: Variant, seed: number): Uint8Array {
  const [batch, nInput, nCell] = [2, 5, 4];
  const nOutput = v.projection ? 3 : nCell;
  const b = new ModelBuilder();
  let k = 0;
  const xq = { scale: 0.03, zeroPoint: v.inputZp ?? 0 };
  const hq = { scale: 1 / 128, zeroPoint: v.stateZp ?? 0 };
  const constant = (type: 'int8' | 'int16' | 'int32', shape: number[], scale: number, range: [number, number]) =>
    b.addTensor({
      name: `c${k++}`,
      type: type === 'int8' ? TensorType.INT8 : type === 'int16' ? TensorType.INT16 : TensorType.INT32,
      shape,
      data: encodeValues(
        type,
        randomValues(
          type,
          shape.reduce((a, c) => a * c, 1),
          seed * 131 + k,
          range,
        ),
      ),
      quantization: { scale: [scale], zeroPoint: [0] },
    });
  const x = b.addTensor({
    name: 'x',
    type: TensorType.INT8,
    shape: [batch, nInput],
    quantization: { scale: [xq.scale], zeroPoint: [xq.zeroPoint] },
  });
  const w = (cols: number, scale: number) => constant('int8', [nCell, cols], scale, [-127, 127]);
  const cifg = v.cifg ?? false;
  const inputW = [0, 1, 2, 3].map((g) => (cifg && g === 0 ? -1 : w(nInput, 0.02)));
  const recW = [0, 1, 2, 3].map((g) => (cifg && g === 0 ? -1 : w(nOutput, 0.015)));
  const peep = [0, 1, 3].map((g) => (v.peephole && !(cifg && g === 0) ? constant('int16', [nCell], 0.0002, [-3000, 3000]) : -1));
  const biasScale = v.layerNorm ? 1 / 65536 : xq.scale * 0.02;
  const bias = [0, 1, 2, 3].map((g) => (cifg && g === 0 ? -1 : constant('int32', [nCell], biasScale, [-3000, 3000])));
  const projW = v.projection ? constant('int8', [nOutput, nCell], 0.015, [-127, 127]) : -1;
  const projB = v.projection ? constant('int32', [nOutput], 0.0001, [-500, 500]) : -1;
  const outState = b.addTensor({
    name: 'h',
    type: TensorType.INT8,
    shape: [batch, nOutput],
    variable: true,
    quantization: { scale: [hq.scale], zeroPoint: [hq.zeroPoint] },
  });
  const cellScale = Math.pow(2, v.cellPower ?? -11);
  const cellState = b.addTensor({
    name: 'c',
    type: TensorType.INT16,
    shape: [batch, nCell],
    variable: true,
    quantization: { scale: [cellScale], zeroPoint: [0] },
  });
  const ln = [0, 1, 2, 3].map((g) => (v.layerNorm && !(cifg && g === 0) ? constant('int16', [nCell], 1 / 16384, [8000, 24000]) : -1));
  const y = b.addTensor({
    name: 'y',
    type: TensorType.INT8,
    shape: [batch, nOutput],
    quantization: { scale: [hq.scale], zeroPoint: [hq.zeroPoint] },
  });
  const gateScales = [0.0007, 0.0005, 0.0009, 0.0006];
  const intermediates = [0, 1, 2, 3].map((g) =>
    b.addTensor({
      name: `i${g}`,
      type: TensorType.INT16,
      shape: [],
      quantization: { scale: [v.layerNorm ? gateScales[g]! : 1 / 4096], zeroPoint: [0] },
    }),
  );
  const hidden = v.hidden ?? { scale: 1 / 128, zeroPoint: 0 };
  intermediates.push(
    b.addTensor({
      name: 'hidden',
      type: TensorType.INT8,
      shape: [],
      quantization: { scale: [hidden.scale], zeroPoint: [hidden.zeroPoint] },
    }),
  );
  b.addOperator({
    op: BuiltinOperator.LSTM,
    version: 4,
    inputs: [x, ...inputW, ...recW, ...peep, ...bias, projW, projB, outState, cellState, ...ln],
    outputs: [y],
    intermediates,
    options: { cellClip: v.cellClip ?? 0, projClip: v.projClip ?? 0, kernelType: 0 },
  });
  return b.setInputs([x]).setOutputs([y]).build();
}

const VARIANTS: [string, Variant][] = [
  ['plain', {}],
  ['zero points, hidden intermediate scale', { inputZp: 7, stateZp: -5, hidden: { scale: 0.011, zeroPoint: 3 } }],
  ['cell clip, cell scale 2^-12', { cellClip: 0.9, cellPower: -12 }],
  ['cell scale 2^-10', { cellPower: -10 }],
  ['CIFG', { cifg: true }],
  ['peephole', { peephole: true }],
  ['CIFG, peephole', { cifg: true, peephole: true }],
  ['projection with bias and clip', { projection: true, projClip: 0.3, hidden: { scale: 0.006, zeroPoint: -2 } }],
  ['layer norm', { layerNorm: true }],
  ['peephole, projection (TFLite steps the peephole rows by the output size)', { peephole: true, projection: true }],
  ['layer norm, CIFG, peephole, projection', { layerNorm: true, cifg: true, peephole: true, projection: true, stateZp: 4 }],
];

describe.skipIf(!oracleAvailable)('LSTM integer (8x8_16) vs TFLite 2.9', () => {
  it.each(VARIANTS.map(([label, v], i) => [label, v, i] as const))('%s', (_, v, i) => {
    const model = lstmModel(v, 900 + i);
    const oracle = new TfliteOracle(model);
    const interp = new MicroInterpreter(loadModel(model), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
    interp.allocateTensors();
    let compared = 0;
    for (let k = 0; k < INVOKES; k++) {
      const x = encodeValues('int8', randomValues('int8', 10, 7000 + i * 31 + k, [-128, 127]));
      const want = oracle.run([x]);
      interp.setInput(0, x);
      interp.invoke();
      expect(Array.from(new Int8Array(interp.output(0).bytes.slice().buffer)), `invoke ${k}`).toEqual(
        Array.from(new Int8Array(want[0]!.slice().buffer)),
      );
      compared += want[0]!.length;
    }
    expect(compared).toBe(INVOKES * 2 * (v.projection ? 3 : 4));
    interp.dispose();
  });
});
