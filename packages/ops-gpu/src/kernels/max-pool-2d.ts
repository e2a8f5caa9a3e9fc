/**
 * MAX_POOL_2D on the GPU (float32), reference_ops::MaxPool semantics: the largest of the window's taps
 * that lie inside the input (starting from the lowest float), clamped to the fused activation.
 */
import { BuiltinOperator } from '@micrort/core';
import type { GpuOpKernel, KernelThis } from './kernel-plan.js';
import { planPooling } from './pool-common.js';
import type { WindowGeometry } from './window-common.js';

interface PoolConstants extends WindowGeometry {
  actMin: number;
  actMax: number;
}

function maxPool2d(this: KernelThis<PoolConstants>, input: Float32Array): number {
  const c = this.thread.x % this.constants.outDepth;
  const r1 = Math.floor(this.thread.x / this.constants.outDepth);
  const ox = r1 % this.constants.outWidth;
  const r2 = Math.floor(r1 / this.constants.outWidth);
  const oy = r2 % this.constants.outHeight;
  const b = Math.floor(r2 / this.constants.outHeight);
  const y0 = oy * this.constants.strideH - this.constants.padH;
  const x0 = ox * this.constants.strideW - this.constants.padW;
  let best = -3.4028234663852886e38;
  for (let ky = 0; ky < this.constants.filterHeight; ky++) {
    const iy = y0 + ky;
    for (let kx = 0; kx < this.constants.filterWidth; kx++) {
      const ix = x0 + kx;
      if (iy >= 0 && iy < this.constants.inHeight && ix >= 0 && ix < this.constants.inWidth) {
        best = Math.max(best, input[((b * this.constants.inHeight + iy) * this.constants.inWidth + ix) * this.constants.inDepth + c]!);
      }
    }
  }
  return Math.min(Math.max(best, this.constants.actMin), this.constants.actMax);
}

/** MAX_POOL_2D: float32. */
export const maxPool2dKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.MAX_POOL_2D,
  name: 'MAX_POOL_2D',
  plan: (context, node) => planPooling('MAX_POOL_2D', maxPool2d, context, node),
};
