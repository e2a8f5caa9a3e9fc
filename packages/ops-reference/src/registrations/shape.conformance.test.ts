/**
 * Whole-model conformance of the models that use this group's kernels (AVERAGE_POOL_2D in person_detect;
 * MEAN, PAD and TRANSPOSE in mobilenet_v2; STRIDED_SLICE and CONCATENATION in audio_preprocessor_int8),
 * through the real interpreter with ops-reference: no intermediate of case 0 may differ from TFLM's.
 * A model that ops-reference cannot serve yet (a kernel of another group is missing) is skipped, naming
 * the missing ops; shape.nodes.conformance.test.ts checks this group's nodes on their own meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { UnsupportedOpError } from '@micrort/core';
import { SKIP_REASON, firstDifferingIntermediate, hasConformance } from '@micrort/test-support/conformance';

describe.skipIf(!hasConformance)(
  `whole-model conformance of the models using shape kernels${hasConformance ? '' : ` (${SKIP_REASON})`}`,
  () => {
    for (const model of ['person_detect', 'mobilenet_v2_quantized_1x3x224x224', 'audio_preprocessor_int8']) {
      it(`${model}: no intermediate of case 0 differs from TFLM`, (ctx) => {
        let first: ReturnType<typeof firstDifferingIntermediate>;
        try {
          first = firstDifferingIntermediate(model);
        } catch (e) {
          if (e instanceof UnsupportedOpError) {
            ctx.skip(`ops-reference cannot serve ${model} yet: ${e.message}`);
            return;
          }
          throw e;
        }
        expect(first).toBeNull();
      });
    }
  },
);
