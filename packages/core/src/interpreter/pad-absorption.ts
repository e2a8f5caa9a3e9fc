/**
 * PAD absorption (`context.absorbPad`, contract in kernel/api.ts): a convolution kernel that implements
 * explicit zero padding reads the PAD's source directly, with the padding folded into its window. The
 * PAD then neither runs at invoke nor appears on the planning timeline (allocation.ts's stepOf treats it
 * as a folded node), so its padded copy is never planned and the source lives until the consumer.
 *
 * Models converted from PyTorch, and Keras' ZeroPadding2D before stride-2 depthwise layers, put such a
 * PAD before convolutions with VALID padding; TFLM runs the copy, so this is not done by the
 * TFLM-faithful kernels (ops-reference) whose arena figures are compared with TFLM's.
 */
import { BuiltinOperator } from '../builtin-ops.js';
import { MicrortError } from '../errors.js';
import { runsAtInvoke, type PlanEntry } from '../graph/graph-node.js';
import type { MicroInterpreterGraph, Subgraph } from '../graph/micro-graph.js';
import type { AbsorbedPad, Node } from '../kernel/api.js';
import { AllocationType, type Tensor } from '../kernel/tensor.js';
import { TensorType } from '../types.js';

/** What the absorber needs from the allocation besides the graph layer. */
export interface PadAbsorberHost {
  /** The builtin code of a plan entry (-1 for delegate nodes and nodes a schedule added). */
  builtinCode(sg: Subgraph, entry: PlanEntry): number;
  /** Whether `entry` prepared successfully in this allocation. */
  prepared(entry: PlanEntry): boolean;
  /** Why absorbing into subgraph `subgraph` is not allowed at all (a schedule, an offline plan), or null. */
  blocked(subgraph: number): string | null;
  /** Whether the node at `step` of subgraph `subgraph` requested scratch memory. */
  hasScratch(subgraph: number, step: number): boolean;
  /** Called after a PAD at `step` of `sg` was absorbed (the allocation drops its in-place candidates). */
  onAbsorbed?(sg: Subgraph, step: number): void;
}

/** One absorption: the PAD entry, the consumer and the slot it rewired. */
interface Absorption {
  pad: PlanEntry;
  consumer: PlanEntry;
  slot: number;
  padded: number;
}

const PADDABLE_TYPES: ReadonlySet<TensorType> = new Set([TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.FLOAT32]);

/** The absorptions of one allocation. */
export class PadAbsorber {
  private readonly done: Absorption[] = [];

  constructor(
    private readonly graph: MicroInterpreterGraph,
    private readonly host: PadAbsorberHost,
  ) {}

  /** Number of PAD nodes absorbed in this allocation. */
  get count(): number {
    return this.done.length;
  }

  /** `context.absorbPad` for the node being prepared (see kernel/api.ts). */
  absorb(node: Node, slot: number, accept?: (pad: AbsorbedPad) => boolean): AbsorbedPad | null {
    const cur = this.graph.current;
    const consumer = cur.entry;
    if (!consumer || consumer.node !== node)
      throw new MicrortError(`absorbPad(node ${node.index}, ${slot}): only the node being prepared may absorb a PAD into its own input`);
    if (!Number.isInteger(slot) || slot < 0 || slot >= node.inputs.length)
      throw new MicrortError(`absorbPad(node ${node.index}, ${slot}): the node has ${node.inputs.length} inputs`);
    const sg = this.graph.subgraphs[cur.subgraph]!;
    const found = this.candidate(sg, consumer, slot);
    if (!found) return null;
    const { pad, step, source, pads } = found;
    const result: AbsorbedPad = { source, padded: node.inputs[slot]!, padNode: pad.node.index, ...pads };
    if (accept && !accept({ ...result })) return null;
    // node.inputs is the node's own copy (graph/micro-graph.ts), never the model's operator array
    (node.inputs as Int32Array)[slot] = source;
    pad.absorbedInto = consumer.node.index;
    this.done.push({ pad, consumer, slot, padded: result.padded });
    this.host.onAbsorbed?.(sg, step);
    return result;
  }

  /** Undoes the absorptions of `consumer` (its prepare failed after absorbing). */
  undo(consumer: PlanEntry): void {
    for (let i = this.done.length - 1; i >= 0; i--) {
      const a = this.done[i]!;
      if (a.consumer !== consumer) continue;
      (a.consumer.node.inputs as Int32Array)[a.slot] = a.padded;
      delete a.pad.absorbedInto;
      this.done.splice(i, 1);
    }
  }

