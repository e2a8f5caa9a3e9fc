/**
 * Outputs whose size depends on the data (WHERE, UNIQUE, NON_MAX_SUPPRESSION_V4/V5 with a runtime
 * max_output_size, TOPK_V2 with a runtime k, SLICE with a runtime begin or size) and outputs whose shape
 * is read from a runtime tensor with no bound (RANGE, TILE, ONE_HOT… whose shape inputs are not
 * constant): where ops-reference's producers of such outputs meet core's contract for them (issue 20,
 * item 1; `TfLiteContext.declareShapeBound` / `setActualShape`, kernel-support's output-shape.ts), and
 * the dims map its consumers SQUEEZE and EXPAND_DIMS share.
 *
 * A kernel with a data-dependent output calls, in prepare, `boundOutputShape` with the largest shape it
 * can prove: the arena plans that many elements and the tensor's `upperBound` keeps it. It keeps an
 * `Int32Array` of the output's rank in its op data; in invoke it writes the output's actual elements
 * (the leading ones of the planned bytes, row-major in the actual dims) and calls `setActualOutputShape`
 * with the actual dims written into that array: the tensor's `dims` change in place and its `data` stays
 * the view of the planned bytes (no allocation; the elements past the actual ones are left as they are).
 * Consumers read the actual dims at invoke (`Registration.dynamicInputShapes`), graph outputs report
 * them (`interpreter.output(j).dims`). A kernel that can prove no bound throws `noShapeBound`:
 * kernel-support's `UnboundedShapeError`, naming the tensor.
 *
 * The consumers that follow actual dims (`dynamicInputShapes`) and make their own output bounded in
 * turn: SQUEEZE (with squeeze_dims), EXPAND_DIMS, RESHAPE (a target with -1), CAST, GATHER (params and
 * indices), GATHER_ND (indices), SLICE, STRIDED_SLICE, CONCATENATION, SHAPE, RANK, the unary
 * elementwise kernels built with `readsActualDims` (unary-common.ts), the binary elementwise kernels
 * (`followsBroadcast`, elementwise-common.ts), the reductions (`followsReduce`, `followsWalk`),
 * ARG_MAX, ARG_MIN, SOFTMAX, LOG_SOFTMAX, TRANSPOSE, TILE, PAD, PADV2, PACK, UNPACK, SPLIT, SPLIT_V,
 * SELECT and SELECT_V2; every other kernel is refused
 * before its prepare (`DataDependentShapeError`).
 */
import { KernelError, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { isDataDependent, noUpperBound, opData, refuseDataDependentInput, setOutputUpperBound } from '@micrort/kernel-support';

/**
 * Prepare: output `position` of `node` has a data-dependent shape of at most `maxDims` (its rank is
 * the output's). Returns the output tensor.
 */
export function boundOutputShape(op: string, context: TfLiteContext, node: Node, position: number, maxDims: ArrayLike<number>): Tensor {
  return setOutputUpperBound(op, context, node, position, maxDims);
}

/**
 * Invoke: the actual dims of data-dependent output `position` for this invoke, in an Int32Array the
 * kernel keeps in its op data (same rank as the bound, each dimension at most the bound's). Allocates
 * nothing.
 */
export function setActualOutputShape(context: TfLiteContext, node: Node, position: number, dims: Int32Array): void {
  context.setActualShape(node.outputs[position]!, dims);
}

/**
 * Prepare: output `position` depends on runtime values for which no upper bound follows from what
 * prepare knows; `reason` says why (e.g. `the multiples input is not constant`). Always throws
 * `UnboundedShapeError`.
 */
export function noShapeBound(op: string, context: TfLiteContext, node: Node, position: number, reason: string): never {
  return noUpperBound(op, context, node, position, reason);
}

/**
 * Output dims that pick their input's (SQUEEZE, EXPAND_DIMS): output axis `j` has the size of input axis
 * `from[j]`, or 1 where `from[j]` is -1. Kept in the op data of a kernel whose input is data-dependent.
 */
export interface DimsMap {
  from: Int32Array;
  /** The output's dims at this invoke. */
  dims: Int32Array;
}

/** The map of `from` (see {@link DimsMap}), in prepare. */
export function dimsMap(from: readonly number[]): DimsMap {
  return { from: Int32Array.from(from), dims: new Int32Array(from.length) };
}

/** Invoke: data-dependent output 0 takes input 0's actual dims through `map`. Allocates nothing. */
export function followMappedShape(context: TfLiteContext, node: Node, map: DimsMap): void {
  const input = context.getEvalTensor(node.inputs[0]!).dims;
  const { from, dims } = map;
  for (let j = 0; j < from.length; j++) dims[j] = from[j]! < 0 ? 1 : input[from[j]!]!;
  context.setActualShape(node.outputs[0]!, dims);
}

/** Op-data state that can follow input 0's actual dims: the output's dims at this invoke (null: static). */
export interface FollowsInputState {
  actualOutputDims: Int32Array | null;
}

/**
 * `reg` (whose prepare bounds output 0 from input 0's bound) made a consumer of a data-dependent input
 * 0: when that input's shape is data-dependent, prepare marks the state `stateOf` finds in the op data
 * (unless `refuse` gives a reason: `DataDependentShapeError`), and every invoke first recomputes it from
 * the input's actual dims with `replan`, sets output 0's actual dims and calls `sync` (for op data that
 * copied state fields), then runs the kernel's own invoke. `what` names the state in the error of a
 * kernel that has none. Allocates nothing in invoke.
 */
export function followsInput0<T, S extends FollowsInputState>(
  reg: Registration<T>,
  what: string,
  stateOf: (data: T) => S | null,
  replan: (state: S, dims: ArrayLike<number>) => void,
  hooks: { refuse?: (data: T) => string | null; sync?: (data: T, state: S) => void } = {},
): Registration<T> {
  const name = reg.name ?? 'reduction';
  const prepare = reg.prepare;
  const invoke = reg.invoke;
  const { refuse, sync } = hooks;
  return {
    ...reg,
    dynamicInputShapes: true,
    prepare(context: TfLiteContext, node: Node): void {
      if (prepare) prepare(context, node);
      if (!isDataDependent(context.getTensor(node.inputs[0]!))) return;
      const data = opData<T>(name, node);
      const reason = refuse?.(data) ?? null;
      if (reason !== null) refuseDataDependentInput(name, context, node, 0, reason);
      const state = stateOf(data);
      if (state === null) throw new KernelError(name, node.index, `has no ${what} to follow a data-dependent input with`);
      state.actualOutputDims = new Int32Array(context.getTensor(node.outputs[0]!).dims.length);
    },
    invoke(context: TfLiteContext, node: Node): void {
      const data = node.userData as T;
      const state = stateOf(data);
      if (state !== null && state.actualOutputDims !== null) {
        replan(state, context.getEvalTensor(node.inputs[0]!).dims);
        context.setActualShape(node.outputs[0]!, state.actualOutputDims);
        if (sync) sync(data, state);
      }
      invoke(context, node);
    },
  };
}
