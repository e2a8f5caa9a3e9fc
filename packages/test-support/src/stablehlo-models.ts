/**
 * Small models of the StableHLO builtins current LiteRT's BuiltinOpResolver registers (and DILATE, the
 * deprecated REDUCE_WINDOW), written as LiteRT's converter writes them (options in builtin_options_2,
 * regions as subgraphs whose single operator names the computation): every element type each kernel
 * takes, and the geometry cases (negative padding, interior padding, clipped and out-of-range indices,
 * base and window dilation). benchmarks/src/litert-parity.test.ts runs them in LiteRT.js and micrort on
 * the same inputs; ops-reference's tests check the kernels' own vectors.
 */
import { BuiltinOperator as Op, ModelBuilder, TensorType, type BuiltinOperator } from '@micrort/core';
import { tensorTypeOf, type DType } from './tflite-recipe-builder.js';

/** One model: its name, bytes and the float range its inputs are drawn from. */
export interface StablehloModel {
  name: string;
  op: string;
  bytes: Uint8Array;
  range?: [number, number];
}

const ALL: readonly DType[] = [
  'float16',
  'float32',
  'float64',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'bool',
];
const INTS: readonly DType[] = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool'];

/** Constant bytes of `values` in `type` (ints and floats; int64 as two words). */
function constBytes(type: DType, values: readonly number[]): ArrayBufferView {
  switch (type) {
    case 'float32':
      return Float32Array.from(values);
    case 'float64':
      return Float64Array.from(values);
    case 'int64':
    case 'uint64':
      return BigInt64Array.from(values.map((v) => BigInt(v)));
    case 'int32':
    case 'uint32':
      return Int32Array.from(values);
    case 'int16':
    case 'uint16':
    case 'float16':
      return Int16Array.from(values);
    default:
      return Int8Array.from(values);
  }
}

/** A one-subgraph model around `body`, which adds tensors and operators and returns [inputs, outputs]. */
function single(name: string, op: string, body: (b: ModelBuilder) => [number[], number[]], range?: [number, number]): StablehloModel {
  const b = new ModelBuilder({ description: name });
  const [ins, outs] = body(b);
  b.selectSubgraph(0).setInputs(ins).setOutputs(outs);
  return { name, op, bytes: b.build(), ...(range ? { range } : {}) };
}

/** A region subgraph `(a, b) → code(a, b)` on scalars of `type` (no operator: b), as the converter writes regions. */
function region(b: ModelBuilder, type: TensorType, code: BuiltinOperator | null): number {
  const caller = b.currentSubgraph;
  const s = b.addSubgraph('region');
  const x = b.addTensor({ name: 'lhs', type, shape: [] });
  const y = b.addTensor({ name: 'rhs', type, shape: [] });
  if (code === null) b.setInputs([x, y]).setOutputs([y]);
  else {
    const z = b.addTensor({ name: 'result', type, shape: [] });
    b.addOperator({ op: code, inputs: [x, y], outputs: [z] });
    b.setInputs([x, y]).setOutputs([z]);
  }
  b.selectSubgraph(caller);
  return s;
}

function elementwise(code: BuiltinOperator, opName: string, types: readonly DType[]): StablehloModel[] {
  return types.map((t) =>
    single(`${opName} ${t}`, opName, (b) => {
      const type = tensorTypeOf(t);
      const x = b.addTensor({ name: 'x', type, shape: [2, 3] });
      const y = b.addTensor({ name: 'y', type, shape: [2, 3] });
      const z = b.addTensor({ name: 'z', type, shape: [2, 3] });
      b.addOperator({ op: code, inputs: [x, y], outputs: [z] });
      return [[x, y], [z]];
    }),
  );
}

function pad(t: DType): StablehloModel {
  return single(`STABLEHLO_PAD ${t}`, 'STABLEHLO_PAD', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'x', type, shape: [2, 3] });
    const v = b.addTensor({ name: 'value', type, shape: [] });
    // rows: 2 + 1 interior + 1 low + 0 high = 4; columns: 3 − 1 low (crop) + 2 high = 4.
    const y = b.addTensor({ name: 'y', type, shape: [4, 4] });
    b.addOperator({
      op: Op.STABLEHLO_PAD,
      inputs: [x, v],
      outputs: [y],
      builtinOptions2: { edgePaddingLow: Int32Array.of(1, -1), edgePaddingHigh: Int32Array.of(0, 2), interiorPadding: Int32Array.of(1, 0) },
    });
    return [[x, v], [y]];
  });
}

