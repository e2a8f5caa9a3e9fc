/**
 * The float conformance models through the GPU delegate, in every gpu.js mode the machine offers:
 * hello_world_float (three FULLY_CONNECTED: one partition) and trained_lstm (the LSTM stays on the CPU,
 * so the graph partitions). Outputs must match TFLM's within 1e-5 + 1e-4*|expected| (the conformance
 * tolerance, test-support's describeConformanceModels) and ops-reference within the delegate's stated
 * tolerance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { SKIP_REASON, hasConformance, loadConformanceModel, readManifest, setCaseInputs } from '@micrort/test-support/conformance';
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { GpuDelegate } from '../src/gpu-delegate.js';
import { PROVIDER } from '../src/provider.js';
import { MODES, announceModes, expectClose } from '../src/__tests__/helpers.js';

const MODELS = ['hello_world_float', 'trained_lstm'] as const;

function run(name: string, caseIndex: number, delegate: GpuDelegate | null): MicroInterpreter {
  const it = new MicroInterpreter(loadConformanceModel(name), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    ...(delegate ? { delegates: [delegate] } : {}),
  }).allocateTensors();
  setCaseInputs(it, name, caseIndex);
  it.invoke();
  return it;
}

if (!hasConformance) console.log(SKIP_REASON);

describe.skipIf(!hasConformance).each(MODES)('float conformance models through the GPU delegate, gpu.js mode %s', (mode) => {
  let delegate: GpuDelegate;
  beforeAll(() => {
    announceModes('ops-gpu conformance');
    delegate = new GpuDelegate({ mode });
  });
  afterAll(() => delegate.destroy());

  describeConformanceModels({
    label: `ops-gpu delegate, gpu.js ${mode}`,
    provider: PROVIDER,
    resolver: () => registerReferenceOps(new OpResolver()),
    delegates: () => [delegate],
    models: MODELS,
    requireServed: true,
    // original nodes the delegate runs
    served: (i) => i.nodes().reduce((n, node) => n + (node.delegate?.nodes.length ?? 0), 0),
    intermediates: () => 'the delegate keeps the tensors inside a partition on the GPU',
  });

  for (const name of MODELS) {
    it(`${name}: every case equals ops-reference within the delegate's tolerance`, () => {
      readManifest(name).cases.forEach((_, k) => {
        const it = run(name, k, delegate);
        const ref = run(name, k, null);
        const outs = (i: MicroInterpreter) => Array.from({ length: i.outputsSize }, (_, j) => i.output(j).data as Float32Array);
        expectClose(outs(it), outs(ref), `${name} case ${k} vs ops-reference (${mode})`);
        it.dispose();
        ref.dispose();
      });
    });
  }

  it('hello_world_float is one GPU partition; trained_lstm keeps its LSTM on the CPU', () => {
    const hello = run('hello_world_float', 0, delegate);
    expect(hello.partitions().map((p) => p.nodes)).toEqual([[0, 1, 2]]);
    hello.dispose();
    const lstm = run('trained_lstm', 0, delegate);
    const model = loadConformanceModel('trained_lstm');
    const ops = model.subgraphs[0]!.operators.map((op) => model.operatorCodes[op.opcodeIndex]!.builtinCode);
    const lstmNode = lstm.nodes().find((n) => n.op === 'UNIDIRECTIONAL_SEQUENCE_LSTM')!;
    expect(lstmNode.provider).toBe('@micrort/ops-reference');
    const delegated = lstm.partitions().flatMap((p) => p.nodes);
    expect(delegated.length).toBe(ops.length - 1);
    expect(lstm.nodes().length).toBeGreaterThanOrEqual(2);
    console.log(
      `trained_lstm (${mode}): plan ${lstm
        .nodes()
        .map((n) => (n.delegate ? `GPU[${n.delegate.nodes.join(',')}]` : n.op))
        .join(' → ')}`,
    );
    lstm.dispose();
  });
});
