/**
 * The kernel table's coverage: every operator of the conformance models has an entry (so no figure of
 * theirs is a lower bound), every entry is an op TFLM has a kernel for, and each names the TFLM source it
 * follows.
 */
import { describe, expect, it } from 'vitest';
import { hasConformance, hasConformanceOps, listModels, loadConformanceModel, type Suite } from '@micrort/test-support/conformance';
import { TFLM_BUILTIN_METHODS, TFLM_CUSTOM_METHODS } from '../resolver-header.js';
import { KERNELS, kernelModel } from './kernels.js';
import { nodeView } from './node-view.js';

describe('kernel table', () => {
  it('has only ops TFLM registers, each with its TFLM source file', () => {
    for (const [op, k] of Object.entries(KERNELS)) {
      const method = op.startsWith('CUSTOM:') ? TFLM_CUSTOM_METHODS[op.slice('CUSTOM:'.length)] : TFLM_BUILTIN_METHODS[op];
      expect(method, `${op} has no MicroMutableOpResolver method`).toBeDefined();
      expect(k.source, op).toMatch(/^(tensorflow\/lite\/micro\/kernels\/|signal\/micro\/kernels\/)/);
    }
  });

  const suites: Suite[] = [...(hasConformance ? (['models'] as const) : []), ...(hasConformanceOps ? (['ops'] as const) : [])];
  it.skipIf(suites.length === 0)('covers every op of the conformance models', () => {
    const missing = new Map<string, string>();
    for (const suite of suites)
      for (const name of listModels(suite)) {
        const model = loadConformanceModel(name, suite);
        model.subgraphs.forEach((sg, s) =>
          sg.operators.forEach((_, i) => {
            const op = nodeView(model, s, i).op;
            if (!kernelModel(op)) missing.set(op, name);
          }),
        );
      }
    expect([...missing].map(([op, model]) => `${op} (${model})`)).toEqual([]);
  });
});
