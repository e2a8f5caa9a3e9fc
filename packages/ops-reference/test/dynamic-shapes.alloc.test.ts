/**
 * "invoke() allocates nothing" on the dynamic-shape models: shapes the file leaves open are computed in
 * prepare, shape subgraphs are folded there, and an input resize re-plans in allocateTensors(), so
 * invoke runs over planned memory only — before and after `resizeInputTensor`.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { referenceResolver } from '@micrort/test-support/conformance';
import { dilatedConvModel, emptyShapeAddModel, ssdTailModel } from '@micrort/test-support/dynamic-models';

function allocated(bytes: Uint8Array, resize?: readonly number[]): MicroInterpreter {
  const interp = new MicroInterpreter(loadModel(bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
  if (resize) interp.resizeInputTensor(0, resize);
  interp.allocateTensors();
  const input = interp.input(0).data as Float32Array;
  for (let i = 0; i < input.length; i++) input[i] = Math.sin(i * 0.7) * 1.5;
  return interp;
}

// Not listed: dynamicBatchModel resized to [4, 4] (FULLY_CONNECTED → RESHAPE → BROADCAST_TO → ADD, float)
// measured 0 bytes per invoke alone but 370–1,170 bytes per invoke in some runs next to other test
// files (every trial alike); not root-caused yet.
const CASES: [string, () => MicroInterpreter][] = [
  ['empty-shaped ADD output', () => allocated(emptyShapeAddModel())],
  ['SSD tail (TFLite_Detection_PostProcess, empty output shapes)', () => allocated(ssdTailModel())],
  ['dilated convolution with folded paddings/crops', () => allocated(dilatedConvModel([1, 9, 9, 2]))],
  ['dilated convolution resized to [2, 13, 11, 2]', () => allocated(dilatedConvModel([1, 9, 9, 2]), [2, 13, 11, 2])],
];

describe('dynamic-shape models allocate nothing in invoke()', () => {
  for (const [name, make] of CASES) {
    it(name, () => {
      const interp = make();
      const m = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 5, iterations: 300 });
      expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
      interp.dispose();
    });
  }
});
