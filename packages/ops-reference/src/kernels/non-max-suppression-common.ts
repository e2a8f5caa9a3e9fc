/**
 * NON_MAX_SUPPRESSION_V4 and _V5 (TFLite non_max_suppression.cc, reference_ops::NonMaxSuppression):
 * single-class (soft) NMS over float32 boxes [n, 4] (y1, x1, y2, x2, corners in any order) and scores
 * [n]. Candidates above `score_threshold` wait in a max-heap of scores; the best is selected unless a
 * selected box overlaps it with IoU ≥ `iou_threshold`; with V5's `soft_nms_sigma` > 0 each overlap decays
 * its score by exp(-0.5·iou²/sigma) and a decayed candidate goes back into the heap. The heap is
 * libstdc++'s binary heap (push_heap / pop_heap), so candidates of equal score come out in TFLite's order;
 * the arithmetic is float32 as in C++.
 *
 * Outputs: selected indices (int32 [max_output_size]), V5's selected scores (float32 [max_output_size]),
 * and the int32 count; entries past the count are zero (TFLite's ResetUnusedElementsToZeroes). A constant
 * max_output_size sizes the outputs in prepare (above the number of boxes too: zeros pad them, as
 * TFLite). TFLite sizes them by a runtime max_output_size at invoke: here they are data-dependent,
 * planned at a bound and given the actual dims [max_output_size] at invoke (data-dependent-shape.ts).
 * The bound is the larger of the number of boxes (at most that many are ever selected) and the length
 * the file stores for selected_indices — what TFLite allocates before its invoke resizes it, and how a
 * model declares room for a zero-padded max_output_size above the number of boxes (a runtime value no
 * prepare can bound). A runtime max_output_size above that bound fails that invoke with a KernelError
 * naming both (TFLite would allocate and pad it).
 */
