/**
 * The geometry of a patch stage: a run of spatial nodes executed tile by tile (MCUNetV2's patch-based
 * inference). Pure arithmetic over tensor shapes; nothing here touches the arena.
 *
 * Every tile has the same shape. The stage output is cut into `rows × cols` tiles of `tileH × tileW`
 * pixels (the last row and column of tiles may reach past the image; what they compute there is never
 * copied out). Walking the stage backwards, each tensor gets a window per axis: tile `i` needs rows
 * `[i·step + lo, i·step + hi)` of it (`step` is the tile size times the strides between the tensor and
 * the stage output, `lo`/`hi` widen it by the halo the kernels' receptive fields need, and may reach
 * outside the image). A tensor read by several nodes gets the union of their windows; a reader that
 * needs less than the union reads a cropped copy.
 *
 * Each tensor's window lives in a tile buffer of `[N, rows, cols, C]`. Kernels run on these buffers as
 * if they were whole tensors with VALID padding. Image padding becomes buffer content: after a tensor's
 * tile is computed, the positions outside its image are filled with the value its readers' padding
 * stands for (see spatial-ops.ts). A PAD inside the stage moves nothing: its output shares its input's
 * buffer (the same pixels, seen shifted by the padding), whose out-of-image part holds the pad value.
 */
import { alignUp, elementSize, type Node, type Tensor, type TensorType } from '@micrort/core';
import type { SpatialOp } from './spatial-ops.js';

/** The window of one axis: tile `i` covers `[i * step + lo, i * step + hi)`. */
export interface AxisTile {
  step: number;
  lo: number;
  hi: number;
}

/** One node of a stage. */
export interface StageNode {
  /** Position of the node in the subgraph's execution plan. */
  step: number;
  node: Node;
  code: number;
  op: SpatialOp;
}

/** The nodes of a stage and the tensors crossing its border. */
export interface StageGraph {
  nodes: StageNode[];
  /** Tensors the stage reads whole (produced before it, or graph inputs). */
  inputs: number[];
  /** The one tensor the stage produces for the rest of the graph. */
  output: number;
  /** Every tensor the stage's spatial nodes produce (the output included). */
  produced: number[];
  /**
   * Plan positions of nodes inside the stage's range that compute from constants only (e.g. DEQUANTIZE
   * of float16 weights): they run once, before the tiles.
   */
  hoisted: number[];
  /** Tensors the hoisted nodes compute that tile nodes read (kept alive across the stage). */
  kept: number[];
}

/** "Everything outside image rows [y0, y1) × columns [x0, x1) gets `value`", in root coordinates. */
export interface FillRule {
  y0: number;
  y1: number;
  x0: number;
  x1: number;
  value: number;
}

/** A tile buffer: the window of one tensor (and of the PAD outputs sharing it), or a crop. */
export interface TileBuffer {
  id: number;
  /** The tensor whose window this is (for a crop: the tensor cropped). */
  root: number;
  /** Tensors seen through this buffer: the root and PAD outputs of it (crops: none). */
  tensors: number[];
  /** Window in root coordinates (for a crop: the part it copies). */
  h: AxisTile;
  w: AxisTile;
  batch: number;
  rows: number;
  cols: number;
  channels: number;
  type: TensorType;
  /** Aligned bytes. */
  bytes: number;
  /** Fill rules applied, in order, after the buffer is written (crops copy already filled pixels). */
  fills: FillRule[];
  /** For a crop: the buffer it copies from. */
  cropOf?: number;
}

/** One step of a tile's execution. */
export type TileStep =
  | { kind: 'gather'; tensor: number; buffer: number }
  | { kind: 'crop'; buffer: number }
  | { kind: 'node'; index: number; inputs: number[]; output: number }
  | { kind: 'scatter'; buffer: number };

/** Everything about one stage at one tile size. */
export interface StageGeometry {
  tileH: number;
  tileW: number;
  /** Tile grid over the stage output. */
  rows: number;
  cols: number;
  buffers: TileBuffer[];
  /**
   * The steps of one tile, in order. A `node` step's `index` is the node's position in `StageGraph.nodes`;
   * `inputs` holds a buffer per input position of the node (-1 for constant inputs).
   */
  steps: TileStep[];
  /** Buffer holding each tensor's window (PAD outputs share their input's). */
  bufferOf: Map<number, number>;
  /** MACs of one tile (every node over its window). */
  tileMacs: number;
  /** MACs of the same nodes run normally, on whole tensors. */
  wholeMacs: number;
}

interface Need {
  h: AxisTile;
  w: AxisTile;
}

const sameAxis = (a: AxisTile, b: AxisTile) => a.step === b.step && a.lo === b.lo && a.hi === b.hi;

/**
 * The geometry of `stage` with tiles of `tileH × tileW` output pixels, or why it cannot be tiled that
 * way (a tensor reached with two different strides, conflicting fill values, a PAD whose input has
 * another reader, …).
 */
