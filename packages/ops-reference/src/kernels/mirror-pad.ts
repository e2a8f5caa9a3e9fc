/**
 * MIRROR_PAD (TFLM kernels/mirror_pad.cc): pads each dimension with a mirror image of the input — REFLECT
 * leaves the edge element out of the mirror, SYMMETRIC repeats it. Paddings are a constant int32 or int64
 * [rank, 2] tensor. The index arithmetic is TFLM's GetInputDimension, including its clamping of paddings
 * larger than the mirrored part; it is tabulated per dimension in prepare. Up to 6 dimensions. The checks,
 * the output shape and the tables are kernel-support's prepareMirrorPad, as in ops-wasm.
 *
 * Types: float32 and int8 as TFLM (whose eval fails int16), and as TFLite uint8, int32, int64, int16 and
 * every other fixed-size type (its current kernel moves elements by size). As TFLM,
 * the kernel allocates its 20-byte OpData and requests two scratch buffers of rank int32 (the output and
 * input strides, which invoke fills and uses).
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import {
  type ElementLayout,
  type NumberArray,
  type OpDataBlock,
  allocateOpDataBlock,
  elementLayout,
  movableData,
  opDataBlock,
} from './transpose-common.js';
import { MIRROR_PAD_MAX_DIMS, MIRROR_PAD_TYPES, fillOpData, opData, prepareMirrorPad } from '@micrort/kernel-support';

const OP = 'MIRROR_PAD';
// The loops run at MIRROR_PAD_MAX_DIMS dimensions (front-padded with 1s).
export { MIRROR_PAD_MAX_DIMS, mirrorInputIndex } from '@micrort/kernel-support';
/**
 * sizeof(OpDataMirrorPad) in TFLM: int input_dims, output_size, offset,
 * output_dims_num_elements_buffer_index, input_dims_num_elements_buffer_index.
 */
export const OP_DATA_MIRROR_PAD_BYTES = 20;

/** Op data computed in prepare. */
interface MirrorPadOpData extends OpDataBlock {
  rank: number;
  outDims: Int32Array;
  inDims: Int32Array;
  /** Per padded axis, for each output index: the input index along that axis. */
  maps: Int32Array[];
  outStridesScratch: number;
  inStridesScratch: number;
  layout: ElementLayout;
}

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const g = prepareMirrorPad(OP, context, node);
  const rank = g.input.dims.length;
  const shift = MIRROR_PAD_MAX_DIMS - rank;
  const outDims = new Int32Array(MIRROR_PAD_MAX_DIMS).fill(1);
  const inDims = new Int32Array(MIRROR_PAD_MAX_DIMS).fill(1);
  const maps: Int32Array[] = [];
  for (let a = 0; a < MIRROR_PAD_MAX_DIMS; a++) maps.push(new Int32Array(1));
  for (let i = 0; i < rank; i++) {
    outDims[shift + i] = g.maps[i]!.length;
    inDims[shift + i] = g.input.dims[i]!;
    maps[shift + i] = g.maps[i]!;
  }
  const offset = g.offset;
  const output = context.getTensor(node.outputs[0]!);
  const outStridesScratch = context.requestScratchBufferInArena(rank * 4);
  const inStridesScratch = context.requestScratchBufferInArena(rank * 4);
  block.setInt32(0, rank, true);
  block.setInt32(4, output.elementCount, true);
  block.setInt32(8, offset, true);
  block.setInt32(12, outStridesScratch, true);
  block.setInt32(16, inStridesScratch, true);
  const layout = elementLayout(g.input.type, OP, node);
  const data: MirrorPadOpData = { block, rank, outDims, inDims, maps, outStridesScratch, inStridesScratch, layout };
  fillOpData(OP, node, data);
}

/** Input stride of padded axis `a` (0 for the leading axes the input does not have). */
function strideAt(inStrides: Int32Array, a: number, shift: number): number {
  return a < shift ? 0 : inStrides[a - shift]!;
}

/** Row-major output walk; each axis maps its output index through its table, scaled by the input stride. */
function mirrorPad(d: MirrorPadOpData, inStrides: Int32Array, input: NumberArray, output: NumberArray): void {
  const od = d.outDims,
    m = d.maps,
    shift = MIRROR_PAD_MAX_DIMS - d.rank;
  const s0 = strideAt(inStrides, 0, shift),
    s1 = strideAt(inStrides, 1, shift),
    s2 = strideAt(inStrides, 2, shift);
  const s3 = strideAt(inStrides, 3, shift),
    s4 = strideAt(inStrides, 4, shift),
    s5 = strideAt(inStrides, 5, shift);
  const m0 = m[0]!,
    m1 = m[1]!,
    m2 = m[2]!,
    m3 = m[3]!,
    m4 = m[4]!,
    m5 = m[5]!;
  const n0 = od[0]!,
    n1 = od[1]!,
    n2 = od[2]!,
    n3 = od[3]!,
    n4 = od[4]!,
    n5 = od[5]!;
  const units = d.layout.units;
  let o = 0;
  for (let i0 = 0; i0 < n0; i0++) {
    const p0 = m0[i0]! * s0;
    for (let i1 = 0; i1 < n1; i1++) {
      const p1 = p0 + m1[i1]! * s1;
      for (let i2 = 0; i2 < n2; i2++) {
        const p2 = p1 + m2[i2]! * s2;
        for (let i3 = 0; i3 < n3; i3++) {
          const p3 = p2 + m3[i3]! * s3;
          for (let i4 = 0; i4 < n4; i4++) {
            const p4 = p3 + m4[i4]! * s4;
            if (units === 1) for (let i5 = 0; i5 < n5; i5++) output[o++] = input[p4 + m5[i5]! * s5]!;
            else
              for (let i5 = 0; i5 < n5; i5++) {
                const p = (p4 + m5[i5]! * s5) * units;
                for (let u = 0; u < units; u++) output[o++] = input[p + u]!;
              }
          }
        }
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MirrorPadOpData>(OP, node);
  const outStrides = context.getScratchBuffer(d.outStridesScratch).i32;
  const inStrides = context.getScratchBuffer(d.inStridesScratch).i32;
  // As TFLM: the strides (elements per step) of the output and input, in the two scratch buffers.
  const rank = d.rank,
    shift = MIRROR_PAD_MAX_DIMS - rank;
  for (let i = rank - 1, so = 1, si = 1; i >= 0; i--) {
    outStrides[i] = so;
    inStrides[i] = si;
    so *= d.outDims[shift + i]!;
    si *= d.inDims[shift + i]!;
  }
  mirrorPad(
    d,
    inStrides,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** MIRROR_PAD registration (op versions 1..3). */
export const MIRROR_PAD: Registration = {
  builtinCode: BuiltinOperator.MIRROR_PAD,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, MIRROR_PAD_TYPES),
  init: (context) => allocateOpDataBlock(context, OP_DATA_MIRROR_PAD_BYTES),
  prepare,
  invoke,
};
