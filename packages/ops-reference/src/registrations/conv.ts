import type { Registration } from '@micrort/core';

/** Kernels of this group, in registration order. */
export const convKernels: Registration[] = [];
