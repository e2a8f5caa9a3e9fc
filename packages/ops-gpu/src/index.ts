/**
 * @micrort/ops-gpu — a GPU delegate built on gpu.js. It claims the float32 nodes it supports
 * (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, ADD, SUB, MUL, LOGISTIC, TANH, RELU, RELU6,
 * AVERAGE_POOL_2D, MAX_POOL_2D, SOFTMAX, RESHAPE, PAD, MEAN) and runs each delegated subset as a chain of
 * gpu.js kernels that keeps intermediates on the device, in whichever gpu.js mode the platform offers.
 */
export { PROVIDER } from './provider.js';
export { GPU_MODES, GpuModeError, availableModes, isDeviceMode, isModeSupported, resolveMode, type GpuMode } from './mode.js';
export { GpuDelegate, createGpuDelegate, type GpuDelegateOptions, type NodeDecision } from './gpu-delegate.js';
export { gpuPackage, type GpuContribution } from './kernel-package.js';
export { KernelCache, type CompiledKernel, type KernelCacheStats } from './kernel-cache.js';
export { SubsetChain, type ChainEnv, type ChainNode, type DeviceValue } from './subset-chain.js';
export { GPU_OP_KERNELS, gpuOpKernel, type GpuOpKernel, type KernelArg, type KernelPlan, type KernelSource } from './kernels/index.js';
export { FLOAT_CNN_INPUT_SHAPE, buildFloatCnn, lcgFloats } from './testing/float-cnn.js';