import { KernelError, TensorType, checkArity, getInput, getOutput, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { boundOutputShape, setActualOutputShape } from './data-dependent-shape.js';
import { constantInts } from './tflite-ops-common.js';

const F32: readonly TensorType[] = [TensorType.FLOAT32];

/** Op data of the NMS kernels: the candidate heap, sized in prepare. */
export interface NmsOpData {
  numBoxes: number;
  /** max_output_size when constant, -1 when read at invoke (the outputs are data-dependent). */
  maxOutput: number;
  /** The planned length of the selected outputs (a runtime max_output_size may not exceed it). */
  bound: number;
  /** The selected outputs' dims at this invoke ([max_output_size]), when data-dependent. */
  dims: Int32Array;
  /**
   * The candidate heap, in three parallel arrays of numBoxes + 1 entries (box index, (decayed) score,
   * suppress_begin_index); the last entry is the value being sifted (doubles stay in typed arrays: a
   * score passed to a call that is not inlined would be boxed).
   */
  heapIndex: Int32Array;
  heapScore: Float32Array;
  heapBegin: Int32Array;
  heapSize: number;
  /** iou_threshold, score_threshold, soft_nms_sigma of this invoke; [3]: the last IoU computed. */
  params: Float64Array;
}

const f = Math.fround;

/** TFLite's ComputeIntersectionOverUnion in float32, of boxes i and j, into d.params[3]. */
function iou(d: NmsOpData, boxes: Float32Array, i: number, j: number): void {
  const a = i * 4;
  const b = j * 4;
  const iy1 = Math.min(boxes[a]!, boxes[a + 2]!);
  const iy2 = Math.max(boxes[a]!, boxes[a + 2]!);
  const ix1 = Math.min(boxes[a + 1]!, boxes[a + 3]!);
  const ix2 = Math.max(boxes[a + 1]!, boxes[a + 3]!);
  const jy1 = Math.min(boxes[b]!, boxes[b + 2]!);
  const jy2 = Math.max(boxes[b]!, boxes[b + 2]!);
  const jx1 = Math.min(boxes[b + 1]!, boxes[b + 3]!);
  const jx2 = Math.max(boxes[b + 1]!, boxes[b + 3]!);
  const areaI = f(f(iy2 - iy1) * f(ix2 - ix1));
  const areaJ = f(f(jy2 - jy1) * f(jx2 - jx1));
  if (areaI <= 0 || areaJ <= 0) {
    d.params[3] = 0;
    return;
  }
  const h = Math.max(f(Math.min(iy2, jy2) - Math.max(iy1, jy1)), 0);
  const w = Math.max(f(Math.min(ix2, jx2) - Math.max(ix1, jx1)), 0);
  const inter = f(h * w);
  d.params[3] = f(inter / f(f(areaI + areaJ) - inter));
}

// libstdc++'s heap (std::priority_queue with comparator a.score < b.score), on three parallel arrays.
function moveEntry(d: NmsOpData, to: number, from: number): void {
  d.heapIndex[to] = d.heapIndex[from]!;
  d.heapScore[to] = d.heapScore[from]!;
  d.heapBegin[to] = d.heapBegin[from]!;
}

/** __push_heap: sifts the value held in the spare entry (numBoxes) up from `hole` towards `top`. */
function pushHeapFrom(d: NmsOpData, hole: number, top: number): void {
  const spare = d.numBoxes;
  const score = d.heapScore[spare]!;
  let parent = (hole - 1) >> 1;
  while (hole > top && d.heapScore[parent]! < score) {
    moveEntry(d, hole, parent);
    hole = parent;
    parent = (hole - 1) >> 1;
  }
  moveEntry(d, hole, spare);
}

/** push: the candidate in the spare entry joins the heap. */
function heapPush(d: NmsOpData): void {
  d.heapSize++;
  pushHeapFrom(d, d.heapSize - 1, 0);
}

/** pop_heap + pop_back: the top leaves; __adjust_heap re-seats the last entry. */
function heapPop(d: NmsOpData): void {
  const last = d.heapSize - 1;
  d.heapSize = last;
  if (last <= 0) return;
  moveEntry(d, d.numBoxes, last);
  const len = last;
  let hole = 0;
  let child = 0;
  while (child < (len - 1) >> 1) {
    child = 2 * (child + 1);
    if (d.heapScore[child]! < d.heapScore[child - 1]!) child--;
    moveEntry(d, hole, child);
    hole = child;
  }
  if ((len & 1) === 0 && child === (len - 2) >> 1) {
    child = 2 * (child + 1);
    moveEntry(d, hole, child - 1);
    hole = child - 1;
  }
  pushHeapFrom(d, hole, 0);
}

/**
 * TFLite's NonMaxSuppression with the thresholds in d.params (iou, score, sigma); returns the number
 * selected.
 */
export function nonMaxSuppression(
  d: NmsOpData,
  boxes: Float32Array,
  scores: Float32Array,
  maxOutput: number,
  selected: Int32Array,
  selectedScores: Float32Array | null,
): number {
  const iouThreshold = d.params[0]!;
  const scoreThreshold = d.params[1]!;
  const sigma = d.params[2]!;
  const spare = d.numBoxes;
  d.heapSize = 0;
  for (let i = 0; i < d.numBoxes; i++)
    if (scores[i]! > scoreThreshold) {
      d.heapIndex[spare] = i;
      d.heapScore[spare] = scores[i]!;
      d.heapBegin[spare] = 0;
      heapPush(d);
    }
  const outputs = Math.min(d.heapSize, maxOutput);
  let count = 0;
  if (outputs === 0) return 0;
  const scale = sigma > 0 ? f(-0.5 / sigma) : 0;
  while (count < outputs && d.heapSize > 0) {
    const index = d.heapIndex[0]!;
    let score = d.heapScore[0]!;
    const original = score;
    const begin = d.heapBegin[0]!;
    heapPop(d);
    let hard = false;
    for (let j = count - 1; j >= begin; j--) {
      iou(d, boxes, index, selected[j]!);
      const o = d.params[3]!;
      if (o >= iouThreshold) {
        hard = true;
        break;
      }
      if (sigma > 0) score = f(score * f(Math.exp(f(f(scale * o) * o))));
      if (score <= scoreThreshold) break;
    }
    // TFLite sets suppress_begin_index before counting a selection, and (unlike TensorFlow) pushes a
    // selected candidate back too: popped again, it is suppressed by its own box.
    const nextBegin = count;
    if (!hard) {
      if (score === original) {
        selected[count] = index;
        if (selectedScores) selectedScores[count] = score;
        count++;
      }
      if (score > scoreThreshold) {
        d.heapIndex[spare] = index;
        d.heapScore[spare] = score;
        d.heapBegin[spare] = nextBegin;
        heapPush(d);
      }
    }
  }
  return count;
}

/** The registration of NON_MAX_SUPPRESSION_V4 (`v5` false) or _V5. */
export function nonMaxSuppressionKernel(op: string, builtinCode: number, v5: boolean): Registration<NmsOpData> {
  const inputs = v5 ? 6 : 5;
  const outputs = v5 ? 3 : 2;
  return {
    builtinCode,
    version: 1,
    provider: PROVIDER,
    name: op,
    supports: (context, node) =>
      declineArity(node, inputs, outputs) ?? declineTypes(context, node, [0, 1], F32, [TensorType.INT32]) ?? true,
    init: () => ({
      numBoxes: 0,
      maxOutput: 0,
      bound: 0,
      dims: new Int32Array(1),
      heapIndex: new Int32Array(0),
      heapScore: new Float32Array(0),
      heapBegin: new Int32Array(0),
      heapSize: 0,
      params: new Float64Array(4),
    }),
    prepare(context: TfLiteContext, node: Node) {
      checkArity(op, node, inputs, outputs);
      const boxes = getInput(context, node, 0, op);
      const scores = getInput(context, node, 1, op);
      const max = getInput(context, node, 2, op);
      expectType(op, node, 'boxes', boxes, F32);
      expectRank(op, node, 'boxes', boxes, 2);
      if (boxes.dims[1] !== 4) throw new KernelError(op, node.index, `boxes has shape [${boxes.dims.join(',')}], expected [n, 4]`);
      const n = boxes.dims[0]!;
      expectType(op, node, 'scores', scores, F32);
      expectRank(op, node, 'scores', scores, 1);
      if (scores.dims[0] !== n) throw new KernelError(op, node.index, `scores has ${scores.dims[0]} values for ${n} boxes`);
      expectType(op, node, 'max_output_size', max, [TensorType.INT32]);
      for (let i = 2; i < inputs; i++) {
        const t = getInput(context, node, i, op);
        if (t.elementCount !== 1 || t.dims.length !== 0) throw new KernelError(op, node.index, `input ${i} must be a scalar`);
        if (i > 2) expectType(op, node, `input ${i}`, t, F32);
      }
      const maxValues = constantInts(op, node, max, 'max_output_size');
      const maxOutput = maxValues === null ? -1 : maxValues[0]!;
      if (maxValues !== null && maxOutput < 0) throw new KernelError(op, node.index, `max_output_size ${maxOutput} is negative`);
      const d = opData<NmsOpData>(op, node);
      // A runtime max_output_size: at most n boxes are selected, so [n] bounds every output TFLite's
      // kernel gives without padding; a longer stored selected_indices leaves room for padding (see the
      // file comment).
      const stored = getOutput(context, node, 0, op).dims;
      const declared = stored.length === 1 ? stored[0]! : 0;
      d.dims[0] = maxOutput < 0 ? Math.max(n, declared) : maxOutput;
      d.bound = d.dims[0]!;
      const shape = (position: number) =>
        maxOutput < 0 ? boundOutputShape(op, context, node, position, d.dims) : setOutputShape(op, context, node, position, d.dims);
      expectType(op, node, 'selected_indices', getOutput(context, node, 0, op), [TensorType.INT32]);
      shape(0);
      if (v5) {
        expectType(op, node, 'selected_scores', getOutput(context, node, 1, op), F32);
        shape(1);
      }
      expectType(op, node, 'valid_outputs', getOutput(context, node, outputs - 1, op), [TensorType.INT32]);
      setOutputShape(op, context, node, outputs - 1, []);
      d.numBoxes = n;
      d.maxOutput = maxOutput;
      d.heapIndex = new Int32Array(n + 1);
      d.heapScore = new Float32Array(n + 1);
      d.heapBegin = new Int32Array(n + 1);
    },
    invoke(context: TfLiteContext, node: Node) {
      const d = opData<NmsOpData>(op, node);
      const p = d.params;
      p[0] = (context.getEvalTensor(node.inputs[3]!).data as Float32Array)[0]!;
      p[1] = (context.getEvalTensor(node.inputs[4]!).data as Float32Array)[0]!;
      p[2] = v5 ? (context.getEvalTensor(node.inputs[5]!).data as Float32Array)[0]! : 0;
      if (!(p[0]! >= 0 && p[0]! <= 1)) throw new KernelError(op, node.index, `iou_threshold ${p[0]} is outside [0, 1]`);
      if (p[2]! < 0) throw new KernelError(op, node.index, `soft_nms_sigma ${p[2]} is negative`);
      let maxOutput = d.maxOutput;
      if (maxOutput < 0) {
        maxOutput = (context.getEvalTensor(node.inputs[2]!).data as Int32Array)[0]!;
        if (maxOutput < 0) throw new KernelError(op, node.index, `max_output_size ${maxOutput} is negative`);
        if (maxOutput > d.bound)
          throw new KernelError(
            op,
            node.index,
            `max_output_size ${maxOutput} is more than the ${d.bound} planned (the larger of the ${d.numBoxes} boxes and the stored length of selected_indices): TFLite pads the outputs with zeros to ${maxOutput}; store selected_indices with shape [${maxOutput}] (shape_signature [-1]) to plan that much`,
          );
        d.dims[0] = maxOutput;
        setActualOutputShape(context, node, 0, d.dims);
        if (v5) setActualOutputShape(context, node, 1, d.dims);
      }
      const selected = context.getEvalTensor(node.outputs[0]!).data as Int32Array;
      const selectedScores = v5 ? (context.getEvalTensor(node.outputs[1]!).data as Float32Array) : null;
      const count = nonMaxSuppression(
        d,
        context.getEvalTensor(node.inputs[0]!).data as Float32Array,
        context.getEvalTensor(node.inputs[1]!).data as Float32Array,
        maxOutput,
        selected,
        selectedScores,
      );
      selected.fill(0, count, maxOutput);
      selectedScores?.fill(0, count, maxOutput);
      (context.getEvalTensor(node.outputs[outputs - 1]!).data as Int32Array)[0] = count;
    },
  };
}
