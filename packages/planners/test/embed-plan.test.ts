/**
 * Embedded plans: the OfflineMemoryAllocation words written for a plan, the round trip through the model
 * writer and loader, and the interpreter reading them by default (as TFLM does) so that the offline
 * planner reproduces the embedded plan.
 */
import { describe, expect, it } from 'vitest';
import {
  MicroInterpreter,
  OFFLINE_MEMORY_ALLOCATION_METADATA,
  loadModel,
  readOfflineMemoryAllocation,
  writeModel,
  type BufferRequirement,
  type MemoryPlan,
  type MemoryPlanner,
  type ModelDef,
} from '@micrort/core';
import {
  InvalidRequirementError,
  OFFLINE_PLAN_FORMAT_VERSION,
  createPlanner,
  offlinePlanBytes,
  offlinePlanOffsets,
  withOfflinePlan,
} from '@micrort/planners';
import { SKIP_REASON, hasConformance, loadConformanceModel, referenceResolver, setCaseInputs } from '@micrort/test-support/conformance';

/** A ModelDef shell with the given tensor counts per subgraph (enough for the offset tables). */
function shell(tensorCounts: number[]): ModelDef {
  return {
    version: 3,
    description: 'shell',
    operatorCodes: [],
    subgraphs: tensorCounts.map((n, s) => ({
      name: `sg${s}`,
      tensors: Array.from({ length: n }, (_, i) => ({
        name: `t${i}`,
        type: 0,
        shape: Int32Array.of(4),
        buffer: 0,
        quantization: null,
        isVariable: false,
      })),
      inputs: new Int32Array(0),
      outputs: new Int32Array(0),
      operators: [],
    })),
    buffers: [{ data: new Uint8Array(0) }],
    metadata: [],
    signatureDefs: [],
  } as unknown as ModelDef;
}

const tensorReq = (id: number, size = 16): BufferRequirement => ({ kind: 'tensor', id, size, firstUsed: 0, lastUsed: 0 });
const scratchReq = (id: number): BufferRequirement => ({ kind: 'scratch', id, size: 32, firstUsed: 0, lastUsed: 0 });

describe('offline plan words', () => {
  it('one offset per tensor of every subgraph, -1 for unplanned tensors and other subgraphs', () => {
    const reqs = [tensorReq(2), scratchReq(0), tensorReq(0)];
    const plan: MemoryPlan = { offsets: Int32Array.of(48, 0, 16), headBytes: 64 };
    expect(Array.from(offlinePlanOffsets(shell([3, 2]), reqs, plan))).toEqual([16, -1, 48, -1, -1]);
    expect(Array.from(offlinePlanOffsets(shell([2, 3]), reqs.slice(0, 1), { offsets: Int32Array.of(32), headBytes: 48 }, 1))).toEqual([
      -1, -1, -1, -1, 32,
    ]);
  });

  it('writes [version, subgraphs, count, offsets] as little-endian int32', () => {
    const bytes = offlinePlanBytes(2, Int32Array.of(0, -1, 64));
    const view = new DataView(bytes.buffer);
    expect(bytes.byteLength).toBe(24);
    expect([0, 1, 2, 3, 4, 5].map((k) => view.getInt32(4 * k, true))).toEqual([OFFLINE_PLAN_FORMAT_VERSION, 2, 3, 0, -1, 64]);
    expect(bytes[16]).toBe(0xff); // -1, little-endian
  });

  it('rejects requirements that are not tensors of the subgraph, and plans of the wrong length', () => {
    expect(() => offlinePlanOffsets(shell([2]), [tensorReq(5)], { offsets: Int32Array.of(0), headBytes: 16 })).toThrow(
      InvalidRequirementError,
    );
    expect(() => offlinePlanOffsets(shell([2]), [tensorReq(0)], { offsets: new Int32Array(0), headBytes: 0 })).toThrow(/offset count/);
  });

  it('survives the writer and the loader, replacing an older plan', () => {
    const def = shell([3]);
    const once = withOfflinePlan(def, [tensorReq(1)], { offsets: Int32Array.of(32), headBytes: 48 });
    const twice = withOfflinePlan(once, [tensorReq(0)], { offsets: Int32Array.of(16), headBytes: 32 });
    expect(twice.metadata.filter((m) => m.name === OFFLINE_MEMORY_ALLOCATION_METADATA)).toHaveLength(1);
    expect(def.metadata).toHaveLength(0); // the input def is not modified
    const loaded = loadModel(writeModel(twice));
    expect(Array.from(readOfflineMemoryAllocation(loaded)!)).toEqual([16, -1, -1]);
  });
});

/** Records the requirements it is asked to plan, then plans like greedy. */
class Spy implements MemoryPlanner {
  readonly name = 'spy';
  seen: readonly BufferRequirement[] = [];
  plan(buffers: readonly BufferRequirement[], options: { alignment: number }): MemoryPlan {
    this.seen = buffers.map((b) => ({ ...b }));
    return createPlanner('greedy').plan(buffers, options);
  }
}

describe.skipIf(!hasConformance)('embedded plans on conformance models', () => {
  it.each(['person_detect', 'keyword_scrambled', 'micro_speech_lstm'])(
    '%s: the offline planner reproduces the embedded optimal plan and the outputs stay right',
    (name) => {
      const model = loadConformanceModel(name);
      const first = new MicroInterpreter(model, referenceResolver(), { planner: createPlanner('optimal') }).allocateTensors();
      const { requirements, plan } = first.memoryPlan();
      const embedded = loadModel(writeModel(withOfflinePlan(model, requirements, plan)));

      // Default: the interpreter hands the metadata to the planner, as TFLM does.
      const spy = new Spy();
      new MicroInterpreter(embedded, referenceResolver(), { planner: spy }).allocateTensors();
      const tensors = spy.seen.filter((r) => r.kind === 'tensor');
      expect(tensors.length).toBeGreaterThan(0);
      expect(tensors.every((r) => r.offlineOffset! >= 0)).toBe(true);
      expect(spy.seen.filter((r) => r.kind === 'scratch').every((r) => (r.offlineOffset ?? -1) < 0)).toBe(true);
      // offlineOffsets: null ignores it.
      const ignoring = new Spy();
      new MicroInterpreter(embedded, referenceResolver(), { planner: ignoring, offlineOffsets: null }).allocateTensors();
      expect(ignoring.seen.every((r) => (r.offlineOffset ?? -1) < 0)).toBe(true);

      const again = new MicroInterpreter(embedded, referenceResolver(), { planner: createPlanner('offline') }).allocateTensors();
      const replanned = again.memoryPlan();
      expect(replanned.plan.headBytes).toBe(plan.headBytes);
      // Tensors are bound at their planned offset in the arena buffer: every tensor sits where the plan put it.
      requirements.forEach((r, i) => {
        if (r.kind === 'tensor') expect(again.tensor(r.id).bytes.byteOffset).toBe(plan.offsets[i]);
      });

      setCaseInputs(first, name, 0);
      setCaseInputs(again, name, 0);
      first.invoke();
      again.invoke();
      for (let j = 0; j < first.outputsSize; j++) expect(Array.from(again.output(j).bytes)).toEqual(Array.from(first.output(j).bytes));
    },
  );
});

if (!hasConformance) {
  describe('embedded plans on conformance models', () => {
    it.skip(SKIP_REASON, () => {});
  });
}
