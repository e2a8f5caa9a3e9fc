/**
 * Converter-shaped models of what current LiteRT runs and TFLite 2.9 does not, built with the model
 * writer: STABLEHLO_COMPOSITE as ai-edge-torch writes it (a named composite with FlexBuffers attributes
 * whose decomposition subgraph holds ordinary TFLite ops; attributes 4 bytes wide, as the converter's
 * `fbb.Float`/`fbb.Int` write them), for the group norm, L2 norm and
 * scaled-dot-product attention composites, a nested composite and one decomposition shared by two
 * composites. Each model also comes with its decomposition inlined into the main subgraph: the same
 * computation, op for op, that TFLite 2.9 (the tfjs-tflite-node oracle) runs.
 */
import { BuiltinOperator as Op, ModelBuilder, TensorType, type StablehloCompositeOptions } from '@micrort/core';
import { flexMap, type FlexEntry } from './flexbuffers.js';

const F32 = TensorType.FLOAT32;

/** A converter-shaped model and the same computation with its composites inlined. */
export interface CompositeModel {
  name: string;
  /** The model with STABLEHLO_COMPOSITE nodes (LiteRT runs it; TFLite 2.9 refuses the op). */
  bytes: Uint8Array;
  /** The decompositions inlined into subgraph 0 (TFLite 2.9 runs it). */
  inline: Uint8Array;
}

/** Emits a decomposition's ops into the builder's current subgraph: given its input tensors, returns its outputs. */
type Emit = (b: ModelBuilder, inputs: readonly number[]) => number[];

/** Deterministic values in [lo, hi) (an LCG), for constants. */
export function lcgValues(n: number, seed: number, lo = -1, hi = 1): number[] {
  let s = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(lo + ((hi - lo) * s) / 2 ** 32);
  }
  return out;
}

let counter = 0;
const fresh = (b: ModelBuilder, shape: readonly number[], name = 't') => b.addTensor({ name: `${name}${counter++}`, type: F32, shape });
const constF = (b: ModelBuilder, shape: readonly number[], values: readonly number[]) =>
  b.addTensor({ name: `c${counter++}`, type: F32, shape, data: Float32Array.from(values) });
const constI = (b: ModelBuilder, values: readonly number[], shape: readonly number[] = [values.length]) =>
  b.addTensor({ name: `i${counter++}`, type: TensorType.INT32, shape, data: Int32Array.from(values) });
const shapeOf = (b: ModelBuilder, t: number): number[] => Array.from(b.buildDef().subgraphs[b.currentSubgraph]!.tensors[t]!.shape);

/** ai-edge-torch's group norm over NHWC input [1, 4, 4, 8], 2 groups: x, weight [8], bias [8]. */
const groupNorm: Emit = (b, [x, weight, bias]) => {
  const grouped = fresh(b, [1, 16, 2, 4], 'grouped');
  b.addOperator({
    op: Op.RESHAPE,
    inputs: [x!, constI(b, [1, 16, 2, 4])],
    outputs: [grouped],
    options: { newShape: Int32Array.of(1, 16, 2, 4) },
  });
  const axes = constI(b, [1, 3]);
  const mean = fresh(b, [1, 1, 2, 1], 'mean');
  b.addOperator({ op: Op.MEAN, inputs: [grouped, axes], outputs: [mean], options: { keepDims: true } });
  const centered = fresh(b, [1, 16, 2, 4], 'centered');
  b.addOperator({ op: Op.SUB, inputs: [grouped, mean], outputs: [centered] });
  const squared = fresh(b, [1, 16, 2, 4], 'squared');
  b.addOperator({ op: Op.MUL, inputs: [centered, centered], outputs: [squared] });
  const variance = fresh(b, [1, 1, 2, 1], 'variance');
  b.addOperator({ op: Op.MEAN, inputs: [squared, axes], outputs: [variance], options: { keepDims: true } });
  const shifted = fresh(b, [1, 1, 2, 1], 'var_eps');
  b.addOperator({ op: Op.ADD, inputs: [variance, constF(b, [], [1e-5])], outputs: [shifted] });
  const inv = fresh(b, [1, 1, 2, 1], 'rsqrt');
  b.addOperator({ op: Op.RSQRT, inputs: [shifted], outputs: [inv] });
  const normed = fresh(b, [1, 16, 2, 4], 'normed');
  b.addOperator({ op: Op.MUL, inputs: [centered, inv], outputs: [normed] });
  const back = fresh(b, [1, 4, 4, 8], 'back');
  b.addOperator({
    op: Op.RESHAPE,
    inputs: [normed, constI(b, [1, 4, 4, 8])],
    outputs: [back],
    options: { newShape: Int32Array.of(1, 4, 4, 8) },
  });
  const scaled = fresh(b, [1, 4, 4, 8], 'scaled');
  b.addOperator({ op: Op.MUL, inputs: [back, weight!], outputs: [scaled] });
  const y = fresh(b, [1, 4, 4, 8], 'group_norm');
  b.addOperator({ op: Op.ADD, inputs: [scaled, bias!], outputs: [y] });
  return [y];
};

