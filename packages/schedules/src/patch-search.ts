/**
 * Choosing the patch stage: which run of nodes to execute tile by tile, and the tile grid, so that the
 * estimated peak of live activation bytes is smallest while the extra multiply-accumulates stay within
 * the user's recompute budget.
 *
 * The estimate uses the tensors' sizes and the execution plan only (kernels have not prepared yet, so
 * scratch buffers are not counted): outside the stage the live bytes are the normal schedule's; during
 * the stage they are the tensors that cross it (its inputs, read by every tile, its output, written tile
 * by tile, and tensors live across it) plus the peak of one tile's buffers. In-place steps the kernels
 * declare (`Registration.inPlaceVariant`) are counted when the schedule uses them.
 */
import {
  AllocationType,
  alignUp,
  builtinOperatorName,
  computeLifetimes,
  elementSize,
  type Node,
  type PlanStep,
  type SpatialBehaviour,
  type Tensor,
} from '@micrort/core';
import { stageGeometry, tileLiveBytes, type StageGeometry, type StageGraph, type StageNode } from './patch-geometry.js';
import { constantNodes, describeSpatialOp, nodeMacs, type SpatialOp } from './spatial-ops.js';

/** One step of the execution plan, as the search sees it. */
export interface SearchStep {
  node: Node;
  /** Builtin operator code (-1 when the node cannot be part of a stage: delegate nodes, custom ops). */
  code: number;
  /** What the node's kernel declares it does spatially (`Registration.spatial`), or null when it declares nothing. */
  spatial: SpatialBehaviour | string | null;
  /**
   * The in-place variant the node's kernel declares (input position, temporary bytes), when the schedule
   * uses in-place variants; null otherwise.
   */
  inPlace: { input: number; tempBytes: number } | null;
}

/** Inputs of the search. */
export interface SearchInput {
  steps: readonly SearchStep[];
  tensors: readonly Tensor[];
  graphInputs: ArrayLike<number>;
  graphOutputs: ArrayLike<number>;
  /** Largest extra MACs allowed, as a fraction of the model's MACs (0.2: 20 % more). */
  recomputeBudget: number;
  /** Largest tile grid side considered (default 8). */
  maxGrid?: number;
}

/** A chosen stage. */
export interface StageChoice {
  /** First and last plan positions of the stage. */
  first: number;
  last: number;
  graph: StageGraph;
  geometry: StageGeometry;
  /** Estimated peak of the whole model under this schedule (no scratch buffers). */
  estimatedPeak: number;
  /** MACs the tiles compute beyond the normal schedule's. */
  extraMacs: number;
}

/** What the search found. */
export interface SearchResult {
  /** Estimated peak of the normal schedule (with the in-place steps when they are used). */
  normalPeak: number;
  /** The model's MACs under the normal schedule. */
  totalMacs: number;
  /** The best stage, or null when no stage lowers the peak within the budget. */
  best: StageChoice | null;
  /** Why no stage was chosen (when `best` is null). */
  reason?: string;
  /** Candidates evaluated (stage × grid). */
  evaluated: number;
}

/** Aligned size of a tensor the planner places (0 for constants, variables, unsized types). */
export function plannedBytes(t: Tensor): number {
  if (t.allocationType !== AllocationType.None || t.isVariable) return 0;
  if (elementSize(t.type) === undefined) return 0;
  return alignUp(t.byteLength);
}

/** Live bytes per step of the normal schedule, with each declared in-place step's saving. */
export function normalLiveBytes(input: Pick<SearchInput, 'steps' | 'tensors' | 'graphInputs' | 'graphOutputs'>): {
  live: number[];
  firstCreated: Int32Array;
  lastUsed: Int32Array;
} {
  const { steps, tensors } = input;
  const planSteps: PlanStep[] = steps.map((s) => s.node);
  const { firstCreated, lastUsed } = computeLifetimes(tensors.length, planSteps, input.graphInputs, input.graphOutputs);
  const live = steps.map(() => 0);
  for (const t of tensors) {
    const bytes = plannedBytes(t);
    if (bytes === 0 || firstCreated[t.index]! < 0) continue;
    for (let k = firstCreated[t.index]!; k <= lastUsed[t.index]!; k++) live[k]! += bytes;
  }
  const io = ioSet(input.graphInputs, input.graphOutputs);
  steps.forEach((s, k) => {
    if (!s.inPlace) return;
    const x = s.node.inputs[s.inPlace.input]!;
    const y = s.node.outputs[0]!;
    if (x < 0 || y < 0 || io.has(x) || io.has(y) || lastUsed[x] !== k || firstCreated[y] !== k) return;
    const bx = plannedBytes(tensors[x]!);
    const by = plannedBytes(tensors[y]!);
    if (bx === 0 || by === 0) return;
    live[k]! -= Math.min(bx, by) - alignUp(s.inPlace.tempBytes);
  });
  return { live, firstCreated, lastUsed };
}

