/**
 * The recurrent kernels of registrations/tflite-recurrent.ts (RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
 * BIDIRECTIONAL_SEQUENCE_RNN, LSTM) against TFLite 2.9 on writer-made models: every activation, time-
 * and batch-major layouts, merged and split bidirectional outputs, aux inputs with and without aux
 * weights, and the LSTM variants (CIFG, peephole, layer norm, projection with and without bias, the
 * clips; and UNIDIRECTIONAL_SEQUENCE_LSTM's float variants through the same cell). Each model is
 * invoked three times with new inputs, so the states carried across invokes are compared too. Floats within 1e-5 + 1e-4·|TFLite|.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType as Act,
  BuiltinOperator as Op,
  MicroInterpreter,
  loadModel,
  tensorTypeName,
  type BuiltinOptionsSpec,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import { compareOutput } from '@micrort/test-support/output-compare';
import { singleOpModel, type Operand } from '@micrort/test-support/single-op-model';
import { encodeValues, randomValues } from '@micrort/test-support/tflite-recipe-builder';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const INVOKES = 3;
const maxDiff = new Map<string, number>();

const input = (shape: number[]): Operand => ({ type: 'float32', shape, range: [-1, 1] });
const weight = (shape: number[], range: [number, number] = [-0.6, 0.6]): Operand => ({ type: 'float32', shape, range, constant: true });
const state = (shape: number[]): Operand => ({ type: 'float32', shape, variable: true });
const out = (shape: number[]): Operand => ({ type: 'float32', shape });

/**
 * Builds the model, then invokes it INVOKES times in micrort and in TFLite 2.9 with the same fresh
 * inputs each time, comparing every output after every invoke.
 */
