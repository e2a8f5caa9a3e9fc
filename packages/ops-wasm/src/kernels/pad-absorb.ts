/**
 * PAD absorption for the convolution kernels (core's `context.absorbPad`): a CONV_2D or
 * DEPTHWISE_CONV_2D with VALID padding whose input is a PAD of height and width (PyTorch exports,
 * Keras' ZeroPadding2D) reads the PAD's source directly, the PAD's top and left becoming the window's
 * leading padding. The kernels' WebAssembly treats every tap outside the input as the zero row (the
 * input zero point, 0.0 for float32) by bounds alone, so trailing padding needs no parameter: the output
 * size, computed from the padded tensor, implies it. The PAD's copy is not made and its padded tensor is
 * never planned (less arena, one pass over the activations less); the output bytes are the same.
 */
import { Padding, type Node, type Tensor, type TfLiteContext } from '@micrort/core';

/** A window kernel's input height and width and its leading padding. */
export interface WindowGeometry {
  inH: number;
  inW: number;
  padH: number;
  padW: number;
}

/** The window geometry over `input` (NHWC) with the leading padding `pad` (expectWindowOutput's height / width). */
export function inputWindow(input: Tensor, pad: { height: number; width: number }): WindowGeometry {
  return { inH: input.dims[1]!, inW: input.dims[2]!, padH: pad.height, padW: pad.width };
}

/**
 * For a node with VALID `padding`: absorbs the PAD before input 0 when core allows it (see
 * `TfLiteContext.absorbPad`). Call it once the kernel serves the node and its output shape and `pad`
 * were computed from the padded `input`, before input 0 is read again (its constant copy, its zero
 * point). Returns the geometry over the PAD's source — its height and width, the PAD's top and left —
 * or {@link inputWindow} of `input` when nothing was absorbed.
 */
export function absorbInputPad(
  context: TfLiteContext,
  node: Node,
  padding: Padding,
  input: Tensor,
  pad: { height: number; width: number },
): WindowGeometry {
  const g = inputWindow(input, pad);
  if (padding !== Padding.VALID || g.padH !== 0 || g.padW !== 0) return g;
  const absorbed = context.absorbPad(node, 0);
  if (!absorbed) return g;
  const source = context.getTensor(absorbed.source);
  return { inH: source.dims[1]!, inW: source.dims[2]!, padH: absorbed.top, padW: absorbed.left };
}