function ioSet(a: ArrayLike<number>, b: ArrayLike<number>): Set<number> {
  const s = new Set<number>();
  for (let i = 0; i < a.length; i++) s.add(a[i]!);
  for (let i = 0; i < b.length; i++) s.add(b[i]!);
  return s;
}

/**
 * What the search knows of each plan position: its spatial op (or why it has none), and which nodes
 * compute from constants only (they may sit inside a stage and run once, before its tiles).
 */
export interface StepOps {
  ops: (SpatialOp | string)[];
  constantNodes: ReadonlySet<number>;
}

/** Describes every step (see `StepOps`). */
export function describeSteps(steps: readonly SearchStep[], tensors: readonly Tensor[], graphOutputs: ArrayLike<number>): StepOps {
  const constants = constantNodes(steps, tensors, graphOutputs);
  const ops = steps.map((s, k) =>
    s.code < 0
      ? `node ${s.node.index} is not a builtin operator the schedule can tile`
      : constants.nodes.has(k)
        ? 'computes from constants only'
        : describeSpatialOp(builtinOperatorName(s.code), s.spatial, s.node, tensors, constants.tensors),
  );
  return { ops, constantNodes: constants.nodes };
}

/**
 * The stage made of plan positions `first..last`, or why those nodes cannot form one: every node must be
 * spatial (or compute from constants only: it is hoisted before the stage), and exactly one tensor the
 * spatial nodes produce (the last node's output) may be used after them.
 */
export function stageGraphOf(
  steps: readonly SearchStep[],
  described: StepOps,
  first: number,
  last: number,
  lastUsed: Int32Array,
  graphOutputs: Set<number>,
): StageGraph | string {
  const nodes: StageNode[] = [];
  const produced = new Set<number>();
  const inputs: number[] = [];
  const hoisted: number[] = [];
  if (described.constantNodes.has(first) || described.constantNodes.has(last)) return 'a stage starts and ends with a spatial node';
  for (let k = first; k <= last; k++) {
    if (described.constantNodes.has(k)) {
      hoisted.push(k);
      continue;
    }
    const op = described.ops[k]!;
    if (typeof op === 'string') return op;
    const node = steps[k]!.node;
    for (const p of op.spatialInputs) {
      const t = node.inputs[p]!;
      if (!produced.has(t) && !inputs.includes(t)) inputs.push(t);
    }
    produced.add(node.outputs[0]!);
    nodes.push({ step: k, node, code: steps[k]!.code, op });
  }
  const output = steps[last]!.node.outputs[0]!;
  for (const t of produced) {
    if (t === output) continue;
    if (lastUsed[t]! > last || graphOutputs.has(t)) return `tensor ${t} is produced inside the stage and read after it`;
  }
  // Tensors the tile nodes read that hoisted nodes compute: alive across the stage.
  const hoistedOut = new Set<number>();
  for (const k of hoisted) for (const t of Array.from(steps[k]!.node.outputs)) hoistedOut.add(t);
  const kept = new Set<number>();
  for (const n of nodes) for (const t of Array.from(n.node.inputs)) if (hoistedOut.has(t)) kept.add(t);
  return { nodes, inputs, output, produced: [...produced], hoisted, kept: [...kept] };
}