export function stageGeometry(stage: StageGraph, tensors: readonly Tensor[], tileH: number, tileW: number): StageGeometry | string {
  const out = tensors[stage.output]!;
  const H = out.dims[1]!;
  const W = out.dims[2]!;
  if (!(tileH >= 1 && tileW >= 1 && tileH <= H && tileW <= W)) return `tile ${tileH}x${tileW} does not fit the stage output ${H}x${W}`;
  const produced = new Set(stage.produced);
  // Readers of each tensor inside the stage: [node position, input position].
  const readers = new Map<number, [number, number][]>();
  stage.nodes.forEach((n, k) => {
    for (const p of n.op.spatialInputs) {
      const t = n.node.inputs[p]!;
      if (!readers.has(t)) readers.set(t, []);
      readers.get(t)!.push([k, p]);
    }
  });
  for (const t of produced) if (t !== stage.output && !readers.has(t)) return `tensor ${t} is produced in the stage but nobody reads it`;

  // Windows, walking backwards.
  const win = new Map<number, Need>();
  const need = new Map<string, Need>(); // `${node}:${position}` → window that reader needs
  win.set(stage.output, { h: { step: tileH, lo: 0, hi: tileH }, w: { step: tileW, lo: 0, hi: tileW } });
  for (let k = stage.nodes.length - 1; k >= 0; k--) {
    const n = stage.nodes[k]!;
    const y = n.node.outputs[0]!;
    const wy = win.get(y);
    if (!wy) return `tensor ${y} (output of node ${n.node.index}) is not read inside the stage`;
    let nx: Need;
    const op = n.op;
    if (op.kind === 'window') {
      const ax = (a: AxisTile, g: typeof op.h): AxisTile => ({
        step: a.step * g.stride,
        lo: a.lo * g.stride - g.padBefore,
        hi: (a.hi - 1) * g.stride - g.padBefore + (g.kernel - 1) * g.dilation + 1,
      });
      nx = { h: ax(wy.h, op.h), w: ax(wy.w, op.w) };
    } else if (op.kind === 'pad') {
      nx = {
        h: { step: wy.h.step, lo: wy.h.lo - op.top, hi: wy.h.hi - op.top },
        w: { step: wy.w.step, lo: wy.w.lo - op.left, hi: wy.w.hi - op.left },
      };
    } else {
      nx = wy;
    }
    for (const p of op.spatialInputs) {
      const x = n.node.inputs[p]!;
      need.set(`${k}:${p}`, nx);
      const prev = win.get(x);
      if (!prev) {
        win.set(x, { h: { ...nx.h }, w: { ...nx.w } });
        continue;
      }
      if (prev.h.step !== nx.h.step || prev.w.step !== nx.w.step)
        return `tensor ${x} is read at two different scales (tile steps ${prev.h.step}x${prev.w.step} and ${nx.h.step}x${nx.w.step})`;
      prev.h.lo = Math.min(prev.h.lo, nx.h.lo);
      prev.h.hi = Math.max(prev.h.hi, nx.h.hi);
      prev.w.lo = Math.min(prev.w.lo, nx.w.lo);
      prev.w.hi = Math.max(prev.w.hi, nx.w.hi);
    }
  }

  // Buffers: one per tensor window, PAD outputs sharing their input's.
  const buffers: TileBuffer[] = [];
  const bufferOf = new Map<number, number>();
  /** Offset of a tensor's coordinates from its buffer's root coordinates (PAD shifts). */
  const shift = new Map<number, [number, number]>();
  const padOf = new Map<number, number>(); // PAD output tensor → stage node position
  stage.nodes.forEach((n, k) => n.op.kind === 'pad' && padOf.set(n.node.outputs[0]!, k));
  const newBuffer = (root: number, w: Need): TileBuffer | string => {
    const t = tensors[root]!;
    const es = elementSize(t.type)!;
    const rows = w.h.hi - w.h.lo;
    const cols = w.w.hi - w.w.lo;
    if (rows < 1 || cols < 1) return `tensor ${root} has an empty window`;
    const b: TileBuffer = {
      id: buffers.length,
      root,
      tensors: [root],
      h: w.h,
      w: w.w,
      batch: t.dims[0]!,
      rows,
      cols,
      channels: t.dims[3]!,
      type: t.type,
      bytes: alignUp(t.dims[0]! * rows * cols * t.dims[3]! * es),
      fills: [],
    };
    buffers.push(b);
    return b;
  };
  // In plan order: stage inputs first, then each node's output.
  const order = [...stage.inputs, ...stage.nodes.map((n) => n.node.outputs[0]!)];
  for (const t of order) {
    if (bufferOf.has(t)) continue;
    const k = padOf.get(t);
    if (k !== undefined) {
      const pad = stage.nodes[k]!;
      const x = pad.node.inputs[0]!;
      const op = pad.op as Extract<SpatialOp, { kind: 'pad' }>;
      if (readers.get(x)!.length !== 1) return `the input of PAD node ${pad.node.index} (tensor ${x}) has other readers in the stage`;
      const tx = tensors[x]!;
      const tt = tensors[t]!;
      if (tx.params.scale !== tt.params.scale || tx.params.zeroPoint !== tt.params.zeroPoint)
        return `PAD node ${pad.node.index} changes the quantization`;
      const b = bufferOf.get(x)!;
      bufferOf.set(t, b);
      const [sy, sx] = shift.get(x)!;
      shift.set(t, [sy + op.top, sx + op.left]);
      buffers[b]!.tensors.push(t);
      continue;
    }
    const w = win.get(t);
    if (!w) return `tensor ${t} is not read inside the stage`;
    const b = newBuffer(t, w);
    if (typeof b === 'string') return b;
    bufferOf.set(t, b.id);
    shift.set(t, [0, 0]);
  }

  // Fill rules: per tensor seen through a buffer, in alias order (root first).
  for (const b of buffers) {
    for (const t of b.tensors) {
      const [sy, sx] = shift.get(t)!;
      const tt = tensors[t]!;
      const image = { y0: 0 - sy, y1: tt.dims[1]! - sy, x0: 0 - sx, x1: tt.dims[2]! - sx };
      let value: number | null = null;
      for (const [k] of readers.get(t) ?? []) {
        const op = stage.nodes[k]!.op;
        const v = op.kind === 'pad' ? op.value : op.kind === 'window' ? op.fill : null;
        if (v === null) continue;
        if (value !== null && value !== v) return `tensor ${t} is read by nodes that pad it with ${value} and with ${v}`;
        value = v;
      }
      if (value !== null) b.fills.push({ ...image, value });
    }
  }

  // Steps of one tile, crops where a reader needs less than the buffer holds.
  const steps: TileStep[] = [];
  for (const t of stage.inputs) steps.push({ kind: 'gather', tensor: t, buffer: bufferOf.get(t)! });
  let tileMacs = 0;
  let wholeMacs = 0;
  for (let k = 0; k < stage.nodes.length; k++) {
    const n = stage.nodes[k]!;
    if (n.op.kind === 'pad') continue;
    const inputs = Array.from(n.node.inputs, () => -1);
    for (const p of n.op.spatialInputs) {
      const x = n.node.inputs[p]!;
      const b = buffers[bufferOf.get(x)!]!;
      const [sy, sx] = shift.get(x)!;
      const nx = need.get(`${k}:${p}`)!;
      // The reader's window in root coordinates.
      const want: Need = { h: { ...nx.h, lo: nx.h.lo - sy, hi: nx.h.hi - sy }, w: { ...nx.w, lo: nx.w.lo - sx, hi: nx.w.hi - sx } };
      if (sameAxis(want.h, b.h) && sameAxis(want.w, b.w)) {
        inputs[p] = b.id;
        continue;
      }
      const c = newBuffer(b.root, want);
      if (typeof c === 'string') return c;
      c.tensors = [];
      c.cropOf = b.id;
      steps.push({ kind: 'crop', buffer: c.id });
      inputs[p] = c.id;
    }
    const y = n.node.outputs[0]!;
    steps.push({ kind: 'node', index: k, inputs, output: bufferOf.get(y)! });
    if (n.op.macsPerOutput > 0) {
      const ob = buffers[bufferOf.get(y)!]!;
      const ty = tensors[y]!;
      tileMacs += ob.batch * ob.rows * ob.cols * ob.channels * n.op.macsPerOutput;
      wholeMacs += ty.elementCount * n.op.macsPerOutput;
    }
  }
  steps.push({ kind: 'scatter', buffer: bufferOf.get(stage.output)! });
  return { tileH, tileW, rows: Math.ceil(H / tileH), cols: Math.ceil(W / tileW), buffers, steps, bufferOf, tileMacs, wholeMacs };
}

