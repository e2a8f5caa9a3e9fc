/**
 * A custom op's options: the FlexBuffers map TFLite's converter writes into `custom_options`, read with
 * core's bounds-checked `parseFlexMap`. A missing map, a malformed one, a missing key or a value of
 * another type is a `KernelError` naming the node.
 */
import { FlexBufferError, KernelError, parseFlexMap, type FlexMap, type Node } from '@micrort/core';

/** The node's FlexBuffers options; missing or malformed options are a KernelError. */
export function readFlexOptions(op: string, node: Node): FlexMap {
  const bytes = node.customInitialData;
  if (!bytes || bytes.byteLength === 0) throw new KernelError(op, node.index, 'custom options (a FlexBuffers map) are missing');
  return flexOption(op, node, () => parseFlexMap(bytes));
}

/** Runs one FlexMap read, turning a FlexBufferError (missing key, wrong type) into a KernelError for the node. */
export function flexOption<T>(op: string, node: Node, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof FlexBufferError) throw new KernelError(op, node.index, `custom options: ${e.message}`);
    throw e;
  }
}
