/**
 * Hand-made stage graphs for the schedule tests: tensors (constants bound to data) and nodes, each with
 * what ops-reference's kernel for its op declares it does spatially (`Registration.spatial`), described
 * the way the search describes them.
 */
import {
  AllocationType,
  BuiltinOperator,
  Padding,
  Tensor,
  TensorType,
  builtinOperatorName,
  elementSize,
  type Node,
  type SpatialBehaviour,
  type TfLiteContext,
} from '@micrort/core';
import { referenceKernels } from '@micrort/ops-reference';
import type { StageGraph, StageNode } from '../patch-geometry.js';
import type { SearchStep } from '../patch-search.js';
import { describeSpatialOp } from '../spatial-ops.js';

/** A node of the test graph (what the schedule reads of a Node). */
function node(index: number, inputs: number[], outputs: number[], builtinData: object | null): Node {
  return {
    index,
    inputs: Int32Array.from(inputs),
    outputs: Int32Array.from(outputs),
    intermediates: new Int32Array(0),
    temporaries: new Int32Array(0),
    builtinData: builtinData as Node['builtinData'],
    customInitialData: null,
    userData: undefined,
  };
}

/** A small graph under construction. */
export class TestGraph {
  readonly tensors: Tensor[] = [];
  readonly nodes: Node[] = [];
  readonly codes: number[] = [];
  /** A context whose getTensor reads this graph (what kernels' `spatial()` use). */
  readonly context = { getTensor: (i: number) => this.tensors[i]! } as unknown as TfLiteContext;

  activation(shape: number[], type = TensorType.INT8, zeroPoint = 3): number {
    const t = new Tensor(
      this.tensors.length,
      `t${this.tensors.length}`,
      type,
      Int32Array.from(shape),
      { scale: Float32Array.of(0.1), zeroPoint: Int32Array.of(zeroPoint), quantizedDimension: 0 },
      false,
    );
    this.tensors.push(t);
    return t.index;
  }

  constant(shape: number[], type = TensorType.INT8, values?: ArrayLike<number>): number {
    const t = new Tensor(this.tensors.length, `c${this.tensors.length}`, type, Int32Array.from(shape), null, false);
    const buf = new ArrayBuffer(Math.max(16, t.elementCount * (elementSize(type) ?? 1)));
    t.bind(buf, 0, AllocationType.MmapRo);
    if (values) (t.data as Int32Array).set(Array.from(values));
    this.tensors.push(t);
    return t.index;
  }

  op(code: BuiltinOperator, inputs: number[], output: number, options: object | null): number {
    this.nodes.push(node(this.nodes.length, inputs, [output], options));
    this.codes.push(code);
    return this.nodes.length - 1;
  }

  /** What ops-reference's kernel for node `k`'s op declares (null: it declares nothing). */
  spatial(k: number): SpatialBehaviour | string | null {
    const reg = referenceKernels.find((r) => r.builtinCode === this.codes[k]);
    return reg?.spatial ? reg.spatial(this.context, this.nodes[k]!) : null;
  }

  /** Node `k` described as the search describes it. */
  describe(k: number) {
    return describeSpatialOp(builtinOperatorName(this.codes[k]!), this.spatial(k), this.nodes[k]!, this.tensors);
  }

  /** The search's steps for every node. */
  steps(): SearchStep[] {
    return this.nodes.map((node, k) => ({ node, code: this.codes[k]!, spatial: this.spatial(k), inPlace: null }));
  }

  conv(x: number, out: number, k: number, stride: number, padding: Padding, cin: number, cout: number, dilation = 1): number {
    return this.op(BuiltinOperator.CONV_2D, [x, this.constant([cout, k, k, cin]), this.constant([cout], TensorType.INT32)], out, {
      padding,
      strideH: stride,
      strideW: stride,
      dilationHFactor: dilation,
      dilationWFactor: dilation,
    });
  }

  dw(x: number, out: number, k: number, stride: number, padding: Padding, c: number): number {
    return this.op(BuiltinOperator.DEPTHWISE_CONV_2D, [x, this.constant([1, k, k, c]), this.constant([c], TensorType.INT32)], out, {
      padding,
      strideH: stride,
      strideW: stride,
      dilationHFactor: 1,
      dilationWFactor: 1,
      depthMultiplier: 1,
    });
  }

  /** The stage of nodes `first..last` reading `inputs`, writing `output`. */
  stage(first: number, last: number, inputs: number[], output: number): StageGraph {
    const nodes: StageNode[] = [];
    for (let k = first; k <= last; k++) {
      const op = this.describe(k);
      if (typeof op === 'string') throw new Error(op);
      nodes.push({ step: k, node: this.nodes[k]!, code: this.codes[k]!, op });
    }
    return { nodes, inputs, output, produced: nodes.map((n) => n.node.outputs[0]!), hoisted: [], kept: [] };
  }
}
