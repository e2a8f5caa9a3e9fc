/**
 * Seeds with shapes the file does not know, written the way the TFLite converter writes them: dynamic
 * dimensions stored as placeholder 1s under a `shape_signature` -1 (the fuzzer resizes such inputs, see
 * execute.ts), outputs stored with an empty shape for prepare to size, and the small shape subgraphs
 * (SHAPE → STRIDED_SLICE → int32 arithmetic → PACK) that compute a RESHAPE target, a BROADCAST_TO shape
 * and SPACE_TO_BATCH_ND paddings / BATCH_TO_SPACE_ND crops from an input's shape — evaluated during
 * prepare (constant folding) once the input's shape is known.
 */
import { BuiltinOperator as Op, Padding, TensorType } from '@micrort/core';
import { Zoo, lcg } from './zoo-common.js';

/** ShapeOptions { out_type: INT32 } (slot 0). */
const SHAPE_INT32 = [{ id: 0, type: 'int8' as const, value: TensorType.INT32 }];

/** A float32 activation stored as `shape`, with `signature` as its shape_signature when given. */
function act(z: Zoo, name: string, shape: number[], signature?: number[]): number {
  return z.t({ name, type: TensorType.FLOAT32, shape, ...(signature ? { shapeSignature: signature } : {}) });
}

/** SHAPE(x) as int32 [rank]. */
function shapeOf(z: Zoo, name: string, x: number, rank: number): number {
  const s = z.i32t(name, [rank]);
  z.b.addOperator({ op: Op.SHAPE, inputs: [x], outputs: [s], rawOptions: SHAPE_INT32 });
  return s;
}

/** s[begin:end] (shrunk to a scalar when `shrink`). */
function sliceOf(z: Zoo, name: string, s: number, begin: number, end: number, shrink = false): number {
  const out = z.i32t(name, shrink ? [] : [end - begin]);
  const args = [z.i32(`${name}/begin`, [begin]), z.i32(`${name}/end`, [end]), z.i32(`${name}/strides`, [1])];
  z.op(Op.STRIDED_SLICE, [s, ...args], [out], { shrinkAxisMask: shrink ? 1 : 0 });
  return out;
}

function pack(z: Zoo, name: string, items: number[], axis: number, shape: number[]): number {
  const out = z.i32t(name, shape);
  z.op(Op.PACK, items, [out], { valuesCount: items.length, axis });
  return out;
}

/**
 * x [1, 4] (signature [-1, 4]) → FULLY_CONNECTED (4 → 6) → RESHAPE to PACK(SHAPE(x)[0], 2, 3) →
 * BROADCAST_TO PACK(2, SHAPE(x)[0], 2, 3) → ADD a constant: every tensor past the input is stored with
 * placeholder 1s or an empty shape; the batch comes from the input at run time.
 */
export function dynamicBatchNet(): Uint8Array {
  const z = new Zoo('dynamic batch (-1 input, empty stored output shapes, SHAPE → PACK → RESHAPE)');
  const x = act(z, 'x', [1, 4], [-1, 4]);
  const w = z.f32(
    'fc/w',
    [6, 4],
    lcg(24, 61, -8, 8).map((v) => v / 8),
  );
  const bias = z.f32('fc/b', [6], [0.1, -0.2, 0.3, 0, 0.5, -0.5]);
  const fc = act(z, 'fc', [1, 6], [-1, 6]);
  z.op(Op.FULLY_CONNECTED, [x, w, bias], [fc]);
  const s = shapeOf(z, 'batch/shape', x, 2);
  const n = sliceOf(z, 'batch/n', s, 0, 1, true);
  const two = z.i32('batch/two', [2], []);
  const three = z.i32('batch/three', [3], []);
  const target = pack(z, 'batch/target', [n, two, three], 0, [3]);
  const reshaped = act(z, 'reshaped', [1, 2, 3], [-1, 2, 3]);
  z.op(Op.RESHAPE, [fc, target], [reshaped]);
  const bshape = pack(z, 'batch/broadcast_shape', [two, n, two, three], 0, [4]);
  const broadcast = act(z, 'broadcast', []);
  z.op(Op.BROADCAST_TO, [reshaped, bshape], [broadcast], undefined, 2);
  const c = z.f32('bias2', [3], [1, 2, 3]);
  const out = act(z, 'out', []);
  z.op(Op.ADD, [broadcast, c], [out]);
  const rows = act(z, 'rows', []);
  z.op(Op.TANH, [fc], [rows]);
  return z.build([x], [out, rows]);
}

/**
 * A dilated 3×3 convolution as the converter writes it for an input with dynamic height and width:
 * SPACE_TO_BATCH_ND → CONV_2D → BATCH_TO_SPACE_ND, paddings and crops computed from SHAPE(x):
 * `end = ceil(hw / 2) × 2 − hw` through int32 ADD, DIV, MUL, SUB, PACKed with zeros into [[0, end_h],
 * [0, end_w]]. x [1, 9, 9, 2] (signature [-1, -1, -1, 2]); the intermediate shapes are placeholder 1s.
 */
export function dilatedDynamicNet(): Uint8Array {
  const z = new Zoo('dynamic dilated conv (SHAPE → arithmetic → PACK → SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND)');
  const x = act(z, 'x', [1, 9, 9, 2], [-1, -1, -1, 2]);
  const s = shapeOf(z, 'dilated/shape', x, 4);
  const hw = sliceOf(z, 'dilated/hw', s, 1, 3);
  const plus = z.i32t('dilated/hw_plus', [2]);
  z.op(Op.ADD, [hw, z.i32('dilated/rate_minus_1', [1, 1])], [plus]);
  const blocks = z.i32t('dilated/blocks', [2]);
  z.op(Op.DIV, [plus, z.i32('dilated/rate', [2, 2])], [blocks]);
  const padded = z.i32t('dilated/padded', [2]);
  z.op(Op.MUL, [blocks, z.i32('dilated/rate2', [2, 2])], [padded]);
  const end = z.i32t('dilated/pad_end', [2]);
  z.op(Op.SUB, [padded, hw], [end]);
  const zeros = z.i32('dilated/zeros', [0, 0]);
  const paddings = pack(z, 'dilated/paddings', [zeros, end], 1, [2, 2]);
  const crops = pack(z, 'dilated/crops', [zeros, end], 1, [2, 2]);
  const block = z.i32('dilated/block', [2, 2]);
  const s2b = act(z, 'dilated/space_to_batch', [1, 1, 1, 2], [-1, -1, -1, 2]);
  z.op(Op.SPACE_TO_BATCH_ND, [x, block, paddings], [s2b]);
  const w = z.f32(
    'conv/w',
    [3, 3, 3, 2],
    lcg(54, 62, -8, 8).map((v) => v / 16),
  );
  const bias = z.f32('conv/b', [3], [0.1, -0.2, 0.3]);
  const conv = act(z, 'conv', [1, 1, 1, 3], [-1, -1, -1, 3]);
  z.op(Op.CONV_2D, [s2b, w, bias], [conv], { padding: Padding.VALID, strideH: 1, strideW: 1 });
  const y = act(z, 'y', [1, 1, 1, 3], [-1, -1, -1, 3]);
  z.op(Op.BATCH_TO_SPACE_ND, [conv, block, crops], [y]);
  return z.build([x], [y]);
}
