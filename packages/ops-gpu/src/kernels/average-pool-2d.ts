/**
 * AVERAGE_POOL_2D on the GPU (float32), reference_ops::AveragePool semantics: the mean of the window's
 * taps that lie inside the input (the count excludes padding), clamped to the fused activation.
 */
import { BuiltinOperator } from '@micrort/core';
import type { GpuOpKernel, KernelThis } from './kernel-plan.js';
import { planPooling } from './pool-common.js';
import type { WindowGeometry } from './window-common.js';

interface PoolConstants extends WindowGeometry {
  actMin: number;
  actMax: number;
}

function averagePool2d(this: KernelThis<PoolConstants>, input: Float32Array): number {
  const c = this.thread.x % this.constants.outDepth;
  const r1 = Math.floor(this.thread.x / this.constants.outDepth);
  const ox = r1 % this.constants.outWidth;
  const r2 = Math.floor(r1 / this.constants.outWidth);
  const oy = r2 % this.constants.outHeight;
  const b = Math.floor(r2 / this.constants.outHeight);
  const y0 = oy * this.constants.strideH - this.constants.padH;
  const x0 = ox * this.constants.strideW - this.constants.padW;
  let sum = 0;
  let count = 0;
  for (let ky = 0; ky < this.constants.filterHeight; ky++) {
    const iy = y0 + ky;
    for (let kx = 0; kx < this.constants.filterWidth; kx++) {
      const ix = x0 + kx;
      if (iy >= 0 && iy < this.constants.inHeight && ix >= 0 && ix < this.constants.inWidth) {
        sum += input[((b * this.constants.inHeight + iy) * this.constants.inWidth + ix) * this.constants.inDepth + c]!;
        count += 1;
      }
    }
  }
  return Math.min(Math.max(sum / count, this.constants.actMin), this.constants.actMax);
}

/** AVERAGE_POOL_2D: float32. */
export const averagePool2dKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.AVERAGE_POOL_2D,
  name: 'AVERAGE_POOL_2D',
  plan: (context, node) => planPooling('AVERAGE_POOL_2D', averagePool2d, context, node),
};