function gather(t: DType, index: 'int32' | 'int64'): StablehloModel {
  return single(`STABLEHLO_GATHER ${t}, ${index} indices`, 'STABLEHLO_GATHER', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'operand', type, shape: [4, 5] });
    // Rows 2, 9 (clipped to 2) and −1 (clipped to 0), a [1, 3] slice starting at column 1, 3 and 7 (clipped to 2).
    const starts = [2, 1, 9, 3, -1, 7];
    const idx = b.addTensor({ name: 'indices', type: tensorTypeOf(index), shape: [3, 2], data: constBytes(index, starts) });
    const y = b.addTensor({ name: 'y', type, shape: [3, 3] });
    b.addOperator({
      op: Op.STABLEHLO_GATHER,
      inputs: [x, idx],
      outputs: [y],
      builtinOptions2: {
        offsetDims: Int32Array.of(1),
        collapsedSliceDims: Int32Array.of(0),
        startIndexMap: Int32Array.of(0, 1),
        indexVectorDim: 1,
        sliceSizes: Int32Array.of(1, 3),
        indicesAreSorted: false,
      },
    });
    return [[x], [y]];
  });
}

function scatter(t: DType, computation: BuiltinOperator | null, label: string): StablehloModel {
  return single(`STABLEHLO_SCATTER ${t}, ${label}`, 'STABLEHLO_SCATTER', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'operand', type, shape: [4, 3] });
    // Rows 3, 0, 3 again (combined twice) and 7 (outside: skipped).
    const idx = b.addTensor({ name: 'indices', type: TensorType.INT32, shape: [4, 1], data: Int32Array.of(3, 0, 3, 7) });
    const u = b.addTensor({ name: 'updates', type, shape: [4, 3] });
    const y = b.addTensor({ name: 'y', type, shape: [4, 3] });
    const s = region(b, type, computation);
    b.addOperator({
      op: Op.STABLEHLO_SCATTER,
      inputs: [x, idx, u],
      outputs: [y],
      builtinOptions2: {
        indicesAreSorted: false,
        updateWindowDims: Int32Array.of(1),
        insertedWindowDims: Int32Array.of(0),
        scatterDimsToOperandDims: Int32Array.of(0),
        indexVectorDim: 1,
        uniqueIndices: false,
        updateComputationSubgraphIndex: s,
      },
    });
    return [[x, u], [y]];
  });
}

function reduceWindow(t: DType, body: BuiltinOperator, label: string): StablehloModel {
  return single(`STABLEHLO_REDUCE_WINDOW ${t}, ${label}`, 'STABLEHLO_REDUCE_WINDOW', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'x', type, shape: [1, 5, 4, 2] });
    const init = b.addTensor({ name: 'init', type, shape: [] });
    // Dilated rows: (5 − 1) × 2 + 1 = 9, padded 1 + 0 → 10; columns padded 1 + 1 → 6; window [1, 3, 2, 1],
    // strides [1, 2, 2, 1], window dilation 2 on the columns: rows (10 − 3) / 2 + 1 = 4, columns (6 − 3) / 2 + 1 = 2.
    const y = b.addTensor({ name: 'y', type, shape: [1, 4, 2, 2] });
    const s = region(b, type, body);
    b.addOperator({
      op: Op.STABLEHLO_REDUCE_WINDOW,
      inputs: [x, init],
      outputs: [y],
      builtinOptions2: {
        windowDimensions: Int32Array.of(1, 3, 2, 1),
        windowStrides: Int32Array.of(1, 2, 2, 1),
        baseDilations: Int32Array.of(1, 2, 1, 1),
        windowDilations: Int32Array.of(1, 1, 2, 1),
        padding: Int32Array.of(0, 0, 1, 0, 1, 1, 0, 0),
        bodySubgraphIndex: s,
      },
    });
    return [[x, init], [y]];
  });
}

function legacyReduceWindow(t: DType, fn: number, label: string): StablehloModel {
  return single(`REDUCE_WINDOW ${t}, ${label}`, 'REDUCE_WINDOW', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'x', type, shape: [4, 5] });
    const init = b.addTensor({ name: 'init', type, shape: [] });
    const i64 = (name: string, v: number[]) =>
      b.addTensor({ name, type: TensorType.INT64, shape: [2], data: BigInt64Array.from(v.map(BigInt)) });
    const y = b.addTensor({ name: 'y', type, shape: [2, 3] });
    b.addOperator({
      op: Op.REDUCE_WINDOW,
      inputs: [x, init, i64('window', [2, 2]), i64('strides', [2, 1]), i64('dilations', [1, 2])],
      outputs: [y],
      builtinOptions2: { reduceFunction: fn },
    });
    return [[x, init], [y]];
  });
}