  /** The PAD behind input `slot` of `consumer` and its paddings when every condition holds, else null. */
  private candidate(
    sg: Subgraph,
    consumer: PlanEntry,
    slot: number,
  ): { pad: PlanEntry; step: number; source: number; pads: { top: number; bottom: number; left: number; right: number } } | null {
    if (consumer.delegate || this.host.blocked(sg.index) !== null) return null;
    const node = consumer.node;
    const paddedIndex = node.inputs[slot]!;
    if (paddedIndex < 0) return null;
    for (let k = 0; k < node.inputs.length; k++) if (k !== slot && node.inputs[k] === paddedIndex) return null;
    const padded = sg.tensors[paddedIndex]!;
    if (padded.isVariable || padded.allocationType !== AllocationType.None || padded.upperBound) return null;
    if (includes(sg.outputs, paddedIndex) || includes(sg.inputs, paddedIndex)) return null;
    // the producer, and no other reader
    let pad: PlanEntry | null = null;
    let padStep = -1;
    for (let step = 0; step < sg.plan.length; step++) {
      const e = sg.entries[sg.plan[step]!]!;
      if (includes(e.node.outputs, paddedIndex)) {
        if (pad) return null;
        pad = e;
        padStep = step;
      }
      if (e !== consumer && includes(e.node.inputs, paddedIndex)) return null;
    }
    if (!pad || pad === consumer) return null;
    const code = this.host.builtinCode(sg, pad);
    if (code !== BuiltinOperator.PAD && code !== BuiltinOperator.PADV2) return null;
    if (!pad.registration || !runsAtInvoke(pad) || pad.delegate || !this.host.prepared(pad)) return null;
    if (this.host.hasScratch(sg.index, padStep)) return null;
    const { inputs, outputs } = pad.node;
    if (outputs.length !== 1 || inputs.length < 2) return null;
    const source = inputs[0]!;
    const src = source >= 0 ? sg.tensors[source] : undefined;
    if (!src || source === paddedIndex || !sameElements(src, padded)) return null;
    if (src.dims.length !== 4 || padded.dims.length !== 4) return null;
    const pads = constantPaddings(sg.tensors[inputs[1]!]);
    if (!pads) return null;
    const [top, bottom, left, right] = [pads[2]!, pads[3]!, pads[4]!, pads[5]!];
    if (pads[0] !== 0 || pads[1] !== 0 || pads[6] !== 0 || pads[7] !== 0) return null;
    if (top < 0 || bottom < 0 || left < 0 || right < 0) return null;
    const want = [src.dims[0]!, src.dims[1]! + top + bottom, src.dims[2]! + left + right, src.dims[3]!];
    for (let d = 0; d < 4; d++) if (padded.dims[d] !== want[d]) return null;
    // the value written outside must be what a tap outside the input stands for: the zero point (float32: +0.0)
    const zero = padded.type === TensorType.FLOAT32 ? 0 : padded.params.zeroPoint;
    const valueIndex = inputs.length > 2 ? inputs[2]! : -1;
    if (valueIndex >= 0) {
      const v = sg.tensors[valueIndex];
      if (!v || !v.isConstant || v.type !== padded.type || v.elementCount !== 1) return null;
      if (!Object.is(Number(v.data[0]), zero)) return null;
    } else if (padded.type === TensorType.INT16 && zero !== 0) {
      return null; // int16 PAD writes 0 (TFLM), int8 / uint8 the zero point
    }
    return { pad, step: padStep, source, pads: { top, bottom, left, right } };
  }
}

/** Same element type and per-tensor quantization (a padded copy's bytes read the same as its source's). */
function sameElements(a: Tensor, b: Tensor): boolean {
  if (a.type !== b.type || !PADDABLE_TYPES.has(a.type)) return false;
  const qa = a.quantization;
  const qb = b.quantization;
  if (a.type === TensorType.FLOAT32) return !qa?.scale.length && !qb?.scale.length;
  if (!qa || !qb || qa.scale.length !== 1 || qb.scale.length !== 1) return false;
  return qa.scale[0] === qb.scale[0] && (qa.zeroPoint[0] ?? 0) === (qb.zeroPoint[0] ?? 0);
}

/** The eight paddings of a constant int32 / int64 `[4, 2]` tensor, or null. */
function constantPaddings(t: Tensor | undefined): number[] | null {
  if (!t || !t.isConstant || t.elementCount !== 8) return null;
  if (t.type !== TensorType.INT32 && t.type !== TensorType.INT64) return null;
  if (t.dims.length !== 2 || t.dims[0] !== 4 || t.dims[1] !== 2) return null;
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    const v = Number(t.data[i]!);
    if (!Number.isSafeInteger(v)) return null;
    out.push(v);
  }
  return out;
}

function includes(list: ArrayLike<number>, v: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}
