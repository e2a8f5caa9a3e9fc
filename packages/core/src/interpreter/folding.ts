/**
 * Prepare-time evaluation of shape subgraphs. The converter computes paddings, crops, target shapes and
 * slice ends with small graphs — SHAPE → STRIDED_SLICE → arithmetic → PACK → SPACE_TO_BATCH_ND for a
 * dilated convolution, SHAPE → GATHER → PACK → RESHAPE for a dynamic batch — whose inputs are
 * constants or only the shapes of other tensors. micrort runs such a node once, right after its
 * prepare, with its usual kernel, and its outputs become constants (`AllocationType.Folded`): the nodes
 * that consume them prepare with static values (a PAD with constant paddings, a RESHAPE with a constant
 * target), and the folded node does not run at invoke.
 *
 * A node is folded when its op is one of {@link FOLDABLE_OPS}, every input is a constant (model data
 * or folded) — SHAPE and RANK only need their input's shape, which is final by then unless it depends
 * on data —, it requested no scratch buffer, none of its outputs is a variable, bound or bounded, and
 * each output holds at most {@link FOLD_MAX_BYTES} (shape vectors are a few bytes; a large constant
 * computation stays a node that runs at invoke in the planned head). Delegated nodes never fold.
 *
 * Planning: folded nodes keep their place in the plan (step numbers do not move) but read and write
 * nothing on the timeline and are left out of the invoke loop. Their outputs are not planned in the
 * head. After every node has prepared, a folded tensor that a node running at invoke reads (or that is
 * a subgraph output) is copied to the arena tail (`arenaUsage().foldedBytes`); one that only other
 * folded nodes, or no node, read keeps no arena space — its bytes lived outside the arena during prepare.
 */
import { BuiltinOperator } from '../builtin-ops.js';
import { runsAtInvoke, type PlanEntry } from '../graph/graph-node.js';
import { wrapNodeError, type Subgraph } from '../graph/micro-graph.js';
import { Phase } from '../kernel/api.js';
import { AllocationType, type Tensor } from '../kernel/tensor.js';
import type { MicroContext } from './micro-context.js';
import { alignUp, elementSize } from '../types.js';
import type { SingleArenaBufferAllocator } from '../arena/single-arena-buffer-allocator.js';

/** Builtin ops micrort evaluates during prepare when their inputs allow: the converter's shape arithmetic. */
export const FOLDABLE_OPS: ReadonlySet<number> = new Set([
  BuiltinOperator.SHAPE,
  BuiltinOperator.RANK,
  BuiltinOperator.ADD,
  BuiltinOperator.SUB,
  BuiltinOperator.MUL,
  BuiltinOperator.DIV,
  BuiltinOperator.FLOOR_DIV,
  BuiltinOperator.FLOOR_MOD,
  BuiltinOperator.MAXIMUM,
  BuiltinOperator.MINIMUM,
  BuiltinOperator.NEG,
  BuiltinOperator.ABS,
  BuiltinOperator.PACK,
  BuiltinOperator.UNPACK,
  BuiltinOperator.CONCATENATION,
  BuiltinOperator.STRIDED_SLICE,
  BuiltinOperator.SLICE,
  BuiltinOperator.GATHER,
  BuiltinOperator.GATHER_ND,
  BuiltinOperator.CAST,
  BuiltinOperator.RESHAPE,
  BuiltinOperator.EXPAND_DIMS,
  BuiltinOperator.SQUEEZE,
  BuiltinOperator.FILL,
  BuiltinOperator.RANGE,
  BuiltinOperator.TILE,
  BuiltinOperator.REDUCE_PROD,
  BuiltinOperator.SUM,
  BuiltinOperator.REDUCE_MAX,
  BuiltinOperator.REDUCE_MIN,
  BuiltinOperator.BROADCAST_ARGS,
  BuiltinOperator.TRANSPOSE,
  BuiltinOperator.SPLIT,
  BuiltinOperator.SPLIT_V,
  BuiltinOperator.SELECT_V2,
  BuiltinOperator.ZEROS_LIKE,
  BuiltinOperator.EQUAL,
  BuiltinOperator.NOT_EQUAL,
  BuiltinOperator.LESS,
  BuiltinOperator.LESS_EQUAL,
  BuiltinOperator.GREATER,
  BuiltinOperator.GREATER_EQUAL,
]);

/** Largest output (bytes) micrort folds; larger constant computations run at invoke. */
export const FOLD_MAX_BYTES = 1024;

/** The builtin code of each folded-capable node, from the model. */
export type BuiltinCodeOf = (sg: Subgraph, entry: PlanEntry) => number;