function dilate(t: DType): StablehloModel {
  return single(`DILATE ${t}`, 'DILATE', (b) => {
    const type = tensorTypeOf(t);
    const x = b.addTensor({ name: 'x', type, shape: [2, 3] });
    const f = b.addTensor({ name: 'dilations', type: TensorType.INT32, shape: [2], data: Int32Array.of(3, 2) });
    const v = b.addTensor({ name: 'value', type, shape: [] });
    const y = b.addTensor({ name: 'y', type, shape: [4, 5] });
    b.addOperator({ op: Op.DILATE, inputs: [x, f, v], outputs: [y] });
    return [[x, v], [y]];
  });
}

/**
 * CASE on index `i` (a graph input) over three branches: x + y, x × y, max(x, y), on [4]; the branches
 * store their tensors as `branchShape` (LiteRT resizes a branch to the node's shapes).
 */
export function caseModel(branchShape: readonly number[] = [4]): Uint8Array {
  const b = new ModelBuilder({ description: 'STABLEHLO_CASE' });
  const i = b.addTensor({ name: 'index', type: TensorType.INT32, shape: [] });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
  const z = b.addTensor({ name: 'z', type: TensorType.FLOAT32, shape: [4] });
  const branch = (code: BuiltinOperator): number => {
    const s = b.addSubgraph();
    const p = b.addTensor({ name: 'p', type: TensorType.FLOAT32, shape: branchShape });
    const q = b.addTensor({ name: 'q', type: TensorType.FLOAT32, shape: branchShape });
    const r = b.addTensor({ name: 'r', type: TensorType.FLOAT32, shape: branchShape });
    b.addOperator({ op: code, inputs: [p, q], outputs: [r] });
    b.setInputs([p, q]).setOutputs([r]);
    b.selectSubgraph(0);
    return s;
  };
  const branches = Int32Array.of(branch(Op.ADD), branch(Op.MUL), branch(Op.MAXIMUM));
  b.addOperator({ op: Op.STABLEHLO_CASE, inputs: [i, x, y], outputs: [z], builtinOptions2: { branchSubgraphIndices: branches } });
  return b.setInputs([i, x, y]).setOutputs([z]).build();
}

/** Every model (see the file comment). */
export function stablehloModels(): StablehloModel[] {
  const ops: [BuiltinOperator, string][] = [
    [Op.STABLEHLO_ADD, 'STABLEHLO_ADD'],
    [Op.STABLEHLO_MULTIPLY, 'STABLEHLO_MULTIPLY'],
    [Op.STABLEHLO_MAXIMUM, 'STABLEHLO_MAXIMUM'],
    [Op.STABLEHLO_MINIMUM, 'STABLEHLO_MINIMUM'],
  ];
  const computations: [BuiltinOperator | null, string][] = [
    [null, 'update'],
    [Op.STABLEHLO_ADD, 'add'],
    [Op.STABLEHLO_MULTIPLY, 'multiply'],
    [Op.STABLEHLO_MAXIMUM, 'maximum'],
    [Op.STABLEHLO_MINIMUM, 'minimum'],
  ];
  const bodies: [BuiltinOperator, string][] = [
    [Op.STABLEHLO_ADD, 'add'],
    [Op.MUL, 'mul'],
    [Op.STABLEHLO_MAXIMUM, 'max'],
    [Op.MINIMUM, 'min'],
  ];
  const RW: readonly DType[] = ['float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8'];
  return [
    ...ops.flatMap(([code, name]) => elementwise(code, name, ALL)),
    ...elementwise(Op.STABLEHLO_AND, 'STABLEHLO_AND', INTS),
    ...elementwise(Op.STABLEHLO_SHIFT_LEFT, 'STABLEHLO_SHIFT_LEFT', ['int8', 'int16', 'int32']),
    ...ALL.map(pad),
    ...ALL.flatMap((t) => [gather(t, 'int32'), gather(t, 'int64')]),
    ...ALL.flatMap((t) => computations.map(([c, label]) => scatter(t, c, label))),
    ...RW.flatMap((t) => bodies.map(([c, label]) => reduceWindow(t, c, label))),
    reduceWindow('bool', Op.LOGICAL_AND, 'all'),
    reduceWindow('bool', Op.LOGICAL_OR, 'any'),
    ...RW.flatMap((t) => [legacyReduceWindow(t, 1, 'add'), legacyReduceWindow(t, 4, 'max')]),
    ...ALL.map(dilate),
    { name: 'STABLEHLO_CASE float32', op: 'STABLEHLO_CASE', bytes: caseModel() },
    { name: 'STABLEHLO_CASE float32, branches stored [2, 2]', op: 'STABLEHLO_CASE', bytes: caseModel([2, 2]) },
    { name: 'STABLEHLO_CASE float32, branches stored []', op: 'STABLEHLO_CASE', bytes: caseModel([]) },
  ];
}
