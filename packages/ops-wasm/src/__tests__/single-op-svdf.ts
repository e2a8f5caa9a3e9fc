/**
 * Test support: random int8 SVDF layers (int16 or int8 activation state) built with ModelBuilder, run
 * for several invokes (the state carried across them) through ops-reference alone and through ops-wasm in
 * front of it; every invoke's output bytes are kept for comparison.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { PROVIDER } from '../provider.js';
import type { WasmKernels } from '../create-wasm-kernels.js';
import { int, int8s, pick, rng } from './single-op.js';
import { FC_ACTIVATIONS, hybridInputs } from './single-op-hybrid.js';

/** One random SVDF layer. */
export interface SvdfCase {
  batches: number;
  inputSize: number;
  units: number;
  rank: number;
  memory: number;
  bias: boolean;
  activation: ActivationFunctionType;
  state16: boolean;
  inZp: number;
  stateZp: number;
  outZp: number;
  /** Effective scale of the feature matmul into the state and of the time matmul into the output. */
  scale1: number;
  scale2: number;
  seed: number;
}

/** A random case: odd input sizes and memories, ranks 1-3, gains that saturate now and then. */
export function randomSvdfCase(seed: number): SvdfCase {
  const r = rng(seed);
  const state16 = r() < 0.5;
  const inputSize = pick(r, [int(r, 1, 20), int(r, 1, 70), 96]);
  const memory = pick(r, [int(r, 1, 12), 8, 16, int(r, 17, 40)]);
  const gain = pick(r, [1, 1, 1, 30, 0.02]);
  return {
    batches: int(r, 1, 2),
    inputSize,
    units: int(r, 1, 13),
    rank: int(r, 1, 3),
    memory,
    bias: r() < 0.75,
    activation: pick(r, [ActivationFunctionType.NONE, ActivationFunctionType.RELU]),
    state16,
    inZp: pick(r, [-128, 127, 0, int(r, -128, 127)]),
    stateZp: state16 ? 0 : pick(r, [0, -128, 127, int(r, -128, 127)]),
    outZp: pick(r, [-128, 127, 0, int(r, -128, 127)]),
    // about the spread of the state's type from sums of sqrt(K) products of ~74 x ~74 (feature) and
    // sqrt(M) products of the state's spread x the time weights' (time)
    scale1: (gain * (state16 ? 1 : 0.006)) / Math.sqrt(inputSize),
    scale2: (gain * (state16 ? 2.5e-7 : 0.005)) / Math.sqrt(memory),
    seed,
  };
}

/** The model of a case (input scale 1/64, state and time weights scale 1: bias scale 1) and `steps` invokes' inputs. */
export function buildSvdf(c: SvdfCase, steps: number): { def: ModelDef; inputs: Int8Array[] } {
  const r = rng(c.seed * 7919 + 1);
  const b = new ModelBuilder();
  const filters = c.units * c.rank;
  const stateType = c.state16 ? TensorType.INT16 : TensorType.INT8;
  const inScale = 1 / 64;
  const input = b.addTensor({
    name: 'x',
    type: TensorType.INT8,
    shape: [c.batches, c.inputSize],
    quantization: { scale: inScale, zeroPoint: c.inZp },
  });
  const feature = b.addTensor({
    name: 'wf',
    type: TensorType.INT8,
    shape: [filters, c.inputSize],
    data: int8s(r, filters * c.inputSize),
    quantization: { scale: c.scale1 / inScale, zeroPoint: 0 },
  });
  const timeData = c.state16
    ? Int16Array.from({ length: filters * c.memory }, () => (r() < 0.05 ? pick(r, [-32768, 32767]) : int(r, -20000, 20000)))
    : int8s(r, filters * c.memory);
  const time = b.addTensor({
    name: 'wt',
    type: stateType,
    shape: [filters, c.memory],
    data: timeData,
    quantization: { scale: 1, zeroPoint: 0 },
  });
  const biasRange = c.state16 ? 1e8 : 5000;
  const bias = c.bias
    ? b.addTensor({
        name: 'b',
        type: TensorType.INT32,
        shape: [c.units],
        data: Int32Array.from({ length: c.units }, () => int(r, -biasRange, biasRange)),
        quantization: { scale: 1, zeroPoint: 0 },
      })
    : -1;
  const state = b.addTensor({
    name: 'state',
    type: stateType,
    shape: [c.batches, c.memory * filters],
    variable: true,
    quantization: { scale: 1, zeroPoint: c.stateZp },
  });
  const output = b.addTensor({
    name: 'y',
    type: TensorType.INT8,
    shape: [c.batches, c.units],
    quantization: { scale: 1 / c.scale2, zeroPoint: c.outZp },
  });
  b.addOperator({
    op: BuiltinOperator.SVDF,
    inputs: [input, feature, time, bias, state],
    outputs: [output],
    options: { rank: c.rank, fusedActivationFunction: c.activation, asymmetricQuantizeInputs: false },
  });
  b.setInputs([input]).setOutputs([output]);
  const inputs = Array.from({ length: steps }, () => int8s(r, c.batches * c.inputSize));
  return { def: b.buildDef(), inputs };
}