function expectSame(
  label: string,
  op: Op,
  options: BuiltinOptionsSpec,
  inputs: readonly (Operand | null)[],
  outputs: readonly Operand[],
  seed: number,
): void {
  const model = singleOpModel({ op, options }, inputs, outputs, seed);
  const oracle = new TfliteOracle(model.bytes);
  const interp = new MicroInterpreter(loadModel(model.bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
  interp.allocateTensors();
  const graphInputs = inputs.filter((o): o is Operand => o !== null && !o.constant && !o.variable);
  for (let k = 0; k < INVOKES; k++) {
    const bytes = graphInputs.map((o, i) =>
      encodeValues(
        o.type,
        randomValues(
          o.type,
          o.shape.reduce((a, b) => a * b, 1),
          seed * 31 + k * 977 + i,
          o.range,
        ),
      ),
    );
    const want = oracle.run(bytes);
    bytes.forEach((b, i) => interp.setInput(i, b));
    interp.invoke();
    want.forEach((w, j) => {
      const d = compareOutput(
        { dtype: tensorTypeName(interp.output(j).type), bytes: interp.output(j).bytes.slice() },
        { dtype: oracle.outputs[j]!.dtype, bytes: w },
      );
      maxDiff.set(label, Math.max(maxDiff.get(label) ?? 0, d.maxAbsDiff));
      expect(d.ok, `${label}, invoke ${k}, output ${j}: ${d.detail}`).toBe(true);
    });
  }
  interp.dispose();
}

const ACTIVATIONS = [Act.TANH, Act.RELU, Act.NONE, Act.RELU6, Act.RELU_N1_TO_1, Act.SIGN_BIT];

/** One RNN cell's inputs: weights, recurrent weights, bias, hidden state. */
const rnnCell = (units: number, inputSize: number, batch: number): Operand[] => [
  weight([units, inputSize]),
  weight([units, units], [-0.4, 0.4]),
  weight([units]),
  state([batch, units]),
];

/** The 24 inputs of an LSTM with the given variant. */
function lstmInputs(
  x: Operand,
  batch: number,
  nInput: number,
  nCell: number,
  nOutput: number,
  v: { cifg?: boolean; peephole?: boolean; layerNorm?: boolean; projection?: boolean; projectionBias?: boolean },
): (Operand | null)[] {
  const w = (cols: number) => weight([nCell, cols], [-0.5, 0.5]);
  const vec = (range: [number, number] = [-0.5, 0.5]) => weight([nCell], range);
  const cifg = v.cifg ?? false;
  return [
    x,
    cifg ? null : w(nInput),
    w(nInput),
    w(nInput),
    w(nInput),
    cifg ? null : w(nOutput),
    w(nOutput),
    w(nOutput),
    w(nOutput),
    v.peephole && !cifg ? vec() : null,
    v.peephole ? vec() : null,
    v.peephole ? vec() : null,
    cifg ? null : vec(),
    vec([0.5, 1.5]),
    vec(),
    vec(),
    v.projection ? weight([nOutput, nCell], [-0.5, 0.5]) : null,
    v.projection && v.projectionBias ? weight([nOutput], [-0.2, 0.2]) : null,
    state([batch, nOutput]),
    state([batch, nCell]),
    v.layerNorm && !cifg ? vec([0.5, 1.5]) : null,
    v.layerNorm ? vec([0.5, 1.5]) : null,
    v.layerNorm ? vec([0.5, 1.5]) : null,
    v.layerNorm ? vec([0.5, 1.5]) : null,
  ];
}

describe.skipIf(!oracleAvailable)('TFLite recurrent builtins vs TFLite 2.9', () => {
  it('RNN: every activation, batch 1 and 3', () => {
    let seed = 1;
    for (const activation of ACTIVATIONS)
      for (const batch of [1, 3])
        expectSame(
          'RNN',
          Op.RNN,
          { fusedActivationFunction: activation },
          [input([batch, 5]), ...rnnCell(4, 5, batch)],
          [out([batch, 4])],
          seed++,
        );
  });

  it('UNIDIRECTIONAL_SEQUENCE_RNN: time- and batch-major, activations', () => {
    let seed = 100;
    for (const timeMajor of [false, true])
      for (const activation of [Act.TANH, Act.RELU, Act.NONE]) {
        const [batch, time, inputSize, units] = [2, 4, 3, 5];
        const lead = timeMajor ? [time, batch] : [batch, time];
        expectSame(
          'UNIDIRECTIONAL_SEQUENCE_RNN',
          Op.UNIDIRECTIONAL_SEQUENCE_RNN,
          { timeMajor, fusedActivationFunction: activation },
          [input([...lead, inputSize]), ...rnnCell(units, inputSize, batch)],
          [out([...lead, units])],
          seed++,
        );
      }
  });

  it('BIDIRECTIONAL_SEQUENCE_RNN: layouts, merged outputs, aux input with and without aux weights', () => {
    let seed = 200;
    const [batch, time, inputSize, fwUnits, bwUnits] = [2, 3, 4, 3, 5];
    for (const timeMajor of [true, false])
      for (const merge of [false, true])
        for (const aux of ['none', 'weights', 'backward-input'] as const) {
          // Batch-major, TFLite's float kernel runs the backward cell on the input even when the aux input
          // is its input (stacking without cross links; its time-major loop reads the aux input, as the
          // kernel's own comment defines): micrort reads the aux input in both layouts, so that case is
          // compared time-major only.
          if (!timeMajor && aux === 'backward-input') continue;
          const lead = timeMajor ? [time, batch] : [batch, time];
          // The aux input has the input's size: TFLite steps through the aux input by the input's size (its
          // bidirectional_sequence_rnn.cc EvalFloat), reading out of bounds when the aux input is narrower;
          // micrort steps by the aux input's own size, which agrees whenever TFLite reads in bounds.
          const auxSize = inputSize;
          const inputs = [
            input([...lead, inputSize]),
            ...rnnCell(fwUnits, inputSize, batch),
            ...rnnCell(bwUnits, inputSize, batch),
            aux === 'none' ? null : input([...lead, auxSize]),
            aux === 'weights' ? weight([fwUnits, auxSize]) : null,
            aux === 'weights' ? weight([bwUnits, auxSize]) : null,
          ];
          const outputs = merge ? [out([...lead, fwUnits + bwUnits])] : [out([...lead, fwUnits]), out([...lead, bwUnits])];
          expectSame(
            `BIDIRECTIONAL_SEQUENCE_RNN time_major ${timeMajor} merge ${merge} aux ${aux}`,
            Op.BIDIRECTIONAL_SEQUENCE_RNN,
            { timeMajor, mergeOutputs: merge, fusedActivationFunction: Act.TANH },
            inputs,
            outputs,
            seed++,
          );
        }
  });

  it('LSTM: plain, CIFG, peephole, layer norm, projection (with and without bias), clips, activations', () => {
    let seed = 300;
    const variants = [
      {},
      { cifg: true },
      { peephole: true },
      { peephole: true, cifg: true },
      { layerNorm: true },
      { layerNorm: true, cifg: true, peephole: true },
      { projection: true },
      { projection: true, projectionBias: true },
      { projection: true, projectionBias: true, layerNorm: true, peephole: true },
    ];
    for (const v of variants)
      for (const [activation, cellClip, projClip] of [
        [Act.TANH, 0, 0],
        [Act.TANH, 0.3, 0.1],
        [Act.RELU, 0, 0],
        [Act.NONE, 0, 0],
      ] as const) {
        const [batch, nInput, nCell] = [2, 3, 4];
        const nOutput = v.projection ? 3 : nCell;
        expectSame(
          'LSTM',
          Op.LSTM,
          { fusedActivationFunction: activation, cellClip, projClip },
          lstmInputs(input([batch, nInput]), batch, nInput, nCell, nOutput, v),
          [out([batch, nOutput])],
          seed++,
        );
      }
  });

  it('UNIDIRECTIONAL_SEQUENCE_LSTM float variants TFLM refuses: CIFG, peephole, layer norm, projection; both layouts', () => {
    let seed = 500;
    const variants = [
      { cifg: true },
      { peephole: true },
      { layerNorm: true },
      { projection: true },
      { projection: true, projectionBias: true, peephole: true },
      { projection: true, projectionBias: true, layerNorm: true, cifg: true },
    ];
    for (const v of variants)
      for (const [timeMajor, activation, cellClip, projClip] of [
        [false, Act.TANH, 0, 0],
        [true, Act.TANH, 0.3, 0.1],
        [false, Act.RELU, 0.5, 0.2],
      ] as const) {
        const [batch, steps, nInput, nCell] = [2, 3, 3, 4];
        const nOutput = v.projection ? 3 : nCell;
        const [d0, d1] = timeMajor ? [steps, batch] : [batch, steps];
        expectSame(
          'UNIDIRECTIONAL_SEQUENCE_LSTM',
          Op.UNIDIRECTIONAL_SEQUENCE_LSTM,
          { fusedActivationFunction: activation, cellClip, projClip, timeMajor },
          lstmInputs(input([d0, d1, nInput]), batch, nInput, nCell, nOutput, v),
          [out([d0, d1, nOutput])],
          seed++,
        );
      }
  });

  it('BIDIRECTIONAL_SEQUENCE_LSTM: layouts, merged outputs, CIFG, peephole, projection, aux input with and without aux weights', () => {
    let seed = 400;
    const [batch, time, nInput, nCell] = [2, 3, 3, 4];
    const variants = [{}, { cifg: true, peephole: true }, { projection: true, projectionBias: true }];
    for (const timeMajor of [true, false])
      for (const merge of [false, true])
        for (const aux of ['none', 'weights', 'backward-input'] as const)
          for (const v of variants) {
            // Batch-major, TFLite 2.9 offsets each batch's output state by the output row width, which with
            // merged outputs is both directions' (it reads and writes the wrong state rows), and runs the
            // backward cell on the input when the aux input is its input (as in BIDIRECTIONAL_SEQUENCE_RNN):
            // micrort keeps each batch's own state and reads the aux input, so those cases are compared
            // time-major only. The aux input has the input's size (TFLite steps through it by the input's).
            if (!timeMajor && (merge || aux === 'backward-input')) continue;
            const lead = timeMajor ? [time, batch] : [batch, time];
            const nOutput = 'projection' in v ? 2 : nCell;
            const x = input([...lead, nInput]);
            const cell = (): (Operand | null)[] => lstmInputs(x, batch, nInput, nCell, nOutput, v).slice(1, 18);
            const fw = cell();
            const bw = cell();
            const auxWeights = (): (Operand | null)[] =>
              [0, 1, 2, 3].map((g) => (aux === 'weights' && !('cifg' in v && g === 0) ? weight([nCell, nInput], [-0.5, 0.5]) : null));
            const inputs = [
              x,
              ...fw,
              ...bw,
              state([batch, nOutput]),
              state([batch, nCell]),
              state([batch, nOutput]),
              state([batch, nCell]),
              aux === 'none' ? null : input([...lead, nInput]),
              ...auxWeights(),
              ...auxWeights(),
            ];
            const outputs = merge ? [out([...lead, 2 * nOutput])] : [out([...lead, nOutput]), out([...lead, nOutput])];
            expectSame(
              `BIDIRECTIONAL_SEQUENCE_LSTM time_major ${timeMajor} merge ${merge} aux ${aux} ${JSON.stringify(v)}`,
              Op.BIDIRECTIONAL_SEQUENCE_LSTM,
              { fusedActivationFunction: Act.TANH, cellClip: 0, projClip: 0, mergeOutputs: merge, timeMajor },
              inputs,
              outputs,
              seed++,
            );
          }
  });

  it('hybrid RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN: int8 and uint8 weights, symmetric and asymmetric inputs', () => {
    let seed = 600;
    const hw = (type: 'int8' | 'uint8', shape: number[], scale: number): Operand => ({
      type,
      shape,
      q: { scale, zeroPoint: 0 },
      constant: true,
      range: type === 'int8' ? [-127, 127] : [0, 255],
    });
    const hybridCell = (type: 'int8' | 'uint8', units: number, inputSize: number, batch: number): Operand[] => [
      hw(type, [units, inputSize], 0.004),
      hw(type, [units, units], 0.003),
      weight([units]),
      state([batch, units]),
    ];
    for (const type of ['int8', 'uint8'] as const)
      for (const asymmetric of [false, true]) {
        const label = (op: string) => `${op} hybrid ${type}${asymmetric ? ' asymmetric' : ''}`;
        expectSame(
          label('RNN'),
          Op.RNN,
          { fusedActivationFunction: Act.TANH, asymmetricQuantizeInputs: asymmetric },
          [input([3, 5]), ...hybridCell(type, 4, 5, 3)],
          [out([3, 4])],
          seed++,
        );
        for (const timeMajor of [false, true]) {
          const lead = timeMajor ? [4, 2] : [2, 4];
          expectSame(
            label('UNIDIRECTIONAL_SEQUENCE_RNN'),
            Op.UNIDIRECTIONAL_SEQUENCE_RNN,
            { timeMajor, fusedActivationFunction: Act.RELU, asymmetricQuantizeInputs: asymmetric },
            [input([...lead, 3]), ...hybridCell(type, 5, 3, 2)],
            [out([...lead, 5])],
            seed++,
          );
        }
        // Batch-major only: TFLite 2.9's hybrid time-major loop runs both directions max_time times per
        // invoke (an outer loop over t around the loops over s), so its states advance max_time steps per
        // step; micrort runs each step once, as its float kernel and the batch-major loop do.
        for (const merge of [false, true])
          for (const aux of [false, true]) {
            const [batch, time, inputSize] = [2, 3, 4];
            const lead = [batch, time];
            expectSame(
              label(`BIDIRECTIONAL_SEQUENCE_RNN${merge ? ' merged' : ''}${aux ? ' aux' : ''}`),
              Op.BIDIRECTIONAL_SEQUENCE_RNN,
              { timeMajor: false, mergeOutputs: merge, fusedActivationFunction: Act.TANH, asymmetricQuantizeInputs: asymmetric },
              [
                input([...lead, inputSize]),
                ...hybridCell(type, 3, inputSize, batch),
                ...hybridCell(type, 2, inputSize, batch),
                aux ? input([...lead, inputSize]) : null,
                aux ? hw(type, [3, inputSize], 0.005) : null,
                aux ? hw(type, [2, inputSize], 0.005) : null,
              ],
              merge ? [out([...lead, 5])] : [out([...lead, 3]), out([...lead, 2])],
              seed++,
            );
          }
      }
  });

  it('hybrid LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM (both layouts) and BIDIRECTIONAL_SEQUENCE_LSTM: int8 and uint8 weights, symmetric and asymmetric inputs, variants', () => {
    let seed = 700;
    // Weights (matrices, peepholes, projection) of a float LSTM's inputs as hybrid int8/uint8 constants.
    const weightPositions = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16]);
    const hybridize = (inputs: (Operand | null)[], type: 'int8' | 'uint8', offset = 0): (Operand | null)[] =>
      inputs.map((o, i) =>
        o !== null && weightPositions.has(i + offset)
          ? { type, shape: o.shape, q: { scale: 0.005, zeroPoint: 0 }, constant: true, range: type === 'int8' ? [-127, 127] : [0, 255] }
          : o,
      );
    const variants = [{}, { cifg: true, peephole: true }, { projection: true, projectionBias: true }, { layerNorm: true, peephole: true }];
    for (const type of ['int8', 'uint8'] as const)
      for (const asymmetric of [false, true])
        for (const v of variants) {
          const [batch, nInput, nCell] = [2, 3, 4];
          const nOutput = 'projection' in v ? 3 : nCell;
          expectSame(
            `LSTM hybrid ${type}${asymmetric ? ' asymmetric' : ''} ${JSON.stringify(v)}`,
            Op.LSTM,
            { fusedActivationFunction: Act.TANH, cellClip: 0, projClip: 0, asymmetricQuantizeInputs: asymmetric },
            hybridize(lstmInputs(input([batch, nInput]), batch, nInput, nCell, nOutput, v), type),
            [out([batch, nOutput])],
            seed++,
          );
          for (const timeMajor of [false, true]) {
            const [d0, d1] = timeMajor ? [3, batch] : [batch, 3];
            expectSame(
              `UNIDIRECTIONAL_SEQUENCE_LSTM hybrid ${type}${asymmetric ? ' asymmetric' : ''} time_major ${timeMajor} ${JSON.stringify(v)}`,
              Op.UNIDIRECTIONAL_SEQUENCE_LSTM,
              { fusedActivationFunction: Act.TANH, cellClip: 0.8, projClip: 0, timeMajor, asymmetricQuantizeInputs: asymmetric },
              hybridize(lstmInputs(input([d0, d1, nInput]), batch, nInput, nCell, nOutput, v), type),
              [out([d0, d1, nOutput])],
              seed++,
            );
          }
          if ('layerNorm' in v) continue;
          const [time] = [3];
          const x = input([time, batch, nInput]);
          const cell = () => hybridize(lstmInputs(x, batch, nInput, nCell, nOutput, v), type).slice(1, 18);
          expectSame(
            `BIDIRECTIONAL_SEQUENCE_LSTM hybrid ${type}${asymmetric ? ' asymmetric' : ''} ${JSON.stringify(v)}`,
            Op.BIDIRECTIONAL_SEQUENCE_LSTM,
            { fusedActivationFunction: Act.TANH, mergeOutputs: true, timeMajor: true, asymmetricQuantizeInputs: asymmetric },
            [
              x,
              ...cell(),
              ...cell(),
              state([batch, nOutput]),
              state([batch, nCell]),
              state([batch, nOutput]),
              state([batch, nCell]),
              ...Array.from({ length: 9 }, () => null),
            ],
            [out([time, batch, 2 * nOutput])],
            seed++,
          );
        }
  });

  it('prints the largest differences', () => {
    console.log([...maxDiff].map(([op, d]) => `${op}: max |Δ| ${d.toExponential(2)}`).join('\n'));
    expect(new Set([...maxDiff.keys()].map((k) => k.split(' ')[0])).size).toBe(6);
  });
});
