/**
 * Kernels of the builtins current LiteRT's BuiltinOpResolver registers beyond TFLite's: the StableHLO
 * operators it runs (tflite/core/kernels/register.cc of google-ai-edge/LiteRT).
 */
import type { Registration } from '@micrort/core';
import { STABLEHLO_COMPOSITE } from '../kernels/stablehlo-composite.js';

/** Kernels of this group, in registration order. */
export const litertKernels: Registration[] = [STABLEHLO_COMPOSITE as Registration];
