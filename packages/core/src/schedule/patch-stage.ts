/**
 * The runtime of a patch stage: the nodes of `StageGeometry` made real in the entry subgraph.
 *
 * - Each tile buffer becomes a tensor of the subgraph (appended after the model's tensors), planned by
 *   the memory planner like any activation.
 * - Each step of one tile becomes a plan entry, replacing the stage's nodes in the execution plan:
 *   PATCH_GATHER (copy a stage input's window into its tile buffer), PATCH_CROP (copy a sub-window for a
 *   reader that needs less), and one node per stage operator whose tensors are the tile buffers, served
 *   by the operator's own kernel (it sees an ordinary node with VALID padding), and PATCH_SCATTER (copy the
 *   tile into its place in the stage output). Planning therefore sees one tile's steps: tile buffers are
 *   reused from tile to tile, and the stage's inputs and output stay live across all of them.
 * - After planning, `bind` swaps those entries in the run list for one PATCH_STAGE entry that runs them
 *   for every tile in turn, filling padding after each write.
 *
 * The operators' kernels are prepared once, on the tile shapes (every tile has the same shape), reusing
 * the op data `init` gave the original node, so the arena tail is what the normal schedule needs.
 */
import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import { KernelError, MicrortError } from '../errors.js';
import { NodeImpl, type PlanEntry } from '../graph/graph-node.js';
import { wrapNodeError, type MicroInterpreterGraph, type Subgraph } from '../graph/micro-graph.js';
import type { Registration, TfLiteContext } from '../kernel/api.js';
import { Tensor } from '../kernel/tensor.js';
import { Padding } from '../options.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import { elementSize, type TensorType } from '../types.js';
import type { StageGeometry, StageGraph, TileBuffer } from './patch-geometry.js';
import { arenaViews, cropWindow, fillOutside, gatherWindow, scatterTile, type ArenaViews, type Block } from './tile-copy.js';

/** Provider name shown for the schedule's own steps. */
export const SCHEDULE_PROVIDER = '@micrort/core (patch schedule)';

const NONE = new Int32Array(0);

const enum StepKind {
  Gather = 0,
  Crop = 1,
  Node = 2,
  Scatter = 3,
}

interface RunStep {
  kind: StepKind;
  entry: PlanEntry;
  /** Buffer written (gather, crop, node) or read (scatter). */
  buffer: number;
  /** Gather: the stage input; scatter: the stage output. */
  tensor: number;
}

/** What building a stage needs of the allocation. */
export interface StageHost {
  sg: Subgraph;
  graph: MicroInterpreterGraph;
  context: TfLiteContext;
  resolver: OpResolver;
}

/** A patch stage built into the entry subgraph. */
export class PatchStage {
  /** Tensor index of each tile buffer. */
  readonly bufferTensors: number[] = [];
  /** The plan entries of one tile's steps, in order. */
  readonly entries: PlanEntry[] = [];
  /** The original entries of the stage's nodes (no longer in the plan), by node index. */
  readonly replaced = new Map<PlanEntry, PlanEntry>();
  /** The entry that runs every tile (in the run list after `bind`). */
  readonly runner: PlanEntry;
  /** Tile being run. */
  tileRow = 0;
  tileCol = 0;
  private readonly steps: RunStep[] = [];
  private blocks: Block[] = [];
  private views: ArenaViews[] = [];
  private inputBlocks = new Map<number, Block>();
  private outputBlock: Block | null = null;
  private outputViews: ArenaViews | null = null;

