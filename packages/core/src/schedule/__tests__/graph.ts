/**
 * Hand-made stage graphs for the schedule tests: tensors (constants bound to data) and nodes, with the
 * spatial ops described the way the search describes them.
 */
import { NodeImpl } from '../../graph/graph-node.js';
import { AllocationType, Tensor } from '../../kernel/tensor.js';
import { BuiltinOperator } from '../../builtin-ops.js';
import { Padding } from '../../options.js';
import { TensorType, elementSize } from '../../types.js';
import type { StageGraph, StageNode } from '../patch-geometry.js';
import { describeSpatialOp } from '../spatial-ops.js';

/** A small graph under construction. */
export class TestGraph {
  readonly tensors: Tensor[] = [];
  readonly nodes: NodeImpl[] = [];
  readonly codes: number[] = [];

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
    this.nodes.push(
      new NodeImpl(this.nodes.length, Int32Array.from(inputs), Int32Array.of(output), new Int32Array(0), options as never, null),
    );
    this.codes.push(code);
    return this.nodes.length - 1;
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
      const op = describeSpatialOp(this.codes[k]!, this.nodes[k]!, this.tensors);
      if (typeof op === 'string') throw new Error(op);
      nodes.push({ step: k, node: this.nodes[k]!, code: this.codes[k]!, op });
    }
    return { nodes, inputs, output, produced: nodes.map((n) => n.node.outputs[0]!), hoisted: [], kept: [] };
  }
}
