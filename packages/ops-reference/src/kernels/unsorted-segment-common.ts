/**
 * UNSORTED_SEGMENT_SUM / _PROD / _MAX / _MIN (TFLite unsorted_segment.cc, after TFLite 2.9): slices of
 * the data (float32 or int32) combined into the output slice their int32 segment id names (ids of any
 * shape that prefixes the data's; a negative id drops its slice). The output has `num_segments`
 * slices, each starting at the operation's identity (0, 1, the lowest or the largest value of the type,
 * as TFLite's kInitialValue). An id ≥ num_segments fails the invoke. `num_segments` is read in prepare
 * from a constant; a runtime count has no bound (data-dependent-shape.ts).
 */
import { KernelError, TensorType, checkArity, getInput, getOutput, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { FLT_MAX, declineArity, declineTypes, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts } from './tflite-ops-common.js';

const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32];

/** How segment slices combine. */
export enum SegmentOp {
  Sum,
  Prod,
  Max,
  Min,
}

/** Op data of the UNSORTED_SEGMENT_* kernels. */
export interface UnsortedSegmentOpData {
  ids: number;
  sliceSize: number;
  segments: number;
  float: boolean;
  initial: number;
}

function initialValue(op: SegmentOp, float: boolean): number {
  switch (op) {
    case SegmentOp.Sum:
      return 0;
    case SegmentOp.Prod:
      return 1;
    case SegmentOp.Max:
      return float ? -FLT_MAX : -2147483648;
    case SegmentOp.Min:
      return float ? FLT_MAX : 2147483647;
  }
}

/** The registration of one UNSORTED_SEGMENT_* op. */
export function unsortedSegmentKernel(name: string, builtinCode: number, op: SegmentOp): Registration<UnsortedSegmentOpData> {
  return {
    builtinCode,
    version: 1,
    provider: PROVIDER,
    name,
    supports: (context, node) => declineArity(node, 3, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
    init: () => ({ ids: 0, sliceSize: 0, segments: 0, float: false, initial: 0 }),
    prepare(context: TfLiteContext, node: Node) {
      checkArity(name, node, 3, 1);
      const data = getInput(context, node, 0, name);
      const ids = getInput(context, node, 1, name);
      const count = getInput(context, node, 2, name);
      const output = getOutput(context, node, 0, name);
      expectType(name, node, 'data', data, TYPES);
      expectSameType(name, node, 'data and output', data, output);
      expectType(name, node, 'segment_ids', ids, [TensorType.INT32]);
      expectType(name, node, 'num_segments', count, [TensorType.INT32]);
      if (ids.dims.length > data.dims.length || ids.dims.some((v, i) => v !== data.dims[i]))
        throw new KernelError(
          name,
          node.index,
          `segment_ids [${ids.dims.join(',')}] must prefix the data's shape [${data.dims.join(',')}]`,
        );
      if (count.elementCount !== 1) throw new KernelError(name, node.index, 'num_segments must hold one value');
      const n = constantInts(name, node, count, 'num_segments');
      if (n === null) noShapeBound(name, context, node, 0, 'the num_segments input is not constant');
      const segments = n[0]!;
      if (segments < 0) throw new KernelError(name, node.index, `num_segments ${segments} is negative`);
      const sliceDims = Array.from(data.dims).slice(ids.dims.length);
      setOutputShape(name, context, node, 0, [segments, ...sliceDims]);
      const d = opData<UnsortedSegmentOpData>(name, node);
      d.ids = ids.elementCount;
      d.sliceSize = sliceDims.reduce((a, b) => a * b, 1);
      d.segments = segments;
      d.float = data.type === TensorType.FLOAT32;
      d.initial = initialValue(op, d.float);
    },
    invoke(context: TfLiteContext, node: Node) {
      const d = opData<UnsortedSegmentOpData>(name, node);
      const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Int32Array;
      const ids = context.getEvalTensor(node.inputs[1]!).data as Int32Array;
      const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Int32Array;
      const { sliceSize: s, float } = d;
      const initial = d.initial;
      for (let i = 0; i < d.segments * s; i++) y[i] = initial;
      for (let i = 0; i < d.ids; i++) {
        const id = ids[i]!;
        if (id < 0) continue;
        if (id >= d.segments) throw new KernelError(name, node.index, `segment_ids[${i}] = ${id} is not below num_segments ${d.segments}`);
        const to = id * s;
        const from = i * s;
        for (let j = 0; j < s; j++) {
          const a = y[to + j]!;
          const b = x[from + j]!;
          switch (op) {
            case SegmentOp.Sum:
              y[to + j] = float ? a + b : (a + b) | 0;
              break;
            case SegmentOp.Prod:
              y[to + j] = float ? a * b : Math.imul(a, b);
              break;
            case SegmentOp.Max:
              y[to + j] = a > b ? a : b;
              break;
            case SegmentOp.Min:
              y[to + j] = a < b ? a : b;
              break;
          }
        }
      }
    },
  };
}