/** ai-edge-torch's L2 normalization of [2, 16] along the last axis: x / sqrt(max(sum(x²), ε)). */
const l2Norm: Emit = (b, [x]) => {
  const sq = fresh(b, [2, 16], 'sq');
  b.addOperator({ op: Op.MUL, inputs: [x!, x!], outputs: [sq] });
  const sum = fresh(b, [2, 1], 'sum');
  b.addOperator({ op: Op.SUM, inputs: [sq, constI(b, [-1])], outputs: [sum], options: { keepDims: true } });
  const clamped = fresh(b, [2, 1], 'clamped');
  b.addOperator({ op: Op.MAXIMUM, inputs: [sum, constF(b, [], [1e-12])], outputs: [clamped] });
  const inv = fresh(b, [2, 1], 'inv');
  b.addOperator({ op: Op.RSQRT, inputs: [clamped], outputs: [inv] });
  const y = fresh(b, [2, 16], 'l2_norm');
  b.addOperator({ op: Op.MUL, inputs: [x!, inv], outputs: [y] });
  return [y];
};

/**
 * ai-edge-torch's scaled-dot-product attention on [B, T, H, D] = [1, 4, 2, 8] query/key/value and a
 * [1, 1, 4, 4] additive mask: transpose to [B, H, T, D], q·scale × kᵀ + mask, softmax, × v, transpose back.
 */
const sdpa: Emit = (b, [q, k, v, mask]) => {
  const perm = constI(b, [0, 2, 1, 3]);
  const toHeads = (t: number) => {
    const out = fresh(b, [1, 2, 4, 8], 'heads');
    b.addOperator({ op: Op.TRANSPOSE, inputs: [t, perm], outputs: [out] });
    return out;
  };
  const qh = toHeads(q!);
  const kh = toHeads(k!);
  const vh = toHeads(v!);
  const qs = fresh(b, [1, 2, 4, 8], 'q_scaled');
  b.addOperator({ op: Op.MUL, inputs: [qh, constF(b, [], [1 / Math.sqrt(8)])], outputs: [qs] });
  const logits = fresh(b, [1, 2, 4, 4], 'logits');
  b.addOperator({ op: Op.BATCH_MATMUL, inputs: [qs, kh], outputs: [logits], options: { adjX: false, adjY: true } });
  const masked = fresh(b, [1, 2, 4, 4], 'masked');
  b.addOperator({ op: Op.ADD, inputs: [logits, mask!], outputs: [masked] });
  const probs = fresh(b, [1, 2, 4, 4], 'probs');
  b.addOperator({ op: Op.SOFTMAX, inputs: [masked], outputs: [probs], options: { beta: 1 } });
  const ctx = fresh(b, [1, 2, 4, 8], 'context');
  b.addOperator({ op: Op.BATCH_MATMUL, inputs: [probs, vh], outputs: [ctx], options: { adjX: false, adjY: false } });
  const y = fresh(b, [1, 4, 2, 8], 'attention');
  b.addOperator({ op: Op.TRANSPOSE, inputs: [ctx, perm], outputs: [y] });
  return [y];
};

/** One composite call site: its name, attributes, the decomposition, and the node's input tensors in subgraph 0. */
interface Call {
  name: string;
  attributes: Record<string, FlexEntry>;
  emit: Emit;
  inputs: number[];
}

/**
 * Adds a STABLEHLO_COMPOSITE node to the builder's current subgraph whose decomposition is a new subgraph
 * emitted by `call.emit` (or `shared`, an existing decomposition subgraph); returns its outputs.
 */