/** The folded nodes and tensors of one allocation. */
export class ConstantFolder {
  /** Folded tensors of every subgraph → whether they hold arena bytes (set by `place`). */
  readonly tensors = new Map<Tensor, boolean>();
  /** Aligned arena-tail bytes of folded tensors that nodes read at invoke. */
  arenaBytes = 0;

  constructor(
    private readonly context: MicroContext,
    private readonly builtinCode: BuiltinCodeOf,
    private readonly hasScratch: (subgraph: number, step: number) => boolean,
  ) {}

  /**
   * Before `entry` prepares: whether the folder will evaluate it once it has prepared, as far as can be
   * told then — its op folds, its inputs are constants, and its outputs, at their shapes from the model,
   * fit {@link FOLD_MAX_BYTES}. Core moves such a node off an arena-resident kernel
   * (`Registration.arenaResident`) before its prepare. Its prepare may still change the outputs' sizes
   * or request scratch; `tryFold` decides.
   */
  foldable(sg: Subgraph, entry: PlanEntry): boolean {
    return !!entry.registration && this.qualifies(sg, entry);
  }

  /** The checks of the module comment that need no prepare of this node, with its outputs' current sizes. */
  private qualifies(sg: Subgraph, entry: PlanEntry): boolean {
    if (entry.delegate || entry.internalTensors) return false;
    const code = this.builtinCode(sg, entry);
    if (!FOLDABLE_OPS.has(code)) return false;
    const { inputs, outputs } = entry.node;
    const shapeOnly = code === BuiltinOperator.SHAPE || code === BuiltinOperator.RANK;
    for (let k = 0; k < inputs.length; k++) {
      const i = inputs[k]!;
      if (i < 0) continue;
      const t = sg.tensors[i]!;
      if (shapeOnly && k === 0 ? code === BuiltinOperator.SHAPE && t.upperBound !== null : !t.isConstant) return false;
    }
    if (!outputs.length) return false;
    for (let k = 0; k < outputs.length; k++) {
      const t = sg.tensors[outputs[k]!];
      if (!t || t.isVariable || t.allocationType !== AllocationType.None || t.upperBound) return false;
      if (elementSize(t.type) === undefined || t.byteLength > FOLD_MAX_BYTES) return false;
    }
    return true;
  }

  /**
   * Right after `entry` (step `step` of `sg`) prepared: evaluates it when it qualifies (see the module
   * comment) and marks it folded. Returns whether it did. A failing evaluation is the node's error. A
   * node whose kernel is arena-resident is never folded (it cannot address the folder's buffers): it
   * runs at invoke.
   */
  tryFold(sg: Subgraph, entry: PlanEntry, step: number): boolean {
    const reg = entry.registration;
    if (!reg || reg.arenaResident || !this.qualifies(sg, entry) || this.hasScratch(sg.index, step)) return false;
    const { outputs } = entry.node;
    for (let k = 0; k < outputs.length; k++) {
      const t = sg.tensors[outputs[k]!]!;
      t.bind(new ArrayBuffer(alignUp(Math.max(t.byteLength, 16))), 0, AllocationType.Folded);
    }
    const ctx = this.context;
    ctx.phase = Phase.Invoke;
    try {
      reg.invoke(ctx, entry.node);
    } catch (e) {
      for (let k = 0; k < outputs.length; k++) sg.tensors[outputs[k]!]!.unbind();
      throw wrapNodeError(e, entry, 'evaluating it during prepare (its inputs are constants)', sg.index);
    } finally {
      ctx.phase = Phase.Prepare;
    }
    entry.folded = true;
    for (let k = 0; k < outputs.length; k++) this.tensors.set(sg.tensors[outputs[k]!]!, false);
    return true;
  }

  /**
   * After every node prepared: each folded tensor that a node running at invoke reads, or that is a
   * subgraph output, moves to the arena tail; the others keep no arena space.
   */
  place(subgraphs: readonly Subgraph[], arena: SingleArenaBufferAllocator): void {
    if (!this.tensors.size) return;
    for (const sg of subgraphs) {
      const read = new Set<number>(sg.outputs);
      for (const i of sg.plan) {
        const e = sg.entries[i]!;
        if (runsAtInvoke(e)) for (const t of e.node.inputs) read.add(t);
      }
      for (const t of sg.tensors) {
        if (!this.tensors.has(t) || !read.has(t.index)) continue;
        const bytes = t.byteLength;
        const region = arena.allocatePersistent(bytes, `folded tensor ${t.index} (${t.name || 'unnamed'})`);
        new Uint8Array(region.buffer, region.offset, bytes).set(t.bytes);
        t.bind(region.buffer, region.offset, AllocationType.Folded);
        this.arenaBytes += alignUp(bytes);
        this.tensors.set(t, true);
      }
    }
  }
}
