/**
 * What the ops-simd kernels' `supports()` answer: `true`, or a short reason the resolver shows (in
 * `micrort check` and the conformance tables) when it hands the node to the next provider.
 */
import { TensorType, tensorTypeName, type Node, type TfLiteContext } from '@micrort/core';

/** `null` when the node has `inputs` (a count or [min, max]) and `outputs` tensors, else the reason. */
export function arityReason(node: Node, inputs: number | readonly [number, number], outputs: number): string | null {
  const [lo, hi] = typeof inputs === 'number' ? [inputs, inputs] : inputs;
  if (node.inputs.length >= lo && node.inputs.length <= hi && node.outputs.length === outputs) return null;
  const want = lo === hi ? `${lo}` : `${lo}-${hi}`;
  return `${node.inputs.length} inputs, ${node.outputs.length} outputs (handles ${want} inputs, ${outputs} output${outputs === 1 ? '' : 's'})`;
}

/**
 * `null` when every listed tensor is int8 (an output may also be one of `outputAlso`), else a reason
 * naming the types, e.g. `"float32 input, float32 output (handles int8)"`.
 */
export function int8Reason(
  context: TfLiteContext,
  node: Node,
  inputs: readonly number[],
  outputAlso: readonly TensorType[] = [],
): string | null {
  const inTypes = inputs.map((i) => context.getTensor(node.inputs[i]!).type);
  const outType = context.getTensor(node.outputs[0]!).type;
  if (inTypes.every((t) => t === TensorType.INT8) && (outType === TensorType.INT8 || outputAlso.includes(outType))) return null;
  const names = inTypes.map(tensorTypeName);
  const input = names.every((n) => n === names[0]) ? `${names[0]} input${names.length > 1 ? 's' : ''}` : `${names.join(', ')} inputs`;
  const accepted = ['int8', ...outputAlso.map(tensorTypeName)].join('/');
  return `${input}, ${tensorTypeName(outType)} output (handles int8 inputs, ${accepted} output)`;
}
