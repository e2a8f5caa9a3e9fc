/** SUB on the GPU (float32, broadcasting up to 4-D, fused activation); see binary-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { BinaryOp, binaryKernel } from './binary-common.js';

/** SUB: float32. */
export const subKernel = binaryKernel(BuiltinOperator.SUB, 'SUB', BinaryOp.Sub);
