/**
 * Seeds for what current LiteRT runs and TFLite 2.9 does not: the StableHLO builtins of LiteRT's
 * BuiltinOpResolver in one graph (elementwise float32 and int32, PAD with negative and interior padding,
 * DILATE, GATHER with clipped starts, SCATTER and REDUCE_WINDOW with region subgraphs, CASE over three
 * branches on an index input), and STABLEHLO_COMPOSITE as ai-edge-torch writes it: a named composite
 * with FlexBuffers attributes whose decomposition subgraph holds ordinary TFLite ops, called twice (once
 * nested inside another composite's decomposition).
 */
import { BuiltinOperator as Op, TensorType, type StablehloCompositeOptions } from '@micrort/core';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { Zoo } from './zoo-common.js';

const F32 = TensorType.FLOAT32;

/** A region subgraph `(lhs, rhs) → op(lhs, rhs)` on scalars of `type`; the builder returns to subgraph 0. */
function region(z: Zoo, type: TensorType, op: Op): number {
  const s = z.b.addSubgraph('region');
  const l = z.t({ name: 'lhs', type, shape: [] });
  const r = z.t({ name: 'rhs', type, shape: [] });
  const out = z.t({ name: 'result', type, shape: [] });
  z.op(op, [l, r], [out]);
  z.b.setInputs([l, r]).setOutputs([out]);
  z.b.selectSubgraph(0);
  return s;
}

/** A branch subgraph `(p, q) → op(p, q)` on float32 [2, 3]; the builder returns to subgraph 0. */
function branch(z: Zoo, op: Op): number {
  const s = z.b.addSubgraph('branch');
  const p = z.f32('p', [2, 3]);
  const q = z.f32('q', [2, 3]);
  const r = z.f32('r', [2, 3]);
  z.op(op, [p, q], [r]);
  z.b.setInputs([p, q]).setOutputs([r]);
  z.b.selectSubgraph(0);
  return s;
}

/** Every StableHLO builtin LiteRT registers, in one float32/int32 graph. */
export function stablehloNet(): Uint8Array {
  const z = new Zoo('StableHLO builtins');
  const x = z.f32('x', [2, 3]);
  const y = z.f32('y', [2, 3]);
  const sum = z.f32('add', [2, 3]);
  z.op(Op.STABLEHLO_ADD, [x, y], [sum]);
  const prod = z.f32('multiply', [2, 3]);
  z.op(Op.STABLEHLO_MULTIPLY, [sum, y], [prod]);
  const hi = z.f32('maximum', [2, 3]);
  z.op(Op.STABLEHLO_MAXIMUM, [prod, x], [hi]);
  const lo = z.f32('minimum', [2, 3]);
  z.op(Op.STABLEHLO_MINIMUM, [hi, y], [lo]);

  const zero = z.f32('pad/value', [], [0.5]);
  // rows 2 + 1 interior + 1 low = 4; columns 3 − 1 (crop) + 2 high = 4.
  const padded = z.f32('pad', [4, 4]);
  z.b.addOperator({
    op: Op.STABLEHLO_PAD,
    inputs: [lo, zero],
    outputs: [padded],
    builtinOptions2: { edgePaddingLow: Int32Array.of(1, -1), edgePaddingHigh: Int32Array.of(0, 2), interiorPadding: Int32Array.of(1, 0) },
  });

  const factors = z.i32('dilate/factors', [3, 2]);
  const fill = z.f32('dilate/value', [], [-1]);
  const dilated = z.f32('dilate', [4, 5]);
  z.op(Op.DILATE, [x, factors, fill], [dilated]);
  // Rows 2, 9 (clipped to 2) and −1 (clipped to 0); [1, 3] slices from columns 1, 3 and 7 (clipped to 2).
  const starts = z.i32('gather/indices', [2, 1, 9, 3, -1, 7], [3, 2]);
  const gathered = z.f32('gather', [3, 3]);
  z.b.addOperator({
    op: Op.STABLEHLO_GATHER,
    inputs: [dilated, starts],
    outputs: [gathered],
    builtinOptions2: {
      offsetDims: Int32Array.of(1),
      collapsedSliceDims: Int32Array.of(0),
      startIndexMap: Int32Array.of(0, 1),
      indexVectorDim: 1,
      sliceSizes: Int32Array.of(1, 3),
      indicesAreSorted: false,
    },
  });

  // Rows 3, 0, 3 again (added twice) and 7 (outside: skipped).
  const operand = z.f32('scatter/operand', [4, 3]);
  const rows = z.i32('scatter/indices', [3, 0, 3, 7], [4, 1]);
  const updates = z.f32('scatter/updates', [4, 3]);
  const scattered = z.f32('scatter', [4, 3]);
  z.b.addOperator({
    op: Op.STABLEHLO_SCATTER,
    inputs: [operand, rows, updates],
    outputs: [scattered],
    builtinOptions2: {
      indicesAreSorted: false,
      updateWindowDims: Int32Array.of(1),
      insertedWindowDims: Int32Array.of(0),
      scatterDimsToOperandDims: Int32Array.of(0),
      indexVectorDim: 1,
      uniqueIndices: false,
      updateComputationSubgraphIndex: region(z, F32, Op.STABLEHLO_ADD),
    },
  });

  const image = z.f32('reduce_window/x', [1, 5, 4, 2]);
  const init = z.f32('reduce_window/init', [], [-1e30]);
  const pooled = z.f32('reduce_window', [1, 4, 2, 2]);
  z.b.addOperator({
    op: Op.STABLEHLO_REDUCE_WINDOW,
    inputs: [image, init],
    outputs: [pooled],
    builtinOptions2: {
      windowDimensions: Int32Array.of(1, 3, 2, 1),
      windowStrides: Int32Array.of(1, 2, 2, 1),
      baseDilations: Int32Array.of(1, 2, 1, 1),
      windowDilations: Int32Array.of(1, 1, 2, 1),
      padding: Int32Array.of(0, 0, 1, 0, 1, 1, 0, 0),
      bodySubgraphIndex: region(z, F32, Op.STABLEHLO_MAXIMUM),
    },
  });

  const a = z.i32t('a', [2, 3]);
  const b = z.i32t('b', [2, 3]);
  const and = z.i32t('and', [2, 3]);
  z.op(Op.STABLEHLO_AND, [a, b], [and]);
  const shifts = z.i32('shift_left/amounts', [0, 1, 5, 31, 32, -1], [2, 3]);
  const shifted = z.i32t('shift_left', [2, 3]);
  z.op(Op.STABLEHLO_SHIFT_LEFT, [and, shifts], [shifted]);

  const index = z.i32t('case/index', []);
  const chosen = z.f32('case', [2, 3]);
  const branches = Int32Array.of(branch(z, Op.ADD), branch(z, Op.MUL), branch(z, Op.MAXIMUM));
  z.b.addOperator({
    op: Op.STABLEHLO_CASE,
    inputs: [index, x, y],
    outputs: [chosen],
    builtinOptions2: { branchSubgraphIndices: branches },
  });
  return z.build([x, y, operand, updates, image, a, b, index], [padded, gathered, scattered, pooled, shifted, chosen]);
}

