/**
 * CIRCULAR_BUFFER (custom op; TFLM kernels/circular_buffer.cc, circular_buffer_common.cc), int8: the
 * history of strided streaming convolutions (keyword-spotting streaming models). Every invoke shifts
 * the `num_slots` slots of the output one slot towards the start, dropping the oldest, and writes the
 * input into the last slot. The op runs once every `cycles_max` invokes: on the other invokes TFLM's
 * kernel returns `kTfLiteAbort` (-9), which ends the interpreter's run right there (later nodes do not
 * run, `Invoke()` returns -9). Here that is `CircularBufferAbort`, a KernelError this kernel throws
 * (micrort's interpreter has no early-exit status, and a throw is how its invoke reports one); the
 * history has already been updated, as in TFLM, and the interpreter stays usable. Callers of a
 * streaming model catch it and skip that run's outputs, as TFLM callers check the status. The error is
 * made once in prepare; an aborted invoke still costs V8's own message object for the throw (about
 * 40 bytes), the one allocation JavaScript cannot avoid there. A run that does not abort allocates nothing.
 *
 * `cycles_max` comes from the custom options (a FlexBuffers map `{cycles_max}`). Without it (or <= 0),
 * TFLM guesses per node for its two streaming models: period 1 when the output has 5, 13 or 25 slots,
 * period 2 otherwise — except that a node with output [1, slots, 2, 96] gets period 1 when it is the
 * fifth such option-less node prepared in the process (a process-wide static counter). micrort cannot
 * know that count, so such a node is refused in prepare, asking for `cycles_max` in the options.
 *
 * State: TFLM keeps the history in the output tensor itself. When the output is a variable tensor
 * (persistent, reset to its zero point by the interpreter's reset) this kernel does the same. Otherwise
 * TFLM's history lives in planned memory that later nodes may overwrite between invokes, so this kernel
 * keeps it in a persistent arena buffer (`num_slots * depth` bytes, zeroed in prepare) and copies it to
 * the output after each update: the output equals TFLM's wherever TFLM's memory was left alone, and never
 * depends on arena contents. Like TFLM's kernel it has no reset: the history and the cycle counter carry
 * on across `reset()` (a variable output is zeroed by the interpreter, as in TFLM).
 *
 * Input: int8 [1, 1, h, depth]. Output: int8 [1, num_slots, h, depth]. The optional bool "valid" second
 * output of newer TFLM revisions is not implemented (refused in prepare).
 */
import {
  BuiltinOperator,
  FlexBufferError,
  KernelError,
  TensorType,
  parseFlexMap,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opData } from '@micrort/kernel-support';

const OP = 'CIRCULAR_BUFFER';

/** TFLM's kTfLiteAbort (a TfLiteStatus outside the enum), the status of an invoke the op skips. */
export const K_TFLITE_ABORT = -9;

/**
 * Thrown by a CIRCULAR_BUFFER node on the invokes it does not run (TFLM's `kTfLiteAbort`): the rest of
 * the graph did not run and the outputs of this invoke are not meaningful. The node's history was
 * updated; the interpreter is ready for the next invoke. (From a subgraph other than 0 it arrives
 * wrapped in a KernelError whose `cause` is this error.)
 */
export class CircularBufferAbort extends KernelError {
  /** TFLM's status for this outcome. */
  readonly status = K_TFLITE_ABORT;
  constructor(nodeIndex: number, cyclesMax: number) {
    super(
      OP,
      nodeIndex,
      `runs once every ${cyclesMax} invokes: this invoke ended here (TFLM kTfLiteAbort, status ${K_TFLITE_ABORT}); the history was updated, later nodes did not run`,
    );
    this.name = 'CircularBufferAbort';
  }
}

/** Indices into the persistent op data (TFLM's OpDataCircularBuffer: two ints). */
const enum P {
  CYCLES_UNTIL_RUN = 0,
  CYCLES_MAX = 1,
  COUNT = 2,
}

interface CircularBufferOpData {
  params: Int32Array;
  /** Persistent history when the output is not a variable tensor; null: the output holds it. */
  history: Int8Array | null;
  /** Bytes per slot (h * depth). */
  depth: number;
  abort: CircularBufferAbort | null;
}