  private constructor(
    readonly graph: StageGraph,
    readonly geometry: StageGeometry,
    /** First and last plan positions the stage replaced. */
    readonly first: number,
    readonly last: number,
    private readonly sg: Subgraph,
  ) {
    const stage = this;
    const registration: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'micrort:patch-stage',
      provider: SCHEDULE_PROVIDER,
      name: 'PATCH_STAGE',
      invoke: (context) => stage.run(context),
    };
    const firstNode = graph.nodes[0]!.node.index;
    const node = new NodeImpl(firstNode, Int32Array.from(graph.inputs), Int32Array.of(graph.output), NONE, null, null);
    this.runner = {
      node,
      registration,
      op: `PATCH_STAGE (nodes ${graph.nodes.map((n) => n.node.index).join(',')})`,
      version: 1,
      declinedBy: [],
      initialized: true,
      invokes: NONE,
    };
  }

  /**
   * Builds the stage into `host.sg`: tensors for the tile buffers, entries for the steps (each operator's
   * kernel checked with `supports()` on its tile node), and the new execution plan. Returns the reason
   * when a kernel declines its tile node; the subgraph is then left as it was.
   */
  static build(host: StageHost, graph: StageGraph, geometry: StageGeometry, first: number, last: number): PatchStage | string {
    const { sg } = host;
    const tensorCount = sg.tensors.length;
    const entryCount = sg.entries.length;
    const stage = new PatchStage(graph, geometry, first, last, sg);
    const undo = (why: string): string => {
      for (const [orig, inst] of stage.replaced) {
        if (inst.node.userData === orig.node.userData) orig.initialized = true;
        else if (inst.initialized) inst.registration?.free?.(host.context, inst.node.userData);
      }
      sg.tensors.length = tensorCount;
      sg.entries.length = entryCount;
      return why;
    };
    // Tensors of the tile buffers.
    for (const b of geometry.buffers) {
      const root = sg.tensors[b.root]!;
      const name = `${root.name || `t${root.index}`} [${b.cropOf === undefined ? 'tile' : 'crop'} ${b.rows}x${b.cols}]`;
      const t = new Tensor(
        sg.tensors.length,
        name,
        root.type,
        Int32Array.of(b.batch, b.rows, b.cols, b.channels),
        root.quantization,
        false,
      );
      sg.tensors.push(t);
      stage.bufferTensors.push(t.index);
    }
    const tensorOf = (b: number) => stage.bufferTensors[b]!;
    const add = (entry: PlanEntry) => {
      sg.entries.push(entry);
      stage.entries.push(entry);
    };
    const ownEntry = (op: string, registration: Registration, inputs: number[], outputs: number[]): PlanEntry => {
      const node = new NodeImpl(sg.entries.length, Int32Array.from(inputs), Int32Array.from(outputs), NONE, null, null);
      return { node, registration, op, version: 1, declinedBy: [], initialized: true, invokes: NONE };
    };
    let firstGather = true;
    for (const st of geometry.steps) {
      switch (st.kind) {
        case 'gather': {
          // The first gather also "creates" the stage output, so it is live from the stage's start.
          const outs = firstGather ? [tensorOf(st.buffer), graph.output] : [tensorOf(st.buffer)];
          firstGather = false;
          const e = ownEntry('PATCH_GATHER', stage.stepRegistration('PATCH_GATHER'), [st.tensor], outs);
          add(e);
          stage.steps.push({ kind: StepKind.Gather, entry: e, buffer: st.buffer, tensor: st.tensor });
          break;
        }
        case 'crop': {
          const b = geometry.buffers[st.buffer]!;
          const e = ownEntry('PATCH_CROP', stage.stepRegistration('PATCH_CROP'), [tensorOf(b.cropOf!)], [tensorOf(st.buffer)]);
          add(e);
          stage.steps.push({ kind: StepKind.Crop, entry: e, buffer: st.buffer, tensor: -1 });
          break;
        }
        case 'node': {
          const sn = graph.nodes[st.index]!;
          const orig = sg.entries[sg.plan[sn.step]!]!;
          const inputs = Array.from(sn.node.inputs, (t, p) => (st.inputs[p]! >= 0 ? tensorOf(st.inputs[p]!) : t));
          const builtin = sn.op.kind === 'window' ? { ...(sn.node.builtinData as object), padding: Padding.VALID } : sn.node.builtinData;
          const node = new NodeImpl(
            sg.entries.length,
            Int32Array.from(inputs),
            Int32Array.of(tensorOf(st.output)),
            sn.node.intermediates,
            builtin as NodeImpl['builtinData'],
            sn.node.customInitialData,
          );
          const e: PlanEntry = {
            node,
            registration: null,
            op: `${orig.op} (tile)`,
            version: orig.version,
            declinedBy: [],
            initialized: false,
            invokes: NONE,
          };
          add(e);
          host.graph.current.entry = e;
          try {
            const reg = orig.registration!;
            const answer = reg.supports ? reg.supports(host.context, node) : true;
            if (answer === true) {
              e.registration = reg;
              node.userData = orig.node.userData;
              orig.initialized = false;
              e.initialized = true;
            } else {
              const res = host.resolver.resolve(sn.code, orig.version, null, host.context, node);
              if (!res?.registration) {
                const why = typeof answer === 'string' && answer ? answer : 'declined';
                return undo(`the kernel of node ${sn.node.index} (${orig.op}) declines its tile node: ${why}`);
              }
              e.registration = res.registration;
              node.userData = res.registration.init ? res.registration.init(host.context, node.builtinData) : undefined;
              e.initialized = true;
            }
          } finally {
            host.graph.current.entry = null;
          }
          stage.replaced.set(orig, e);
          stage.steps.push({ kind: StepKind.Node, entry: e, buffer: st.output, tensor: -1 });
          break;
        }
        case 'scatter': {
          // Its inputs keep the stage inputs and the hoisted nodes' results alive until the last tile.
          const e = ownEntry(
            'PATCH_SCATTER',
            stage.stepRegistration('PATCH_SCATTER'),
            [tensorOf(st.buffer), ...graph.inputs, ...graph.kept],
            [graph.output],
          );
          add(e);
          stage.steps.push({ kind: StepKind.Scatter, entry: e, buffer: st.buffer, tensor: graph.output });
          break;
        }
      }
    }
    // Stage nodes that run no kernel in tiles (PAD) are replaced too.
    for (const sn of graph.nodes) {
      const orig = sg.entries[sg.plan[sn.step]!]!;
      if (!stage.replaced.has(orig)) stage.replaced.set(orig, stage.entries[0]!);
    }
    // Nodes computing from constants only run once, before the tiles.
    const hoisted = graph.hoisted.map((k) => sg.plan[k]!);
    stage.hoistedCount = hoisted.length;
    sg.plan = [...sg.plan.slice(0, first), ...hoisted, ...stage.entries.map((e) => e.node.index), ...sg.plan.slice(last + 1)];
    return stage;
  }

  /** A registration for one of the schedule's own steps (they run only through the stage's runner). */
  private stepRegistration(name: string): Registration {
    return {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: `micrort:${name.toLowerCase().replace('_', '-')}`,
      provider: SCHEDULE_PROVIDER,
      name,
      invoke: () => {
        throw new MicrortError(`${name} runs only inside its patch stage`);
      },
    };
  }

  /** Nodes computing from constants only, moved before the stage's steps. */
  hoistedCount = 0;

  /** Plan positions of one tile's steps in the scheduled plan. */
  get planRange(): [number, number] {
    const from = this.first + this.hoistedCount;
    return [from, from + this.entries.length - 1];
  }

  /**
   * After planning: views of the arena for the byte moves, and the run list with the stage's steps
   * replaced by its runner.
   */
  bind(): void {
    const sg = this.sg;
    const tensors = sg.tensors;
    const byType = new Map<TensorType, ArenaViews>();
    const viewsOf = (t: Tensor): ArenaViews => {
      let v = byType.get(t.type);
      if (!v) {
        v = arenaViews(t.bytes.buffer, t.type, elementSize(t.type)!);
        byType.set(t.type, v);
      }
      return v;
    };
    const blockOf = (t: Tensor): Block => ({
      offset: t.bytes.byteOffset,
      batch: t.dims[0]!,
      height: t.dims[1]!,
      width: t.dims[2]!,
      pixelBytes: t.dims[3]! * elementSize(t.type)!,
    });
    this.blocks = this.bufferTensors.map((i) => blockOf(tensors[i]!));
    this.views = this.bufferTensors.map((i) => viewsOf(tensors[i]!));
    for (const t of this.graph.inputs) this.inputBlocks.set(t, blockOf(tensors[t]!));
    this.outputBlock = blockOf(tensors[this.graph.output]!);
    this.outputViews = viewsOf(tensors[this.graph.output]!);
    const [from, to] = this.planRange;
    const list = sg.plan.map((i) => sg.entries[i]!);
    sg.runList = [...list.slice(0, from), this.runner, ...list.slice(to + 1)];
  }

  /** Runs every tile (the runner's invoke). Allocates nothing. */
  run(context: TfLiteContext): void {
    const g = this.geometry;
    const steps = this.steps;
    for (let i = 0; i < g.rows; i++) {
      for (let j = 0; j < g.cols; j++) {
        this.tileRow = i;
        this.tileCol = j;
        for (let s = 0; s < steps.length; s++) {
          const st = steps[s]!;
          switch (st.kind) {
            case StepKind.Gather:
              this.gather(st);
              break;
            case StepKind.Crop:
              this.crop(st);
              break;
            case StepKind.Node:
              try {
                st.entry.registration!.invoke(context, st.entry.node);
              } catch (e) {
                throw e instanceof KernelError ? e : wrapNodeError(e, st.entry, 'invoke', this.sg.index);
              }
              this.fill(st.buffer);
              break;
            case StepKind.Scatter:
              this.scatter(st);
              break;
          }
        }
      }
    }
  }

  private buffer(b: number): TileBuffer {
    return this.geometry.buffers[b]!;
  }

  private gather(st: RunStep): void {
    const b = this.buffer(st.buffer);
    const y0 = this.tileRow * b.h.step + b.h.lo;
    const x0 = this.tileCol * b.w.step + b.w.lo;
    gatherWindow(
      this.views[st.buffer]!,
      this.inputBlocks.get(st.tensor)!,
      this.blocks[st.buffer]!,
      y0,
      x0,
      b.fills.length ? b.fills[0]!.value : 0,
    );
    this.fill(st.buffer);
  }

  /** Applies buffer `b`'s fill rules for the current tile. */
  private fill(b: number): void {
    const buf = this.buffer(b);
    const fills = buf.fills;
    if (fills.length === 0) return;
    const y0 = this.tileRow * buf.h.step + buf.h.lo;
    const x0 = this.tileCol * buf.w.step + buf.w.lo;
    for (let k = 0; k < fills.length; k++) {
      const f = fills[k]!;
      fillOutside(this.views[b]!, this.blocks[b]!, f.y0 - y0, f.y1 - y0, f.x0 - x0, f.x1 - x0, f.value);
    }
  }

  private crop(st: RunStep): void {
    const c = this.buffer(st.buffer);
    const src = this.buffer(c.cropOf!);
    cropWindow(this.views[st.buffer]!, this.blocks[src.id]!, this.blocks[st.buffer]!, c.h.lo - src.h.lo, c.w.lo - src.w.lo);
  }

  private scatter(st: RunStep): void {
    const g = this.geometry;
    const out = this.outputBlock!;
    const y0 = this.tileRow * g.tileH;
    const x0 = this.tileCol * g.tileW;
    const rows = Math.min(g.tileH, out.height - y0);
    const cols = Math.min(g.tileW, out.width - x0);
    scatterTile(this.outputViews!, this.blocks[st.buffer]!, out, y0, x0, rows, cols);
  }

  /** Display name of the stage's nodes, e.g. `nodes 1-18 (CONV_2D ×6, …)`. */
  describe(): string {
    const counts = new Map<string, number>();
    for (const n of this.graph.nodes) {
      const name = builtinOperatorName(n.code);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const first = this.graph.nodes[0]!.node.index;
    const last = this.graph.nodes[this.graph.nodes.length - 1]!.node.index;
    return `nodes ${first}-${last} (${[...counts].map(([k, v]) => (v > 1 ? `${k} ×${v}` : k)).join(', ')})`;
  }
}
