/**
 * Shapes decided during an allocation (TFLite's ResizeTensor in Prepare, without its dynamic tensors):
 * the checks behind the context's `resizeTensor` / `declareShapeBound` / `setActualShape`, the guard
 * that keeps a node whose kernel sizes its work in prepare away from a data-dependent input, and the
 * shape notes of the check report (which tensors were inferred, bounded, folded or resized).
 *
 * The rule (`shapes: 'computed'`, the default): a kernel's computed shape wins over the file's, which is
 * a hint — TFLite resizes the same way, and after `resizeInputTensor` every downstream shape in the file
 * is stale by construction. Memory is planned from the computed shapes, so a wrong file shape can never
 * make a kernel write past its buffer; `micrort check` lists every tensor whose shape differs from the
 * file's. `shapes: 'file'` is TFLM's rule: the file's shapes are final, a different computed shape is a
 * TensorResizeError, nothing is bounded or folded (what `@micrort/deploy` plans with to predict TFLM).
 */
import { DataDependentShapeError, MicrortError, TensorResizeError } from '../errors.js';
import type { PlanEntry } from '../graph/graph-node.js';
import type { Subgraph } from '../graph/micro-graph.js';
import type { Node, ShapeRule } from '../kernel/api.js';
import { AllocationType, type Tensor } from '../kernel/tensor.js';
import type { ModelDef } from '../model/model-def.js';
import { elementSize } from '../types.js';

export type { ShapeRule };

/** Largest byte size of one tensor (the verifier's limit for the file's shapes). */
const MAX_TENSOR_BYTES = 2 ** 31 - 1;

/** What happened to one tensor's shape, for the check report (`report.shapes`). */
export interface ShapeNote {
  subgraph: number;
  tensor: number;
  name: string;
  /**
   * `inferred`: a kernel's prepare computed a shape other than the file's (an empty shape, placeholder
   * 1s, a shape made stale by an input resize). `bounded`: its size depends on data; the arena holds the
   * upper bound `shape`. `folded`: its value was computed during prepare (the node producing it does not
   * run at invoke). `resized`: a graph input set by `resizeInputTensor`.
   */
  kind: 'inferred' | 'bounded' | 'folded' | 'resized';
  /** The shape stored in the file. */
  fileShape: number[];
  /** The shape the allocation planned (for `bounded`, the upper bound). */
  shape: number[];
  /** The node that produced it (absent for graph inputs). */
  node?: number;
  op?: string;
  /** `folded`: whether it holds arena bytes (a node running at invoke, or the graph, reads it). */
  inArena?: boolean;
}

/** `[1, 2, 3]` for messages. */
export function dimsText(dims: ArrayLike<number>): string {
  return `[${Array.from(dims).join(', ')}]`;
}

function sameDims(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Why `dims` cannot be a tensor's shape (negative, fractional, too many bytes), or null. */
export function badDims(dims: ArrayLike<number>, t: Tensor): string | null {
  let count = 1;
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i]!;
    if (!Number.isInteger(d) || d < 0) return `dimension ${i} is ${d}; dimensions are non-negative integers`;
    count *= d;
  }
  const bytes = count * (elementSize(t.type) ?? 0);
  if (bytes > MAX_TENSOR_BYTES) return `${count} elements need ${bytes} bytes, more than 2^31-1`;
  return null;
}

/**
 * A kernel's `resizeTensor` (bound: false) or `declareShapeBound` (bound: true) for tensor `index` of
 * subgraph `sg`, made while `entry` prepares. Throws TensorResizeError naming the tensor and both
 * shapes when the shape cannot be set (see the callbacks' contract in kernel/api.ts).
 */
export function resizeTensor(
  rule: ShapeRule,
  tensors: readonly Tensor[],
  subgraph: number,
  entry: { op: string; node: Node } | null,
  index: number,
  dims: ArrayLike<number>,
  bound: boolean,
): void {
  const call = bound ? 'declareShapeBound' : 'resizeTensor';
  const t = tensors[index];
  // The shape a tensor already has is always fine (a delegate's prepare may run kernel-support's checks).
  if (!bound && t && !t.upperBound && sameDims(t.dims, dims)) return;
  if (!entry) throw new MicrortError(`${call}(${index}) called outside a node's prepare`);
  const fail = (detail: string): never => {
    throw new TensorResizeError(entry.op, entry.node.index, index, t ? Array.from(t.dims) : [], Array.from(dims), detail, subgraph);
  };
  if (!t) return fail(`${call}(${index}): no such tensor (the subgraph has ${tensors.length})`);
  const what = `tensor ${index} (${t.name || 'unnamed'})`;
  if (!includes(entry.node.outputs, index) && !includes(entry.node.intermediates, index))
    return fail(`${call}: ${what} is not an output of this node; a kernel sets the shapes of its own outputs`);
  const bad = badDims(dims, t);
  if (bad) return fail(`${call}: cannot give ${what} the shape ${dimsText(dims)}: ${bad}`);
  const same = sameDims(t.dims, dims);
  const fixed = t.isConstant
    ? 'a constant'
    : t.isVariable
      ? 'a variable'
      : t.allocationType !== AllocationType.None
        ? 'already bound'
        : null;
  if (fixed && (!same || bound)) return fail(`${call}: ${what} is ${fixed}; its shape ${dimsText(t.dims)} cannot change`);
  if (rule === 'file' && (!same || bound))
    return fail(
      bound
        ? `${what} has a shape that depends on data (at most ${dimsText(dims)}), which the interpreter option shapes: 'file' does not allow`
        : `${what} has shape ${dimsText(t.dims)} in the file; the inputs give ${dimsText(dims)} (interpreter option shapes: 'file' keeps the file's shapes)`,
    );
  t.setDims(dims);
  t.upperBound = bound ? Int32Array.from(dims) : null;
}

