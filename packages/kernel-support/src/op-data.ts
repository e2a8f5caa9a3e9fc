/**
 * TFLM's op-data idiom, the one every micrort kernel follows:
 *
 * - **init allocates**: `init(context)` returns the node's op data — a plain object whose fields have
 *   their final types from the start (zeros, empty typed arrays), plus, where TFLM's kernel keeps an
 *   `OpData` struct in the arena, that struct's bytes from `allocateOpData(context, bytes)`
 *   (TFLM's `context->AllocatePersistentBuffer(context, sizeof(OpData))` in Init), so arena figures stay
 *   TFLM's. The interpreter stores what init returns in `node.userData`.
 * - **prepare fills**: `const data = opData<MyOpData>(OP, node)` then validates and writes the fields
 *   (arrays whose size depends on shapes — per-channel multipliers, lookup tables — are allocated here
 *   with `allocatePersistentBuffer`, as TFLM's Prepare does). A kernel whose op data prepare computes
 *   entirely has `init: newOpData` and ends its prepare with `fillOpData(OP, node, { ...fields })`.
 * - **invoke reads**: `opData<MyOpData>(OP, node)` again; invoke allocates nothing and checks nothing.
 *
 * ```ts
 * interface MulOpData { params: Int32Array; plan: BroadcastPlan | null }
 * export const MUL: Registration<MulOpData> = {
 *   builtinCode: BuiltinOperator.MUL,
 *   init: (context) => ({ params: allocateOpData(context, 36).i32, plan: null }),
 *   prepare(context, node) { const data = opData<MulOpData>('MUL', node); data.plan = ...; },
 *   invoke(context, node) { const data = opData<MulOpData>('MUL', node); ... },
 * };
 * ```
 */
import { KernelError, type ArenaRegion, type Node, type TfLiteContext } from '@micrort/core';

/**
 * The op data `init` returned for `node` (its `userData`). Throws a `KernelError` naming the op and the
 * node when there is none — the kernel has no `init`, or prepare/invoke ran on a node whose init did not.
 * The type parameter is the kernel's own op-data interface; nothing is checked beyond presence.
 */
export function opData<T>(op: string, node: Node): T {
  const data = node.userData;
  if (data === undefined || data === null)
    throw new KernelError(
      op,
      node.index,
      'op data missing: init() did not run for this node (init allocates, prepare fills, invoke reads)',
    );
  return data as T;
}

/**
 * The init of a kernel whose op data prepare computes entirely and TFLM keeps nowhere in the arena: an
 * empty holder (TFLM's Init allocating an OpData it does not initialize) that prepare fills with
 * `fillOpData`. The interpreter keeps this one object for the node's life.
 */
export function newOpData(): object {
  return {};
}

/**
 * Prepare's fill: copies `values` (every field of the kernel's op data, in one order) into the op data
 * `init` returned and returns that object — the one invoke reads with `opData`. Fields `init` set (an
 * arena block) are kept unless `values` names them.
 */
export function fillOpData<T extends object>(op: string, node: Node, values: T): T {
  return Object.assign(opData<object>(op, node), values) as T;
}

/**
 * TFLM's `AllocatePersistentBuffer(context, sizeof(OpData))` in a kernel's init: a persistent arena
 * region of `bytes` (the size of the TFLM struct on the build the conformance figures come from), whose
 * `i32` / `f32` / `u8` views the kernel keeps as fields of its op data. Its contents are TFLM's fields in
 * TFLM's order, written by prepare.
 */
export function allocateOpData(context: TfLiteContext, bytes: number): ArenaRegion {
  return context.allocatePersistentBuffer(bytes);
}

/** A little-endian DataView over `allocateOpData(context, bytes)`, for structs with mixed field types. */
export function allocateOpDataView(context: TfLiteContext, bytes: number): DataView {
  const r = context.allocatePersistentBuffer(bytes);
  return new DataView(r.buffer, r.offset, bytes);
}
