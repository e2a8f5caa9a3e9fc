/**
 * GATHER (TFLM kernels/gather.cc): gathers slices of the params tensor along `axis` at the positions in
 * the int32 indices tensor (runtime data), with `batch_dims` leading dimensions shared by both. Output
 * shape: params[:axis] + indices[batch_dims:] + params[axis+1:]. A position outside [0, params[axis])
 * fails the invoke with a KernelError, as TFLM fails it. Indices whose shape depends on data (WHERE,
 * NON_MAX_SUPPRESSION → SLICE…) make the output data-dependent: planned from the indices' bound, the
 * actual dims set at every invoke from the indices' actual dims (data-dependent-shape.ts); so do
 * data-dependent params (UNIQUE values, a masked tensor…: the loop sizes follow their actual dims). Both
 * without batch_dims, and not for string or int4 params.
 *
 * Types: float32 and int8 params with int32 indices as TFLM; as TFLite, params of every other fixed-size
 * type, 1-D strings, and packed int4 (moved as bytes: the inner slice must hold an even count, as
 * TFLite's reference Gather assumes), with int16, int32 or int64 indices. The checks, the output shape
 * and the loop sizes are kernel-support's prepareGather, as in ops-wasm.
 */
import { BuiltinOperator, KernelError, TensorType } from '@micrort/core';
import type { EvalTensor, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  FIXED_SIZE_TYPES,
  INDEX_TYPES,
  type StringMove,
  indexAt,
  prepareStringMove,
  typeSupport,
  writeMappedStrings,
} from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import { fillOpData, gatherIndexError, newOpData, opData, prepareGather } from '@micrort/kernel-support';
import { setActualOutputShape } from './data-dependent-shape.js';

const OP = 'GATHER';
const TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING, TensorType.INT4];

/** Op data computed in prepare (TFLM keeps none). */
interface GatherOpData {
  batchSize: number;
  outerSize: number;
  axisSize: number;
  innerSize: number;
  coordSize: number;
  layout: ElementLayout;
  /** STRING params: the gathered strings are written through this. */
  strings: StringMove | null;
  /** The indices are data-dependent: coordSize and the output's dims follow their actual dims. */
  bounded: boolean;
  /** Where the indices' dimensions start in the output's dims. */
  axis: number;
  /** The output's dims at this invoke (bounded). */
  dims: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareGather(OP, context, node, TYPES, FIXED_SIZE_TYPES);
  const params = g.params;
  if (params.type === TensorType.STRING && params.dims.length !== 1)
    throw new KernelError(OP, node.index, `string params must be 1-D (as TFLite), got ${params.dims.length} dimensions`);
  let innerSize = g.innerSize;
  if (params.type === TensorType.INT4) {
    if (innerSize % 2 !== 0)
      throw new KernelError(
        OP,
        node.index,
        `int4 params need an even number of values per gathered slice (TFLite moves bytes), got ${innerSize}`,
      );
    innerSize /= 2;
  }
  const strings = params.type === TensorType.STRING ? prepareStringMove(OP, context, node, params, false) : null;
  const data: GatherOpData = {
    batchSize: g.batchSize,
    outerSize: g.outerSize,
    axisSize: g.axisSize,
    innerSize,
    coordSize: g.coordSize,
    layout: strings || params.type === TensorType.INT4 ? { useWords: false, units: 1 } : elementLayout(params.type, OP, node),
    strings,
    bounded: g.bounded,
    axis: g.axis,
    dims: Int32Array.from(g.dims),
  };
  fillOpData(OP, node, data);
}

function outOfRange(node: Node, at: number, value: number, axisSize: number): never {
  throw gatherIndexError(OP, node, at, value, axisSize);
}

function gather(node: Node, d: GatherOpData, params: NumberArray, coords: EvalTensor, output: NumberArray): void {
  const { batchSize, outerSize, axisSize, coordSize } = d;
  const innerSize = d.innerSize * d.layout.units;
  let o = 0;
  for (let b = 0; b < batchSize; b++)
    for (let outer = 0; outer < outerSize; outer++) {
      const rowBase = (b * outerSize + outer) * axisSize;
      for (let c = 0; c < coordSize; c++) {
        const at = b * coordSize + c;
        const v = indexAt(coords, at);
        if (v < 0 || v >= axisSize) outOfRange(node, at, v, axisSize);
        let p = (rowBase + v) * innerSize;
        for (let k = 0; k < innerSize; k++) output[o++] = params[p++]!;
      }
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<GatherOpData>(OP, node);
  const params = context.getEvalTensor(node.inputs[0]!);
  const coords = context.getEvalTensor(node.inputs[1]!);
  if (d.bounded) {
    // Data-dependent params or indices (batch_dims 0): the output's dims are params[:axis] + indices +
    // params[axis + 1:] at this invoke, and the loop sizes follow.
    const p = params.dims;
    const c = coords.dims;
    const axis = d.axis;
    let outer = 1;
    for (let i = 0; i < axis; i++) {
      d.dims[i] = p[i]!;
      outer *= p[i]!;
    }
    let size = 1;
    for (let i = 0; i < c.length; i++) {
      d.dims[axis + i] = c[i]!;
      size *= c[i]!;
    }
    let inner = 1;
    for (let i = axis + 1, j = axis + c.length; i < p.length; i++, j++) {
      d.dims[j] = p[i]!;
      inner *= p[i]!;
    }
    d.outerSize = outer;
    d.axisSize = p[axis]!;
    d.innerSize = inner;
    d.coordSize = size;
    setActualOutputShape(context, node, 0, d.dims);
  }
  const output = context.getEvalTensor(node.outputs[0]!);
  const strings = d.strings;
  if (strings) {
    gather(node, d, strings.iota, coords, strings.map);
    writeMappedStrings(strings, params.bytes, output.bytes);
  } else gather(node, d, movableData(params, d.layout), coords, movableData(output, d.layout));
}

/** GATHER registration (op versions 1..7). */
export const GATHER: Registration = {
  builtinCode: BuiltinOperator.GATHER,
  version: 7,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => {
    const p = typeSupport(context, node, TYPES);
    return p === true ? typeSupport(context, node, INDEX_TYPES, 1) : p;
  },
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
