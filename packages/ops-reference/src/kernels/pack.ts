/**
 * PACK (TFLM kernels/pack.cc): stacks `values_count` tensors of one shape along a new axis `axis`
 * (negative counts from the end of the output's rank). Types: float32, int8, int16, int32, int64 as TFLM,
 * and uint8 and uint32 as TFLite. The checks and the output shape are kernel-support's preparePack, as
 * in ops-wasm. TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import { PACK_TYPES, fillOpData, newOpData, opData, preparePack } from '@micrort/kernel-support';

const OP = 'PACK';

/** Op data computed in prepare. */
interface PackOpData {
  layout: ElementLayout;
  outer: number;
  /** Array slots each input contributes per outer step. */
  run: number;
  axis: number;
  /** An input has a data-dependent shape: the output's dims at this invoke (outer and run follow). */
  dims: Int32Array | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = preparePack(OP, context, node);
  const layout = elementLayout(g.first.type, OP, node);
  const data: PackOpData = {
    layout,
    outer: g.outer,
    run: g.inner * layout.units,
    axis: g.axis,
    dims: g.bounded ? Int32Array.from(g.dims) : null,
  };
  fillOpData(OP, node, data);
}

/** Input `i`'s runs go to run slot i of each output row. */
function packInput(src: NumberArray, dst: NumberArray, i: number, count: number, outer: number, run: number): void {
  let p = 0;
  for (let k = 0; k < outer; k++) {
    let o = (k * count + i) * run;
    for (let c = 0; c < run; c++) dst[o++] = src[p++]!;
  }
}

/** Invoke, data-dependent inputs: every input's actual dims must be input 0's; the sizes and the output's dims follow them. */
function followInputs(context: TfLiteContext, node: Node, d: PackOpData, out: Int32Array): void {
  const first = context.getEvalTensor(node.inputs[0]!).dims;
  for (let i = 1; i < node.inputs.length; i++) {
    const dims = context.getEvalTensor(node.inputs[i]!).dims;
    for (let k = 0; k < first.length; k++)
      if (dims[k] !== first[k])
        throw new KernelError(
          OP,
          node.index,
          `input ${i} has dimension ${k} of ${dims[k]}, input 0 of ${first[k]}: PACK needs equal shapes`,
        );
  }
  let outer = 1;
  let run = d.layout.units;
  for (let k = 0, j = 0; k < first.length; k++, j++) {
    if (k === d.axis) out[j++] = node.inputs.length;
    out[j] = first[k]!;
    if (k < d.axis) outer *= first[k]!;
    else run *= first[k]!;
  }
  if (d.axis === first.length) out[first.length] = node.inputs.length;
  d.outer = outer;
  d.run = run;
  context.setActualShape(node.outputs[0]!, out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<PackOpData>(OP, node);
  if (d.dims !== null) followInputs(context, node, d, d.dims);
  const dst = movableData(context.getEvalTensor(node.outputs[0]!), d.layout);
  const count = node.inputs.length;
  for (let i = 0; i < count; i++) packInput(movableData(context.getEvalTensor(node.inputs[i]!), d.layout), dst, i, count, d.outer, d.run);
}

/** PACK registration (op versions 1..4). */
export const PACK: Registration = {
  builtinCode: BuiltinOperator.PACK,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, PACK_TYPES),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
