/**
 * The conformance suite: every model in ../shared/conformance, every case, through ops-reference (and the
 * signal ops) with the greedy planner; integer outputs byte-equal to TFLM's, float32 within
 * 1e-5 + 1e-4*|expected|, and every intermediate tensor of case 0 equal to TFLM's. The table printed at
 * the end puts micrort's arena figures beside TFLM's. (test-support's describeConformanceModels, the
 * helper every kernel package's whole-model suite uses.)
 */
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { referenceResolver } from '@micrort/test-support/conformance';
import { PROVIDER } from '../src/index.js';

describeConformanceModels({ label: 'ops-reference, greedy planner', provider: PROVIDER, resolver: referenceResolver });
