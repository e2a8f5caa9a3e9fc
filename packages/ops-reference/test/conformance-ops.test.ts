/**
 * The per-operator conformance suite: every single-operator model in ../shared/conformance-ops, every
 * case, through ops-reference (+ ops-signal) with the greedy planner; integer (and bool) outputs
 * byte-equal to TFLM's, float32 within 1e-5 + 1e-4*|expected|. Prints a pass table per operator
 * (test-support's describeConformanceOps, the helper every kernel package runs the suite with).
 */
import { referenceResolver } from '@micrort/test-support/conformance';
import { describeConformanceOps, kernelHandling } from '@micrort/test-support/conformance-ops-suite';
import { PROVIDER } from '../src/index.js';

describeConformanceOps({ label: 'ops-reference', provider: PROVIDER, resolver: referenceResolver, handling: kernelHandling(PROVIDER) });