/** Tile heights for grids of 1..maxGrid rows over `size` pixels (distinct, largest first). */
export function tileSizes(size: number, maxGrid: number): number[] {
  const out: number[] = [];
  for (let g = 1; g <= Math.min(maxGrid, size); g++) {
    const t = Math.ceil(size / g);
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** Searches every stage and tile grid; see the file comment. */
export function searchPatchStage(input: SearchInput): SearchResult {
  const { steps, tensors, recomputeBudget } = input;
  const maxGrid = input.maxGrid ?? 8;
  const n = steps.length;
  const { live, firstCreated, lastUsed } = normalLiveBytes(input);
  const normalPeak = live.reduce((a, b) => Math.max(a, b), 0);
  let totalMacs = 0;
  for (const s of steps) if (s.code >= 0) totalMacs += nodeMacs(s.code, s.node, tensors);
  const described = describeSteps(steps, tensors, input.graphOutputs);
  const { ops, constantNodes: constNodes } = described;
  const prefixMax = new Float64Array(n + 1); // max live over steps < k
  for (let k = 0; k < n; k++) prefixMax[k + 1] = Math.max(prefixMax[k]!, live[k]!);
  const suffixMax = new Float64Array(n + 2); // max live over steps > k-1
  for (let k = n - 1; k >= 0; k--) suffixMax[k] = Math.max(suffixMax[k + 1]!, live[k]!);
  const graphIo = ioSet(input.graphInputs, input.graphOutputs);
  const graphOutputs = ioSet([], input.graphOutputs);
  const graphInputs = ioSet(input.graphInputs, []);

  let best: StageChoice | null = null;
  let bestPeak = normalPeak;
  let evaluated = 0;
  const budgetMacs = recomputeBudget * totalMacs;
  for (let a = 0; a < n; a++) {
    if (typeof ops[a] === 'string') continue;
    if (prefixMax[a]! >= bestPeak) break; // nothing before a can be lowered
    for (let b = a; b < n; b++) {
      if (constNodes.has(b)) continue; // hoisted out of the stage; a stage ends with a spatial node
      if (typeof ops[b] === 'string') break;
      if (suffixMax[b + 1]! >= bestPeak) continue;
      const graph = stageGraphOf(steps, described, a, b, lastUsed, graphOutputs);
      if (typeof graph === 'string') continue;
      // Bytes live during the whole stage: inputs, output, and tensors crossing it.
      let base = 0;
      for (const t of tensors) {
        const bytes = plannedBytes(t);
        if (bytes === 0 || firstCreated[t.index]! < 0) continue;
        const created = firstCreated[t.index]!;
        const used = lastUsed[t.index]!;
        const crosses = (created < a || graphInputs.has(t.index)) && (used > b || graphOutputs.has(t.index));
        if (crosses || graph.inputs.includes(t.index) || graph.kept.includes(t.index) || t.index === graph.output) base += bytes;
      }
      if (base >= bestPeak) continue;
      const out = tensors[graph.output]!;
      for (const th of tileSizes(out.dims[1]!, maxGrid)) {
        for (const tw of tileSizes(out.dims[2]!, maxGrid)) {
          if (th === out.dims[1] && tw === out.dims[2]) continue; // one tile: nothing saved
          const g = stageGeometry(graph, tensors, th, tw);
          evaluated++;
          if (typeof g === 'string') continue;
          const extra = g.rows * g.cols * g.tileMacs - g.wholeMacs;
          if (extra > budgetMacs) continue;
          const tile = tileLiveBytes(g, inPlaceSavings(g, graph, steps, tensors, graphIo));
          const peak = Math.max(prefixMax[a]!, base + tile.peak, suffixMax[b + 1]!);
          if (peak < bestPeak || (best && peak === bestPeak && extra < best.extraMacs)) {
            bestPeak = peak;
            best = { first: a, last: b, graph, geometry: g, estimatedPeak: peak, extraMacs: extra };
          }
        }
      }
    }
  }
  const result: SearchResult = { normalPeak, totalMacs, best, evaluated };
  if (!best) {
    const peakStep = live.indexOf(normalPeak);
    const code = peakStep >= 0 ? steps[peakStep]!.code : -1;
    const where = `${normalPeak} bytes at step ${peakStep} (${code >= 0 ? builtinOperatorName(code) : 'not a builtin operator'})`;
    result.reason = !ops.some((o) => typeof o !== 'string' && o !== undefined)
      ? 'the model has no spatial operators (convolutions, pools, pads, elementwise) to tile'
      : evaluated === 0
        ? `the peak (${where}) lies outside every run of spatial operators that can be tiled`
        : `no stage lowers the peak (${where}) within a recompute budget of ${Math.round(recomputeBudget * 100)} %`;
  }
  return result;
}

/**
 * Per tile step, the bytes an in-place step saves (its input buffer shared with its output, minus the
 * declared temporary), when the input buffer dies at that step and is not a buffer the stage keeps.
 */
export function inPlaceSavings(
  g: StageGeometry,
  graph: StageGraph,
  steps: readonly SearchStep[],
  tensors: readonly Tensor[],
  _graphIo: Set<number>,
): (s: number) => number {
  const lastRead = new Int32Array(g.buffers.length).fill(-1);
  g.steps.forEach((st, s) => {
    if (st.kind === 'node') for (const b of st.inputs) if (b >= 0) lastRead[b] = s;
    if (st.kind === 'crop') lastRead[g.buffers[st.buffer]!.cropOf!] = s;
    if (st.kind === 'scatter') lastRead[st.buffer] = s;
  });
  const saving = g.steps.map(() => 0);
  g.steps.forEach((st, s) => {
    if (st.kind !== 'node') return;
    const n = graph.nodes[st.index]!;
    const decl = steps[n.step]!.inPlace;
    if (!decl) return;
    const b = st.inputs[decl.input];
    if (b === undefined || b < 0 || lastRead[b] !== s) return;
    const inBuf = g.buffers[b]!;
    const outBuf = g.buffers[st.output]!;
    // The variant's temporary is one output channel of the tile.
    const es = elementSize(tensors[n.node.outputs[0]!]!.type)!;
    const temp = alignUp(outBuf.batch * outBuf.rows * outBuf.cols * es);
    saving[s] = Math.max(0, Math.min(inBuf.bytes, outBuf.bytes) - temp);
  });
  return (s) => saving[s]!;
}