/** A STABLEHLO_COMPOSITE node in the current subgraph calling `decomposition` on `inputs`. */
function composite(
  z: Zoo,
  name: string,
  decomposition: number,
  inputs: number[],
  output: number,
  attributes: Record<string, number>,
): void {
  const options: Partial<StablehloCompositeOptions> = {
    name,
    decompositionSubgraphIndex: decomposition,
    compositeAttributes: flexEncode(attributes),
    compositeAttributesFormat: 0,
    version: 0,
  };
  z.b.addOperator({ op: Op.STABLEHLO_COMPOSITE, inputs, outputs: [output], builtinOptions2: options });
}

/**
 * out = odml.l2_norm(x) (MUL, SUM, ADD ε, RSQRT, MUL over the last axis) and scaled = example.scale(x, w),
 * whose decomposition calls odml.l2_norm again before multiplying by w: one decomposition, two callers.
 */
export function compositeNet(): Uint8Array {
  const z = new Zoo('STABLEHLO_COMPOSITE (ai-edge-torch shape)');
  const x = z.f32('x', [2, 4]);
  const w = z.f32('w', [2, 4]);
  const out = z.f32('l2_norm', [2, 4]);
  const scaled = z.f32('scaled', [2, 4]);

  const l2 = z.b.addSubgraph('odml.l2_norm');
  const arg = z.f32('l2/x', [2, 4]);
  const squared = z.f32('l2/squared', [2, 4]);
  z.op(Op.MUL, [arg, arg], [squared]);
  const total = z.f32('l2/sum', [2, 1]);
  z.op(Op.SUM, [squared, z.i32('l2/axis', [1])], [total], { keepDims: true });
  const shiftedSum = z.f32('l2/sum_eps', [2, 1]);
  z.op(Op.ADD, [total, z.f32('l2/epsilon', [], [1e-6])], [shiftedSum]);
  const inv = z.f32('l2/rsqrt', [2, 1]);
  z.op(Op.RSQRT, [shiftedSum], [inv]);
  const normed = z.f32('l2/out', [2, 4]);
  z.op(Op.MUL, [arg, inv], [normed]);
  z.b.setInputs([arg]).setOutputs([normed]);

  const scale = z.b.addSubgraph('example.scale');
  const sx = z.f32('scale/x', [2, 4]);
  const sw = z.f32('scale/w', [2, 4]);
  const inner = z.f32('scale/l2_norm', [2, 4]);
  composite(z, 'odml.l2_norm', l2, [sx], inner, { epsilon: 1e-6 });
  const product = z.f32('scale/out', [2, 4]);
  z.op(Op.MUL, [inner, sw], [product]);
  z.b.setInputs([sx, sw]).setOutputs([product]);

  z.b.selectSubgraph(0);
  composite(z, 'odml.l2_norm', l2, [x], out, { epsilon: 1e-6 });
  composite(z, 'example.scale', scale, [x, w], scaled, { axis: -1 });
  return z.build([x, w], [out, scaled]);
}