/** The `cycles_max` option (0 when there are no options or no such key). */
function cyclesMaxOption(node: Node): number {
  const data = node.customInitialData;
  if (!data || data.byteLength === 0) return 0;
  try {
    const m = parseFlexMap(data);
    return m.has('cycles_max') ? m.int32('cycles_max') : 0;
  } catch (e) {
    if (e instanceof FlexBufferError) throw new KernelError(OP, node.index, `malformed custom options: ${e.message}`);
    throw e;
  }
}

function init(context: TfLiteContext): CircularBufferOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, history: null, depth: 0, abort: null };
}

function supports(context: TfLiteContext, node: Node): true | string {
  const index = node.inputs[0];
  if (index === undefined || index < 0) return true;
  const type = context.getTensor(index).type;
  return type === TensorType.INT8 ? true : `${tensorTypeName(type)} input (handles int8)`;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<CircularBufferOpData>(OP, node);
  if (node.inputs.length !== 1 || node.inputs[0]! < 0) throw new KernelError(OP, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length === 2)
    throw new KernelError(
      OP,
      node.index,
      "a second (bool 'valid') output is not implemented: micrort follows TFLM's one-output CIRCULAR_BUFFER, which ends the run early instead",
    );
  if (node.outputs.length !== 1 || node.outputs[0]! < 0)
    throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const shape = (d: Int32Array) => `[${Array.from(d).join(', ')}]`;
  if (input.dims.length !== 4 || output.dims.length !== 4)
    throw new KernelError(
      OP,
      node.index,
      `input ${shape(input.dims)} and output ${shape(output.dims)} must be 4-D: [1, 1, h, depth] and [1, num_slots, h, depth]`,
    );
  const [ib, i1, ih, id] = input.dims as unknown as [number, number, number, number];
  const [ob, slots, oh, od] = output.dims as unknown as [number, number, number, number];
  if (ib !== ob || i1 !== 1 || ih !== oh || id !== od)
    throw new KernelError(
      OP,
      node.index,
      `input ${shape(input.dims)} must be [batch, 1, h, depth] and output ${shape(output.dims)} [batch, num_slots, h, depth] with the same batch, h and depth`,
    );
  if (ob !== 1)
    throw new KernelError(OP, node.index, `batch ${ob}: TFLM's kernel shifts only the first batch, so only batch 1 is supported`);
  if (slots < 1 || oh * od < 1) throw new KernelError(OP, node.index, `output ${shape(output.dims)} has no slots or empty slots`);
  if (input.type !== output.type)
    throw new KernelError(
      OP,
      node.index,
      `input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`,
    );
  if (input.type !== TensorType.INT8)
    throw new KernelError(OP, node.index, `input type ${tensorTypeName(input.type)} is not supported (TFLM handles int8 only)`);

  let cyclesMax = cyclesMaxOption(node);
  if (cyclesMax <= 0) {
    if (slots === 5 || slots === 13 || slots === 25) cyclesMax = 1;
    else if (oh === 2 && od === 96)
      throw new KernelError(
        OP,
        node.index,
        `no cycles_max option and output ${shape(output.dims)}: TFLM picks period 1 or 2 for this shape from a process-wide count of option-less CIRCULAR_BUFFER nodes prepared so far; set cycles_max in the node's custom options`,
      );
    else cyclesMax = 2;
  }
  const p = data.params;
  p[P.CYCLES_MAX] = cyclesMax;
  p[P.CYCLES_UNTIL_RUN] = cyclesMax;
  data.depth = oh * od;
  data.abort = new CircularBufferAbort(node.index, cyclesMax);
  if (output.isVariable) {
    data.history = null;
  } else {
    const region = context.allocatePersistentBuffer(slots * data.depth);
    data.history = region.i8.subarray(0, slots * data.depth).fill(0);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<CircularBufferOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const depth = data.depth;
  const history = data.history ?? output;
  const last = history.length - depth;
  history.copyWithin(0, depth);
  for (let i = 0; i < depth; i++) history[last + i] = input[i]!;
  if (history !== output) output.set(history);
  const p = data.params;
  const left = p[P.CYCLES_UNTIL_RUN]! - 1;
  if (left !== 0) {
    p[P.CYCLES_UNTIL_RUN] = left;
    throw data.abort!;
  }
  p[P.CYCLES_UNTIL_RUN] = p[P.CYCLES_MAX]!;
}

/** CIRCULAR_BUFFER kernel (int8). */
export const CIRCULAR_BUFFER: Registration<CircularBufferOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports,
  init,
  prepare,
  invoke,
};
