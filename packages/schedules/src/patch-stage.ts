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
import {
  BuiltinOperator,
  KernelError,
  MicrortError,
  Padding,
  builtinOperatorName,
  elementSize,
  type Node,
  type Registration,
  type SchedulePlan,
  type Tensor,
  type TensorType,
  type TfLiteContext,
} from '@micrort/core';
import type { StageGeometry, StageGraph, TileBuffer } from './patch-geometry.js';
import { arenaViews, cropWindow, fillOutside, gatherWindow, scatterTile, type ArenaViews, type Block } from './tile-copy.js';

/** Provider name shown for the schedule's own steps. */
export const SCHEDULE_PROVIDER = '@micrort/schedules (patch schedule)';

const enum StepKind {
  Gather = 0,
  Crop = 1,
  Node = 2,
  Scatter = 3,
}

interface RunStep {
  kind: StepKind;
  node: Node;
  /** The kernel of a stage operator's tile node (null for the schedule's own steps). */
  registration: Registration | null;
  op: string;
  /** Buffer written (gather, crop, node) or read (scatter). */
  buffer: number;
  /** Gather: the stage input; scatter: the stage output. */
  tensor: number;
}

/** A patch stage built into the entry subgraph. */
export class PatchStage {
  /** Tensor index of each tile buffer. */
  readonly bufferTensors: number[] = [];
  /** The nodes of one tile's steps, in order. */
  readonly nodes: Node[] = [];
  /** The node that runs every tile (in the run list after `bind`). */
  runner: Node | null = null;
  /** Tile being run. */
  tileRow = 0;
  tileCol = 0;
  /** Nodes computing from constants only, moved before the stage's steps. */
  hoistedCount = 0;
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
    private readonly plan: SchedulePlan,
  ) {}

  /** The node that runs every tile: added after the steps, so they keep the indices they had before. */
  private addRunner(): void {
    const stage = this;
    const registration: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'micrort:patch-stage',
      provider: SCHEDULE_PROVIDER,
      name: 'PATCH_STAGE',
      invoke: (context) => stage.run(context),
    };
    const graph = this.graph;
    const op = `PATCH_STAGE (nodes ${graph.nodes.map((n) => n.node.index).join(',')})`;
    this.runner = this.plan.addNode({ op, inputs: graph.inputs, outputs: [graph.output] }, registration);
  }

  /**
   * Builds the stage into the entry subgraph through `plan`: tensors for the tile buffers, nodes for the
   * steps (each operator's tile node served by its kernel when `supports()` accepts it, else by the
   * next provider), and the new execution plan. Returns the reason when no kernel takes a tile node;
   * the subgraph is then left as it was.
   */
  static build(plan: SchedulePlan, graph: StageGraph, geometry: StageGeometry, first: number, last: number): PatchStage | string {
    const mark = plan.mark();
    const steps = plan.steps();
    const stage = new PatchStage(graph, geometry, first, last, plan);
    // Tensors of the tile buffers.
    for (const b of geometry.buffers) {
      const root = plan.tensors[b.root]!;
      const name = `${root.name || `t${root.index}`} [${b.cropOf === undefined ? 'tile' : 'crop'} ${b.rows}x${b.cols}]`;
      const dims = Int32Array.of(b.batch, b.rows, b.cols, b.channels);
      stage.bufferTensors.push(plan.addTensor({ name, type: root.type, dims, quantization: root.quantization }));
    }
    const tensorOf = (b: number) => stage.bufferTensors[b]!;
    const own = (kind: StepKind, op: string, inputs: number[], outputs: number[], buffer: number, tensor: number) => {
      const node = plan.addNode({ op, inputs, outputs }, stage.stepRegistration(op));
      stage.nodes.push(node);
      stage.steps.push({ kind, node, registration: null, op, buffer, tensor });
    };
    const taken = new Set<number>();
    let firstGather = true;
    for (const st of geometry.steps) {
      switch (st.kind) {
        case 'gather':
          // The first gather also "creates" the stage output, so it is live from the stage's start.
          own(
            StepKind.Gather,
            'PATCH_GATHER',
            [st.tensor],
            firstGather ? [tensorOf(st.buffer), graph.output] : [tensorOf(st.buffer)],
            st.buffer,
            st.tensor,
          );
          firstGather = false;
          break;
        case 'crop':
          own(StepKind.Crop, 'PATCH_CROP', [tensorOf(geometry.buffers[st.buffer]!.cropOf!)], [tensorOf(st.buffer)], st.buffer, -1);
          break;
        case 'node': {
          const sn = graph.nodes[st.index]!;
          const orig = steps[sn.step]!;
          const op = `${orig.op} (tile)`;
          const inputs = Array.from(sn.node.inputs, (t, p) => (st.inputs[p]! >= 0 ? tensorOf(st.inputs[p]!) : t));
          const builtinData =
            sn.op.kind === 'window' ? { ...(sn.node.builtinData as object), padding: Padding.VALID } : sn.node.builtinData;
          const made = plan.addNodeLike(sn.step, {
            op,
            inputs,
            outputs: [tensorOf(st.output)],
            intermediates: sn.node.intermediates,
            builtinData: builtinData as Node['builtinData'],
            customInitialData: sn.node.customInitialData,
          });
          if (typeof made === 'string') {
            plan.rollback(mark);
            return `the kernel of node ${sn.node.index} (${orig.op}) declines its tile node: ${made}`;
          }
          taken.add(sn.step);
          stage.nodes.push(made.node);
          stage.steps.push({ kind: StepKind.Node, node: made.node, registration: made.registration, op, buffer: st.output, tensor: -1 });
          break;
        }
        case 'scatter':
          // Its inputs keep the stage inputs and the hoisted nodes' results alive until the last tile.
          own(
            StepKind.Scatter,
            'PATCH_SCATTER',
            [tensorOf(st.buffer), ...graph.inputs, ...graph.kept],
            [graph.output],
            st.buffer,
            graph.output,
          );
          break;
      }
    }
    // Stage nodes that run no kernel in tiles (PAD) are done by the stage's first step.
    for (const sn of graph.nodes) if (!taken.has(sn.step)) plan.doneBy(sn.node, stage.nodes[0]!);
    stage.addRunner();
    // Nodes computing from constants only run once, before the tiles.
    const order = steps.map((s) => s.node.index);
    const hoisted = graph.hoisted.map((k) => order[k]!);
    stage.hoistedCount = hoisted.length;
    plan.setPlan([...order.slice(0, first), ...hoisted, ...stage.nodes.map((n) => n.index), ...order.slice(last + 1)]);
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

  /** Plan positions of one tile's steps in the scheduled plan. */
  get planRange(): [number, number] {
    const from = this.first + this.hoistedCount;
    return [from, from + this.nodes.length - 1];
  }

  /**
   * After planning: views of the arena for the byte moves, and the run list with the stage's steps
   * replaced by its runner.
   */
  bind(): void {
    const tensors = this.plan.tensors;
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
    this.plan.runInstead(from, to, this.runner!);
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
                st.registration!.invoke(context, st.node);
              } catch (e) {
                throw tileNodeError(e, st);
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

/**
 * The error of a failing tile node, attributed to it: typed errors pass through; anything else (a
 * native error, a bare MicrortError) becomes a KernelError naming the tile node, with the cause kept.
 */
function tileNodeError(e: unknown, st: RunStep): Error {
  if (e instanceof KernelError || (e instanceof MicrortError && e.constructor !== MicrortError)) return e;
  const msg = e instanceof MicrortError ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const err = new KernelError(st.op, st.node.index, `invoke failed: ${msg}`);
  (err as { cause?: unknown }).cause = e;
  return err;
}