/**
 * Why `dims` cannot be the actual shape of data-dependent tensor `t` at this invoke (no bound, another
 * rank, a dimension over the bound), or null. Allocates nothing when they can.
 */
export function actualShapeProblem(t: Tensor, dims: ArrayLike<number>): string | null {
  const bound = t.upperBound;
  if (bound === null) return 'the tensor has no data-dependent shape (declareShapeBound in prepare)';
  const n = bound.length;
  if (dims.length !== n) return `rank ${dims.length}, the bound has rank ${n}`;
  for (let i = 0; i < n; i++) {
    const d = dims[i]!;
    if (!(d >= 0 && d <= bound[i]! && (d | 0) === d)) return `dimension ${i} is ${d}`;
  }
  return null;
}

/**
 * The first input of `entry` whose shape depends on data (a tensor its producer bounded with
 * `declareShapeBound`), with its position in `node.inputs`, or null. Known only once the producers have
 * prepared, so after the node's provider was chosen.
 */
export function dataDependentInput(sg: Subgraph, entry: PlanEntry): { position: number; tensor: Tensor } | null {
  const inputs = entry.node.inputs;
  for (let k = 0; k < inputs.length; k++) {
    const t = inputs[k]! >= 0 ? sg.tensors[inputs[k]!] : undefined;
    if (t?.upperBound) return { position: k, tensor: t };
  }
  return null;
}

/** "input k (tensor i, name) has a shape that depends on data (at most [..])". */
export function dataDependentInputText(position: number, t: Tensor): string {
  return `input ${position} (tensor ${t.index}, ${t.name || 'unnamed'}) has a shape that depends on data (at most ${dimsText(t.upperBound!)})`;
}

/**
 * Before `entry` prepares: a node whose kernel sizes its work in prepare must not read a tensor whose
 * shape depends on data. Throws DataDependentShapeError naming the first such input. (The graph first
 * lets a later provider that reads input shapes at invoke take the node: MicroInterpreterGraph's
 * `reresolveForDataDependentInputs`; this refuses what none takes.)
 */
export function checkDataDependentInputs(sg: Subgraph, entry: PlanEntry): void {
  const reg = entry.registration;
  if (!reg || reg.dynamicInputShapes) return;
  const found = dataDependentInput(sg, entry);
  if (!found) return;
  const t = found.tensor;
  throw new DataDependentShapeError(
    entry.op,
    entry.node.index,
    t.index,
    Array.from(t.upperBound!),
    `${dataDependentInputText(found.position, t)}; ` +
      `kernel ${reg.name ?? entry.op} of ${reg.provider ?? 'its provider'} sizes its work in prepare and does not read input shapes at invoke (Registration.dynamicInputShapes)`,
    sg.index,
  );
}

/**
 * The shape notes of an allocation: every tensor whose shape differs from the file's (inferred, or
 * resized for a graph input), every bounded tensor and every folded one (`folded`: tensor → whether it
 * holds arena bytes).
 */
export function shapeNotes(
  model: ModelDef,
  subgraphs: readonly Subgraph[],
  entry: number,
  folded: ReadonlyMap<Tensor, boolean>,
): ShapeNote[] {
  const notes: ShapeNote[] = [];
  for (const sg of subgraphs) {
    const defs = model.subgraphs[sg.index]!.tensors;
    const producer = new Map<number, PlanEntry>();
    for (const e of sg.entries) for (const o of e.node.outputs) if (o >= 0 && !producer.has(o)) producer.set(o, e);
    for (const t of sg.tensors) {
      const def = defs[t.index];
      if (!def) continue; // a tensor a schedule added (tile buffers)
      const file = def.shape;
      const p = producer.get(t.index);
      const base = {
        subgraph: sg.index,
        tensor: t.index,
        name: t.name,
        fileShape: Array.from(file),
        shape: Array.from(t.upperBound ?? t.dims),
      };
      const by = p ? { node: p.node.index, op: p.op } : {};
      const isInput = sg.index === entry && includes(sg.inputs, t.index);
      if (t.upperBound) notes.push({ ...base, kind: 'bounded', ...by });
      else if (!sameDims(file, t.dims)) notes.push({ ...base, kind: isInput && !p ? 'resized' : 'inferred', ...by });
      const inArena = folded.get(t);
      if (inArena !== undefined) notes.push({ ...base, kind: 'folded', ...by, inArena });
    }
  }
  return notes;
}

function includes(list: Int32Array, v: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}
