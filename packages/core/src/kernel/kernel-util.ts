import { KernelError, PhaseError } from '../errors.js';
import { quantizeMultiplier, type QuantizedMultiplier } from '../quant/quantize-multiplier.js';
import { TensorType, elementSize, tensorTypeName } from '../types.js';
import { Phase, type Node, type TfLiteContext } from './api.js';
import type { ArenaRegion } from './arena-region.js';
import { AllocationType, type EvalTensor, type Tensor } from './tensor.js';

/** Input `i` of `node` as a prepare-time Tensor; throws KernelError if absent. */
export function getInput(context: TfLiteContext, node: Node, i: number, op = 'kernel'): Tensor {
  const idx = node.inputs[i];
  if (idx === undefined || idx < 0) throw new KernelError(op, node.index, `input ${i} is missing`);
  return context.getTensor(idx);
}

/** Optional input `i` (null when omitted with -1 or beyond the input count). */
export function getOptionalInput(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getTensor(idx);
}

/** Output `i` of `node` as a prepare-time Tensor; throws KernelError if absent. */
export function getOutput(context: TfLiteContext, node: Node, i: number, op = 'kernel'): Tensor {
  const idx = node.outputs[i];
  if (idx === undefined || idx < 0) throw new KernelError(op, node.index, `output ${i} is missing`);
  return context.getTensor(idx);
}

/** Eval tensor of input `i` (prepare or invoke). */
export function getEvalInput(context: TfLiteContext, node: Node, i: number): EvalTensor {
  return context.getEvalTensor(node.inputs[i]!);
}

/** Eval tensor of optional input `i`, or null when omitted. */
export function getOptionalEvalInput(context: TfLiteContext, node: Node, i: number): EvalTensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getEvalTensor(idx);
}

/** Eval tensor of output `i` (prepare or invoke). */
export function getEvalOutput(context: TfLiteContext, node: Node, i: number): EvalTensor {
  return context.getEvalTensor(node.outputs[i]!);
}

/** Throws KernelError unless `cond`. */
export function check(cond: unknown, op: string, node: Node, detail: string): asserts cond {
  if (!cond) throw new KernelError(op, node.index, detail);
}

/** Throws KernelError unless the node has `nIn` inputs (or a range) and `nOut` outputs. */
export function checkArity(op: string, node: Node, nIn: number | [number, number], nOut: number): void {
  const [lo, hi] = typeof nIn === 'number' ? [nIn, nIn] : nIn;
  if (node.inputs.length < lo || node.inputs.length > hi)
    throw new KernelError(op, node.index, `expects ${lo === hi ? lo : `${lo}..${hi}`} inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== nOut) throw new KernelError(op, node.index, `expects ${nOut} outputs, got ${node.outputs.length}`);
}

/** Throws KernelError naming the unsupported type. */
export function unsupportedType(op: string, node: Node, type: TensorType, what = 'input type'): never {
  throw new KernelError(op, node.index, `unsupported ${what} ${tensorTypeName(type)}`);
}

/** Whether two shapes are equal. */
export function sameShape(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `quantize(real)` (default quantizeMultiplier) for a kernel's prepare. Zero, missing or extreme scales
 * make a real multiplier NaN, infinite or out of the variant's range, where TFLM's TFLITE_CHECKs abort and
 * the quant helpers throw RangeError; here the node is refused with a KernelError naming `what`.
 */
export function checkedQuantizeMultiplier(
  op: string,
  node: Node,
  real: number,
  what: string,
  quantize: (real: number) => QuantizedMultiplier = quantizeMultiplier,
): QuantizedMultiplier {
  if (!Number.isFinite(real))
    throw new KernelError(
      op,
      node.index,
      `${what}: effective scale ${real} is not finite (quantization scales must be non-zero and finite)`,
    );
  try {
    return quantize(real);
  } catch (e) {
    if (e instanceof RangeError) throw new KernelError(op, node.index, `${what}: ${e.message}`);
    throw e;
  }
}

/**
 * Makes output `i` of `node` a persistent tensor (TFLite's `kTfLiteArenaRwPersistent` output, as
 * TFLite's dequantize.cc does to fold a constant input): allocates the tensor's bytes with
 * `context.allocatePersistentBuffer` and binds the tensor there, in phase prepare.
 *
 * Contract: the memory planner never places a tensor that is already bound, so this one takes no head
 * space and is never shared with another buffer; its bytes count as persistent arena (the arena tail,
 * `persistentBufferBytes`, attributed to this node) and keep whatever the kernel writes until dispose.
 * The kernel computes the data in prepare (consumers, prepared later in execution order, can already
 * read it) and its invoke has nothing left to do. Only for outputs that do not depend on runtime
 * inputs. Throws KernelError when the output is missing, a constant, a variable or already
 * persistent, or has no fixed element size, and PhaseError outside prepare.
 */
export function allocatePersistentOutput(context: TfLiteContext, node: Node, i: number, op = 'kernel'): ArenaRegion {
  if (context.phase !== Phase.Prepare)
    throw new PhaseError(
      'allocatePersistentOutput',
      context.phase,
      [Phase.Prepare],
      'a persistent output is bound while its kernel prepares',
    );
  const t = getOutput(context, node, i, op);
  if (t.allocationType === AllocationType.MmapRo || t.allocationType === AllocationType.ArenaRwPersistent || t.isVariable)
    throw new KernelError(
      op,
      node.index,
      `output ${i} (tensor ${t.index}) cannot be made persistent: it already has ${t.isVariable ? 'variable' : t.allocationType} data`,
    );
  if (elementSize(t.type) === undefined)
    throw new KernelError(
      op,
      node.index,
      `output ${i} (tensor ${t.index}) cannot be made persistent: ${tensorTypeName(t.type)} has no fixed element size`,
    );
  const region = context.allocatePersistentBuffer(t.byteLength);
  t.bind(region.buffer, region.offset, AllocationType.ArenaRwPersistent);
  return region;
}
