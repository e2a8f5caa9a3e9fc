// Run MediaPipe's custom ops (@micrort/ops-mediapipe) next to the reference kernels in a model made by the
// model writer: a decoder step as at the end of MediaPipe's selfie segmentation — a transposed convolution
// with bias doubles the resolution, LOGISTIC turns logits into a mask — then pooling with argmax.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { poolOptions, registerMediapipeOps, transposeConvBiasOptions } from '@micrort/ops-mediapipe';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';

export function main(): { logits: number[]; mask: number[]; argmax: number[]; kernels: string[] } {
  const F = TensorType.FLOAT32;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'features', type: F, shape: [1, 2, 2, 1] });
  const w = b.addTensor({ name: 'segment/Kernel', type: F, shape: [1, 2, 2, 1], data: Float32Array.of(1, -1, 2, 0) });
  const bias = b.addTensor({ name: 'segment/Bias', type: F, shape: [1], data: Float32Array.of(0.5) });
  const logits = b.addTensor({ name: 'segment', type: F, shape: [1, 4, 4, 1] });
  const mask = b.addTensor({ name: 'mask', type: F, shape: [1, 4, 4, 1] });
  const pooled = b.addTensor({ name: 'pooled', type: F, shape: [1, 2, 2, 1] });
  const argmax = b.addTensor({ name: 'argmax', type: F, shape: [1, 2, 2, 1] });
  b.addOperator({
    op: { custom: 'Convolution2DTransposeBias' },
    inputs: [x, w, bias],
    outputs: [logits],
    customOptions: transposeConvBiasOptions('SAME', 2, 2),
  });
  b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [logits], outputs: [mask] });
  b.addOperator({
    op: { custom: 'MaxPoolingWithArgmax2D' },
    inputs: [mask],
    outputs: [pooled, argmax],
    customOptions: poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 }),
  });
  const model = loadModel(b.setInputs([x]).setOutputs([logits, mask, argmax]).build());

  const resolver = registerMediapipeOps(registerReferenceOps(new OpResolver()));
  const it = new MicroInterpreter(model, resolver, { planner: new GreedyPlanner() }).allocateTensors();
  it.setInput(0, Float32Array.of(1, 2, -1, 0));
  it.invoke();
  return {
    logits: Array.from(it.output(0).data as Float32Array),
    mask: Array.from(it.output(1).data as Float32Array),
    argmax: Array.from(it.output(2).data as Float32Array, Math.trunc), // y * 2 + x inside each 2x2 window
    kernels: it.nodes().map((n) => `${n.kernel} (${n.provider})`),
  };
}