/**
 * Runs `def` for one invoke per element of `steps` (each the bytes of every input), with ops-reference
 * alone (`wasm` null) or ops-wasm in front: every invoke's outputs, and how many nodes ops-wasm served.
 */
export function runSteps(def: ModelDef, steps: readonly Int8Array[][], wasm: WasmKernels | null): { outs: Int8Array[][]; served: number } {
  const resolver = registerReferenceOps(new OpResolver());
  if (wasm) resolver.registerAll(wasm.kernels, { fallback: true });
  const it = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(wasm ? { arenaBacking: wasm.arenaBacking } : {}),
  }).allocateTensors();
  const outs = steps.map((inputs) => {
    inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
    it.invoke();
    return Array.from({ length: it.outputsSize }, (_, j) => Int8Array.from(it.output(j).bytes));
  });
  return { outs, served: it.nodes().filter((n) => n.provider === PROVIDER).length };
}

/** A float32 layer: the shape of an SvdfCase without its quantization. */
export type SvdfF32Case = Pick<SvdfCase, 'batches' | 'inputSize' | 'units' | 'rank' | 'memory' | 'bias' | 'activation' | 'seed'>;

/**
 * The float32 model of a case (inputs in [-1, 1], weights scaled by 1/sqrt(fan-in), realistic magnitudes)
 * and `steps` invokes' inputs as bytes.
 */
export function buildSvdfF32(c: SvdfF32Case, steps: number): { def: ModelDef; inputs: Int8Array[] } {
  const r = rng(c.seed * 7919 + 3);
  const floats = (n: number, scale: number) => Float32Array.from({ length: n }, () => (2 * r() - 1) * scale);
  const b = new ModelBuilder();
  const filters = c.units * c.rank;
  const f = TensorType.FLOAT32;
  const input = b.addTensor({ name: 'x', type: f, shape: [c.batches, c.inputSize] });
  const feature = b.addTensor({
    name: 'wf',
    type: f,
    shape: [filters, c.inputSize],
    data: floats(filters * c.inputSize, 1 / Math.sqrt(c.inputSize)),
  });
  const time = b.addTensor({ name: 'wt', type: f, shape: [filters, c.memory], data: floats(filters * c.memory, 1 / Math.sqrt(c.memory)) });
  const bias = c.bias ? b.addTensor({ name: 'b', type: f, shape: [c.units], data: floats(c.units, 0.5) }) : -1;
  const state = b.addTensor({ name: 'state', type: f, shape: [c.batches, c.memory * filters], variable: true });
  const output = b.addTensor({ name: 'y', type: f, shape: [c.batches, c.units] });
  b.addOperator({
    op: BuiltinOperator.SVDF,
    inputs: [input, feature, time, bias, state],
    outputs: [output],
    options: { rank: c.rank, fusedActivationFunction: c.activation, asymmetricQuantizeInputs: false },
  });
  b.setInputs([input]).setOutputs([output]);
  const inputs = Array.from({ length: steps }, () => new Int8Array(floats(c.batches * c.inputSize, 1).buffer));
  return { def: b.buildDef(), inputs };
}

