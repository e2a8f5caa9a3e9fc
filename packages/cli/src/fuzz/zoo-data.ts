/**
 * Seeds for the data-movement builtins: shape ops (EXPAND_DIMS … ZEROS_LIKE), gathers, in-place updates,
 * and the spatial rearrangements and resizes (SPACE_TO_DEPTH … L2_POOL_2D), float32 and int8, with
 * constant axes, indices, block shapes and paddings.
 */
import { BuiltinOperator as Op, MirrorPadMode, Padding, TensorType } from '@micrort/core';
import { Zoo, lcg } from './zoo-common.js';

/** Shape and gather ops on float32 and int8. */
export function shapeOps(): Uint8Array {
  const z = new Zoo('shape, gather and update ops');
  const x = z.f32('x', [2, 3, 4]);
  const x8 = z.i8('x8', [2, 3, 4], 0.1, 1);
  const upd = z.f32('update', [1, 2, 2]);
  const small = z.f32('small', [3, 1]);
  const outs: number[] = [];

  const expanded = z.f32('expand_dims', [2, 1, 3, 4]);
  z.op(Op.EXPAND_DIMS, [x, z.i32('expand_dims/axis', [1])], [expanded]);
  const squeezed = z.f32('squeeze', [2, 3, 4]);
  z.op(Op.SQUEEZE, [expanded], [squeezed], { squeezeDims: Int32Array.of(1) });
  const packed = z.f32('pack', [2, 2, 3, 4]);
  z.op(Op.PACK, [x, squeezed], [packed], { valuesCount: 2, axis: 0 });
  const un0 = z.f32('unpack0', [2, 3, 4]);
  const un1 = z.f32('unpack1', [2, 3, 4]);
  z.op(Op.UNPACK, [packed], [un0, un1], { num: 2, axis: 0 });
  const splitAxis = z.t({ name: 'split/axis', type: TensorType.INT32, shape: [], data: Int32Array.of(2) });
  const s0 = z.f32('split0', [2, 3, 2]);
  const s1 = z.f32('split1', [2, 3, 2]);
  z.op(Op.SPLIT, [splitAxis, un1], [s0, s1], { numSplits: 2 });
  const sv0 = z.i8('split_v0', [2, 3, 1], 0.1, 1);
  const sv1 = z.i8('split_v1', [2, 3, 3], 0.1, 1);
  z.op(
    Op.SPLIT_V,
    [x8, z.i32('split_v/sizes', [1, -1]), z.t({ name: 'split_v/axis', type: TensorType.INT32, shape: [], data: Int32Array.of(-1) })],
    [sv0, sv1],
    { numSplits: 2 },
  );
  const sliced = z.i8('slice', [2, 2, 3], 0.1, 1);
  z.op(Op.SLICE, [x8, z.i32('slice/begin', [0, 1, 1]), z.i32('slice/size', [2, 2, -1])], [sliced]);
  const rev = z.i8('reverse', [2, 3, 4], 0.1, 1);
  z.op(Op.REVERSE_V2, [x8, z.i32('reverse/axis', [1])], [rev]);
  const shape = z.i32t('shape', [3]);
  z.op(Op.SHAPE, [x], [shape]);
  const filled = z.f32('fill', [2, 3]);
  z.op(
    Op.FILL,
    [z.i32('fill/dims', [2, 3]), z.t({ name: 'fill/value', type: TensorType.FLOAT32, shape: [], data: Float32Array.of(0.25) })],
    [filled],
  );
  const zeros = z.i8('zeros_like', [2, 3, 4], 0.1, 1);
  z.op(Op.ZEROS_LIKE, [rev], [zeros]);
  const bcast = z.f32('broadcast_to', [2, 3, 4]);
  z.op(Op.BROADCAST_TO, [small, z.i32('broadcast_to/shape', [2, 3, 4])], [bcast]);
  const bargs = z.i32t('broadcast_args', [3]);
  z.op(Op.BROADCAST_ARGS, [z.i32('bargs/s0', [2, 1, 4]), z.i32('bargs/s1', [3, 1])], [bargs]);
  const gathered = z.f32('gather', [2, 2, 4]);
  z.op(Op.GATHER, [bcast, z.i32('gather/indices', [2, 0])], [gathered], { axis: 1, batchDims: 0 });
  const gnd = z.i8('gather_nd', [2, 4], 0.1, 1);
  z.op(Op.GATHER_ND, [x8, z.i32('gather_nd/indices', [0, 1, 1, 2], [2, 2])], [gnd]);
  const emb = z.f32('embedding_lookup', [3, 3, 4]);
  z.op(Op.EMBEDDING_LOOKUP, [z.i32('embedding/ids', [1, 0, 1]), x], [emb]);
  const dus = z.f32('dynamic_update_slice', [2, 3, 4]);
  z.op(Op.DYNAMIC_UPDATE_SLICE, [un0, upd, z.i32('dus/start', [1, 1, 2])], [dus]);
  const dus8 = z.i8('dynamic_update_slice_int8', [2, 3, 4], 0.1, 1);
  z.op(
    Op.DYNAMIC_UPDATE_SLICE,
    [
      x8,
      z.i8('dus8/update', [1, 1, 3], 0.1, 1, lcg(3, 18, -50, 50)),
      z.t({ name: 'dus8/start', type: TensorType.INT64, shape: [3], data: BigInt64Array.of(0n, 2n, 3n) }),
    ],
    [dus8],
  );
  outs.push(s0, sv0, sv1, sliced, shape, filled, zeros, bargs, gathered, gnd, emb, dus, dus8);
  return z.build([x, x8, upd, small], outs);
}

