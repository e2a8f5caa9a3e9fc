/** Every GPU op kernel, by builtin operator code. */
import type { GpuOpKernel } from './kernel-plan.js';
import { addKernel } from './add.js';
import { averagePool2dKernel } from './average-pool-2d.js';
import { conv2dKernel } from './conv-2d.js';
import { depthwiseConv2dKernel } from './depthwise-conv-2d.js';
import { fullyConnectedKernel } from './fully-connected.js';
import { logisticKernel } from './logistic.js';
import { maxPool2dKernel } from './max-pool-2d.js';
import { meanKernel } from './mean.js';
import { mulKernel } from './mul.js';
import { padKernel } from './pad.js';
import { reluKernel } from './relu.js';
import { relu6Kernel } from './relu6.js';
import { reshapeKernel } from './reshape.js';
import { softmaxKernel } from './softmax.js';
import { subKernel } from './sub.js';
import { tanhKernel } from './tanh.js';

export type { GpuOpKernel, KernelArg, KernelPlan, KernelSource } from './kernel-plan.js';

/** The ops the GPU delegate can claim. */
export const GPU_OP_KERNELS: readonly GpuOpKernel[] = [
  fullyConnectedKernel,
  conv2dKernel,
  depthwiseConv2dKernel,
  addKernel,
  subKernel,
  mulKernel,
  logisticKernel,
  tanhKernel,
  reluKernel,
  relu6Kernel,
  averagePool2dKernel,
  maxPool2dKernel,
  softmaxKernel,
  reshapeKernel,
  padKernel,
  meanKernel,
];

const BY_CODE = new Map(GPU_OP_KERNELS.map((k) => [k.builtinCode, k]));

/** The GPU kernel for a builtin code, or undefined. */
export function gpuOpKernel(builtinCode: number): GpuOpKernel | undefined {
  return BY_CODE.get(builtinCode);
}
