/**
 * Kernels of the builtins current LiteRT's BuiltinOpResolver registers beyond TFLite's
 * (tflite/core/kernels/register.cc of google-ai-edge/LiteRT): the StableHLO operators it runs, DILATE and
 * the deprecated REDUCE_WINDOW.
 */
import type { Registration } from '@micrort/core';
import { DILATE } from '../kernels/dilate.js';
import { REDUCE_WINDOW } from '../kernels/reduce-window.js';
import { STABLEHLO_ADD } from '../kernels/stablehlo-add.js';
import { STABLEHLO_AND } from '../kernels/stablehlo-and.js';
import { STABLEHLO_CASE } from '../kernels/stablehlo-case.js';
import { STABLEHLO_COMPOSITE } from '../kernels/stablehlo-composite.js';
import { STABLEHLO_GATHER } from '../kernels/stablehlo-gather.js';
import { STABLEHLO_MAXIMUM } from '../kernels/stablehlo-maximum.js';
import { STABLEHLO_MINIMUM } from '../kernels/stablehlo-minimum.js';
import { STABLEHLO_MULTIPLY } from '../kernels/stablehlo-multiply.js';
import { STABLEHLO_PAD } from '../kernels/stablehlo-pad.js';
import { STABLEHLO_REDUCE_WINDOW } from '../kernels/stablehlo-reduce-window.js';
import { STABLEHLO_SCATTER } from '../kernels/stablehlo-scatter.js';
import { STABLEHLO_SHIFT_LEFT } from '../kernels/stablehlo-shift-left.js';

/** Kernels of this group, in register.cc's order. */
export const litertKernels: Registration[] = [
  STABLEHLO_SCATTER,
  DILATE,
  REDUCE_WINDOW,
  STABLEHLO_REDUCE_WINDOW,
  STABLEHLO_GATHER,
  STABLEHLO_ADD,
  STABLEHLO_AND,
  STABLEHLO_MULTIPLY,
  STABLEHLO_MAXIMUM,
  STABLEHLO_MINIMUM,
  STABLEHLO_SHIFT_LEFT,
  STABLEHLO_PAD,
  STABLEHLO_COMPOSITE,
  STABLEHLO_CASE,
] as Registration[];