/** Spatial rearrangements, mirror padding, resizes and L2 pooling on float32 and int8 images. */
export function spatialOps(): Uint8Array {
  const z = new Zoo('spatial rearrangements and resizes');
  const x = z.f32('x', [1, 4, 4, 4]);
  const y = z.i8('y', [1, 4, 4, 2], 0.05, -3);
  const outs: number[] = [];
  const s2d = z.f32('space_to_depth', [1, 2, 2, 16]);
  z.op(Op.SPACE_TO_DEPTH, [x], [s2d], { blockSize: 2 });
  const d2s = z.f32('depth_to_space', [1, 4, 4, 4]);
  z.op(Op.DEPTH_TO_SPACE, [s2d], [d2s], { blockSize: 2 });
  const s2b = z.f32('space_to_batch', [4, 3, 2, 4]);
  z.op(Op.SPACE_TO_BATCH_ND, [d2s, z.i32('s2b/block', [2, 2]), z.i32('s2b/paddings', [1, 1, 0, 0], [2, 2])], [s2b]);
  const b2s = z.f32('batch_to_space', [1, 5, 4, 4]);
  z.op(Op.BATCH_TO_SPACE_ND, [s2b, z.i32('b2s/block', [2, 2]), z.i32('b2s/crops', [0, 1, 0, 0], [2, 2])], [b2s]);
  const mp = z.f32('mirror_pad', [1, 6, 6, 4]);
  z.op(Op.MIRROR_PAD, [x, z.i32('mirror_pad/paddings', [0, 0, 1, 1, 1, 1, 0, 0], [4, 2])], [mp], { mode: MirrorPadMode.REFLECT });
  const rb = z.f32('resize_bilinear', [1, 6, 6, 4]);
  z.op(Op.RESIZE_BILINEAR, [x, z.i32('rb/size', [6, 6])], [rb], { alignCorners: false, halfPixelCenters: true }, 3);
  const rn = z.f32('resize_nearest', [1, 8, 8, 4]);
  z.op(Op.RESIZE_NEAREST_NEIGHBOR, [x, z.i32('rn/size', [8, 8])], [rn], { alignCorners: true, halfPixelCenters: false }, 3);
  const l2 = z.f32('l2_pool', [1, 2, 2, 4]);
  z.op(Op.L2_POOL_2D, [x], [l2], { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 });
  outs.push(b2s, mp, rb, rn, l2);
  // int8
  const s2d8 = z.i8('space_to_depth_int8', [1, 2, 2, 8], 0.05, -3);
  z.op(Op.SPACE_TO_DEPTH, [y], [s2d8], { blockSize: 2 });
  const mp8 = z.i8('mirror_pad_int8', [1, 6, 5, 2], 0.05, -3);
  z.op(Op.MIRROR_PAD, [y, z.i32('mirror_pad8/paddings', [0, 0, 1, 1, 0, 1, 0, 0], [4, 2])], [mp8], { mode: MirrorPadMode.SYMMETRIC });
  const rb8 = z.i8('resize_bilinear_int8', [1, 7, 5, 2], 0.05, -3);
  z.op(Op.RESIZE_BILINEAR, [y, z.i32('rb8/size', [7, 5])], [rb8], { alignCorners: true, halfPixelCenters: false }, 2);
  const rn8 = z.i8('resize_nearest_int8', [1, 3, 6, 2], 0.05, -3);
  z.op(Op.RESIZE_NEAREST_NEIGHBOR, [y, z.i32('rn8/size', [3, 6])], [rn8], { alignCorners: false, halfPixelCenters: true }, 3);
  const s2b8 = z.i8('space_to_batch_int8', [4, 2, 2, 2], 0.05, 0);
  const y0 = z.i8('y_zp0', [1, 4, 4, 2], 0.05, 0);
  z.op(Op.SPACE_TO_BATCH_ND, [y0, z.i32('s2b8/block', [2, 2]), z.i32('s2b8/paddings', [0, 0, 0, 0], [2, 2])], [s2b8]);
  outs.push(s2d8, mp8, rb8, rn8, s2b8);
  return z.build([x, y, y0], outs);
}