/**
 * Bytes of tile buffers alive at each step of one tile (a buffer lives from the step that writes it to
 * the last step that reads it). `saving(step)` may subtract what an in-place step shares.
 */
export function tileLiveBytes(
  g: StageGeometry,
  saving?: (stepIndex: number) => number,
): { peak: number; peakStep: number; live: number[] } {
  const first = new Int32Array(g.buffers.length).fill(-1);
  const last = new Int32Array(g.buffers.length).fill(-1);
  const touch = (b: number, s: number) => {
    if (first[b] === -1) first[b] = s;
    if (last[b]! < s) last[b] = s;
  };
  g.steps.forEach((st, s) => {
    switch (st.kind) {
      case 'gather':
        touch(st.buffer, s);
        break;
      case 'crop':
        touch(g.buffers[st.buffer]!.cropOf!, s);
        touch(st.buffer, s);
        break;
      case 'node':
        for (const b of st.inputs) if (b >= 0) touch(b, s);
        touch(st.output, s);
        break;
      case 'scatter':
        touch(st.buffer, s);
        break;
    }
  });
  const live = g.steps.map(() => 0);
  for (let b = 0; b < g.buffers.length; b++) for (let s = first[b]!; s <= last[b]! && s >= 0; s++) live[s]! += g.buffers[b]!.bytes;
  let peak = 0;
  let peakStep = 0;
  live.forEach((v, s) => {
    const x = v - (saving ? saving(s) : 0);
    live[s] = x;
    if (x > peak) {
      peak = x;
      peakStep = s;
    }
  });
  return { peak, peakStep, live };
}
