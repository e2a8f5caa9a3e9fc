/** MUL on the GPU (float32, broadcasting up to 4-D, fused activation); see binary-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { BinaryOp, binaryKernel } from './binary-common.js';

/** MUL: float32. */
export const mulKernel = binaryKernel(BuiltinOperator.MUL, 'MUL', BinaryOp.Mul);