function addComposite(b: ModelBuilder, call: Call, shared?: number): number[] {
  const caller = b.currentSubgraph;
  let sub = shared;
  let outShapes: number[][];
  if (sub === undefined) {
    const inShapes = call.inputs.map((t) => shapeOf(b, t));
    sub = b.addSubgraph(call.name);
    const ins = inShapes.map((s) => fresh(b, s, 'arg'));
    const outs = call.emit(b, ins);
    b.setInputs(ins).setOutputs(outs);
    outShapes = outs.map((t) => shapeOf(b, t));
  } else {
    b.selectSubgraph(sub);
    const def = b.buildDef().subgraphs[sub]!;
    outShapes = Array.from(def.outputs, (t) => Array.from(def.tensors[t]!.shape));
  }
  b.selectSubgraph(caller);
  const outs = outShapes.map((s) => fresh(b, s, call.name));
  const options: Partial<StablehloCompositeOptions> = {
    name: call.name,
    decompositionSubgraphIndex: sub,
    compositeAttributes: flexMap(call.attributes, 4),
    compositeAttributesFormat: 0,
    version: 0,
  };
  b.addOperator({ op: Op.STABLEHLO_COMPOSITE, inputs: call.inputs, outputs: outs, builtinOptions2: options });
  return outs;
}

/** A model with graph inputs `inputs` (shapes) and constants made by `consts`, whose body is `body`. */
function build(
  name: string,
  inputs: readonly (readonly number[])[],
  consts: (b: ModelBuilder) => number[],
  body: (b: ModelBuilder, args: number[], composite: boolean) => number[],
): CompositeModel {
  const make = (composite: boolean): Uint8Array => {
    counter = 0;
    const b = new ModelBuilder({ description: `${name} (${composite ? 'composite' : 'inlined'})` });
    const xs = inputs.map((s, i) => b.addTensor({ name: `input${i}`, type: F32, shape: s }));
    const outs = body(b, [...xs, ...consts(b)], composite);
    b.selectSubgraph(0).setInputs(xs).setOutputs(outs);
    return b.build();
  };
  return { name, bytes: make(true), inline: make(false) };
}

/** One composite around `emit`, or `emit` inlined. */
const single =
  (name: string, attributes: Record<string, FlexEntry>, emit: Emit) =>
  (b: ModelBuilder, args: number[], composite: boolean): number[] =>
    composite ? addComposite(b, { name, attributes, emit, inputs: args }) : emit(b, args);

/** The composite models (see the file comment). */
export function compositeModels(): CompositeModel[] {
  const groupNormConsts = (b: ModelBuilder) => [constF(b, [8], lcgValues(8, 11, 0.5, 1.5)), constF(b, [8], lcgValues(8, 12, -0.5, 0.5))];
  const causal = Array.from({ length: 16 }, (_, i) => (i % 4 <= Math.floor(i / 4) ? 0 : -1e4));
  return [
    build(
      'odml.group_norm',
      [[1, 4, 4, 8]],
      groupNormConsts,
      single('odml.group_norm', { num_groups: 2, epsilon: { float: 1e-5 }, channel_axis: 3 }, groupNorm),
    ),
    build('odml.l2_norm', [[2, 16]], () => [], single('odml.l2_norm', { epsilon: { float: 1e-12 } }, l2Norm)),
    build(
      'odml.scaled_dot_product_attention',
      [
        [1, 4, 2, 8],
        [1, 4, 2, 8],
        [1, 4, 2, 8],
      ],
      (b) => [constF(b, [1, 1, 4, 4], causal)],
      single('odml.scaled_dot_product_attention', { scale: { float: 1 / Math.sqrt(8) } }, sdpa),
    ),
    // The same attention under a name no runtime fuses (LiteRT's XNNPACK delegate replaces
    // odml.scaled_dot_product_attention by its own kernel): every runtime runs the decomposition.
    build(
      'example.attention',
      [
        [1, 4, 2, 8],
        [1, 4, 2, 8],
        [1, 4, 2, 8],
      ],
      (b) => [constF(b, [1, 1, 4, 4], causal)],
      single('example.attention', { scale: { float: 1 / Math.sqrt(8) } }, sdpa),
    ),
    // A composite whose decomposition calls another composite (LiteRT's nested_composite test shape).
    build(
      'nested composites',
      [[2, 16]],
      () => [],
      (b, args, composite) => {
        const inner = single('odml.l2_norm', { epsilon: { float: 1e-12 } }, l2Norm);
        const outer: Emit = (bb, ins) => {
          const [n] = inner(bb, [ins[0]!], composite);
          const y = fresh(bb, [2, 16], 'doubled');
          bb.addOperator({ op: Op.ADD, inputs: [n!, ins[0]!], outputs: [y] });
          return [y];
        };
        return composite ? addComposite(b, { name: 'odml.npu_call', attributes: {}, emit: outer, inputs: args }) : outer(b, args);
      },
    ),
    // Two composites sharing one decomposition subgraph, the second fed by the first.
    build(
      'shared decomposition',
      [[2, 16]],
      () => [],
      (b, args, composite) => {
        const call = { name: 'odml.l2_norm', attributes: { epsilon: { float: 1e-12 } }, emit: l2Norm };
        if (!composite) return l2Norm(b, l2Norm(b, args));
        const [first] = addComposite(b, { ...call, inputs: args });
        return addComposite(b, { ...call, inputs: [first!] }, 1);
      },
    ),
  ];
}