/** A hybrid layer (float32 input, state and output, int8 or uint8-read-as-int8 weights): a float32 case's shape and the quantization options. */
export interface HybridSvdfCase extends SvdfF32Case {
  asymmetric: boolean;
  uint8: boolean;
  /** Feature weights with one scale per filter (TFLite's hybrid SVDF reads the first; ops-wasm declines them). */
  perChannel?: boolean;
  /** Time weights that are a graph input (the second), not a constant (the model's inputs list them, the steps do not). */
  dynamicTime?: boolean;
}

/** A random hybrid case: batches 1-3, odd sizes, ranks 1-3, every fused activation, symmetric or asymmetric inputs. */
export function randomHybridSvdfCase(seed: number): HybridSvdfCase {
  const r = rng(seed);
  return {
    batches: int(r, 1, 3),
    inputSize: pick(r, [int(r, 1, 20), int(r, 1, 70), 96]),
    units: int(r, 1, 13),
    rank: int(r, 1, 3),
    memory: pick(r, [int(r, 1, 12), 8, 16, int(r, 17, 40)]),
    bias: r() < 0.75,
    activation: pick(r, FC_ACTIVATIONS),
    asymmetric: r() < 0.5,
    uint8: r() < 0.2,
    seed,
  };
}

/**
 * The hybrid model of a case (int8 weights scaled to about 1 / sqrt(fan-in), TFLite's legacy uint8 type
 * for the same bytes when `uint8`) and `steps` invokes' inputs as bytes: hybridInputs rows (zero rows,
 * one-signed rows, wide magnitudes), every fifth step all zeros (TFLite's IsZeroVector shortcut).
 */
export function buildHybridSvdf(c: HybridSvdfCase, steps: number): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(c.seed * 7919 + 5);
  const b = new ModelBuilder();
  const filters = c.units * c.rank;
  const f = TensorType.FLOAT32;
  const weights = (name: string, shape: number[], fanIn: number, perChannel = false, constant = true) => {
    const scale = (0.5 + r()) / (127 * Math.sqrt(fanIn));
    const scales = Array.from({ length: shape[0]! }, (_, i) => scale * (1 + i / 8));
    const data = int8s(r, shape[0]! * shape[1]!);
    return b.addTensor({
      name,
      type: c.uint8 ? TensorType.UINT8 : TensorType.INT8,
      shape,
      ...(constant ? { data } : {}),
      quantization: perChannel ? { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: 0 } : { scale, zeroPoint: 0 },
    });
  };
  const input = b.addTensor({ name: 'x', type: f, shape: [c.batches, c.inputSize] });
  const feature = weights('wf', [filters, c.inputSize], c.inputSize, c.perChannel);
  const time = weights('wt', [filters, c.memory], c.memory, false, !c.dynamicTime);
  const bias = c.bias
    ? b.addTensor({ name: 'b', type: f, shape: [c.units], data: Float32Array.from({ length: c.units }, () => r() - 0.5) })
    : -1;
  const state = b.addTensor({ name: 'state', type: f, shape: [c.batches, c.memory * filters], variable: true });
  const output = b.addTensor({ name: 'y', type: f, shape: [c.batches, c.units] });
  b.addOperator({
    op: BuiltinOperator.SVDF,
    inputs: [input, feature, time, bias, state],
    outputs: [output],
    options: { rank: c.rank, fusedActivationFunction: c.activation, asymmetricQuantizeInputs: c.asymmetric },
  });
  b.setInputs(c.dynamicTime ? [input, time] : [input]).setOutputs([output]);
  const inputs = Array.from({ length: steps }, (_, s) => {
    const x = s % 5 === 4 ? new Float32Array(c.batches * c.inputSize) : hybridInputs(r, c.batches, c.inputSize);
    return new Int8Array(x.buffer);
  });
  return { def: b.buildDef(), inputs, desc: JSON.stringify(c) };
}