/**
 * One composite `odml.resize_test` whose decomposition subgraph stores its inputs and outputs with other
 * shapes than the node passes (`stored`: one shape per decomposition input; `storedOut` its output;
 * `nodeOut` the node's stored output shape), running `emit`. LiteRT's Prepare resizes the decomposition's
 * inputs to the node's shapes and the node's outputs to the decomposition's computed ones; the inlined
 * model runs `emit` at the node's shapes.
 */
function resized(
  name: string,
  node: readonly (readonly number[])[],
  stored: readonly (readonly number[])[],
  storedOut: readonly number[],
  nodeOut: readonly number[],
  emit: (b: ModelBuilder, inputs: readonly number[], out: readonly number[]) => void,
): CompositeModel {
  const make = (composite: boolean): Uint8Array => {
    const b = new ModelBuilder();
    const xs = node.map((s, i) => b.addTensor({ name: `x${i}`, type: F32, shape: s }));
    const y = b.addTensor({ name: 'y', type: F32, shape: composite ? nodeOut : node[0]! });
    b.setInputs(xs).setOutputs([y]);
    if (!composite) {
      emit(b, xs, node[0]!);
      return b.build();
    }
    b.addOperator({
      op: Op.STABLEHLO_COMPOSITE,
      inputs: xs,
      outputs: [y],
      builtinOptions2: {
        name: 'odml.resize_test',
        decompositionSubgraphIndex: 1,
        compositeAttributes: flexMap({}, 4),
        compositeAttributesFormat: 0,
        version: 0,
      } as Partial<StablehloCompositeOptions>,
    });
    b.addSubgraph('decomposition');
    const ins = stored.map((s, i) => b.addTensor({ name: `d/x${i}`, type: F32, shape: s }));
    b.setInputs(ins);
    emit(b, ins, storedOut);
    return b.selectSubgraph(0).build();
  };
  return { name, bytes: make(true), inline: make(false) };
}

/**
 * Composites whose decomposition stores other input shapes than the node passes (see `resized`): a
 * [2, 1, 4] where the node passes [2, 4] (MUL would broadcast it to [2, 2, 4] at the stored shape), a
 * [1, 4] for [2, 4] (TANH then ADD of a [4] constant), and empty shapes for the decomposition's input
 * and output (RELU). The node's own output keeps its [2, 4]: LiteRT.js binds graph outputs to buffers
 * sized from the file. The emitted ops set the decomposition's output (`b.setOutputs`).
 */
export function compositeResizeModels(): CompositeModel[] {
  return [
    resized(
      'decomposition input [2, 1, 4] for [2, 4]',
      [
        [2, 4],
        [2, 4],
      ],
      [
        [2, 4],
        [2, 1, 4],
      ],
      [2, 4],
      [2, 4],
      (b, [a, w], out) => {
        const o = fresh(b, out, 'mul');
        b.addOperator({ op: Op.MUL, inputs: [a!, w!], outputs: [o] });
        b.setOutputs([o]);
      },
    ),
    resized('decomposition input [1, 4] for [2, 4]', [[2, 4]], [[1, 4]], [1, 4], [2, 4], (b, [a], out) => {
      const t = fresh(b, out, 'tanh');
      b.addOperator({ op: Op.TANH, inputs: [a!], outputs: [t] });
      const o = fresh(b, out, 'add');
      b.addOperator({ op: Op.ADD, inputs: [t, constF(b, [4], [0.5, -0.25, 1, 0])], outputs: [o] });
      b.setOutputs([o]);
    }),
    resized('empty decomposition input and output shapes', [[2, 4]], [[]], [], [2, 4], (b, [a], out) => {
      const o = fresh(b, out, 'relu');
      b.addOperator({ op: Op.RELU, inputs: [a!], outputs: [o] });
      b.setOutputs([o]);
    }),
  ];
}
