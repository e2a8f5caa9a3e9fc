import { ArenaLimitError, MicrortError, ModelError, UnboundedStringError } from '../errors.js';
import { ArenaRegion } from '../kernel/arena-region.js';
import { AllocationType, Tensor } from '../kernel/tensor.js';
import type { ModelDef, SubgraphDef } from '../model/model-def.js';
import type { BufferRequirement, MemoryPlan, MemoryPlanner } from '../planner/memory-planner.js';
import { validatePlan } from '../planner/validate-plan.js';
import { ARENA_ALIGNMENT, TensorType, alignUp, dataByteLength, elementSize, tensorTypeName } from '../types.js';
import { stringHeaderBytes, validateStringBuffer } from '../kernel/strings.js';
import { applyInPlace, applyOverwrites, type GrantedOverwrite, type InPlaceCandidates, type InPlacePair } from './in-place.js';
import { computeLifetimes, findReadBeforeWrite, type PlanStep } from './lifetimes.js';
import { SingleArenaBufferAllocator } from './single-arena-buffer-allocator.js';
import type { ModelLifetimes } from '../graph/allocation-info.js';

/**
 * Default bytes of strings a STRING graph input may hold (its header comes on top): the interpreter
 * option `stringInputBytes`.
 */
export const DEFAULT_STRING_INPUT_BYTES = 4096;

/** A scratch-buffer request made by a kernel in prepare. */
export interface ScratchRequest {
  bytes: number;
  /** Execution-plan step of the requesting node (in its subgraph's plan). */
  step: number;
  /** Node index of the requesting node. */
  nodeIndex: number;
  /** Subgraph of the requesting node. */
  subgraph: number;
  /** Bound after memory planning. */
  region: ArenaRegion | null;
}

/** The plan of one subgraph, as `finishModelAllocation` needs it. */
export interface SubgraphPlanSteps {
  /** Execution-plan steps (for the entry subgraph: after delegate partitioning). */
  steps: readonly PlanStep[];
  /** Offline offsets of its tensors (-1: online), or null. */
  offlineOffsets: Int32Array | null;
}

/** The memory plan the allocator committed. */
export interface CommittedPlan {
  plannerName: string;
  requirements: BufferRequirement[];
  plan: MemoryPlan;
  planMs: number;
  /** Outputs planned in place of a dying input (empty unless the interpreter's `inPlace` is on). */
  inPlacePairs: InPlacePair[];
}

/**
 * TFLM's MicroAllocator for a whole model: creates the tensors of every subgraph (constants as
 * zero-copy views into the model, variables in the arena tail), hands out persistent buffers and
 * scratch requests during init/prepare, and at FinishModelAllocation asks a MemoryPlanner to place
 * every planned tensor of every subgraph and every scratch buffer in the one arena head — over the
 * model's timeline (graph/allocation-info.ts) — then binds their views.
 */
export class MicroAllocator {
  readonly arena: SingleArenaBufferAllocator;
  /** The entry subgraph (the one the interpreter runs). */
  readonly subgraph: SubgraphDef;
  /** Tensors of every subgraph, by subgraph index. */
  readonly subgraphTensors: Tensor[][];
  readonly scratch: ScratchRequest[] = [];
  /** Bytes handed out by allocatePersistentBuffer (kernel op data), aligned. */
  persistentBufferBytes = 0;
  /** Bytes of variable tensors in the tail, aligned. */
  variableBufferBytes = 0;
  /** Persistent bytes per node, keyed `subgraph:node`. */
  readonly persistentByNode = new Map<string, number>();
  committed: CommittedPlan | null = null;

  constructor(
    readonly model: ModelDef,
    /** The entry subgraph. */
    readonly subgraphIndex: number,
    arena: SingleArenaBufferAllocator,
  ) {
    const sg = model.subgraphs[subgraphIndex];
    if (!sg)
      throw new ModelError(`subgraph ${subgraphIndex} does not exist (model has ${model.subgraphs.length})`, {
        table: 'Model',
        field: 'subgraphs',
        index: subgraphIndex,
      });
    this.subgraph = sg;
    this.arena = arena;
    this.subgraphTensors = model.subgraphs.map(() => []);
  }

  /** Tensors of the entry subgraph. */
  get tensors(): Tensor[] {
    return this.subgraphTensors[this.subgraphIndex]!;
  }

  /**
   * StartModelAllocation: tensor objects of every subgraph, constant views, variable tensors in the
   * tail. String graph inputs of the entry subgraph get `stringInputBytes` of strings (plus their
   * header) as their capacity.
   */
  startModelAllocation(stringInputBytes: number = DEFAULT_STRING_INPUT_BYTES): void {
    this.model.subgraphs.forEach((_, s) => this.createTensors(s));
    for (const i of this.subgraph.inputs) {
      const t = this.tensors[i];
      if (t && t.type === TensorType.STRING && t.allocationType === AllocationType.None)
        t.setStringCapacity(stringHeaderBytes(t.elementCount) + stringInputBytes);
    }
    // A tensor the head must hold whole can never fit an arena under the limit: fail before any kernel
    // prepares (kernels size their op data from these shapes) and before anything is allocated.
    const limit = Math.max(this.arena.limitBytes, this.arena.size);
    for (const tensors of this.subgraphTensors) {
      for (const t of tensors) {
        if (t.allocationType !== AllocationType.None || t.isVariable || dataByteLength(t.type, 0) === undefined) continue;
        const bytes = alignUp(t.byteLength);
        if (bytes > limit) throw new ArenaLimitError(`tensor ${t.index} (${t.name})`, bytes, bytes, limit);
      }
    }
    // Variable tensors, subgraph by subgraph in tensor order, persistent in the tail (TFLM AllocateVariables).
    for (const tensors of this.subgraphTensors) {
      for (const t of tensors) {
        if (!t.isVariable) continue;
        const es = elementSize(t.type);
        if (es === undefined)
          throw new ModelError(
            `variable tensor ${t.index} (${t.name}) has type ${tensorTypeName(t.type)}, which has no fixed element size`,
            { table: 'Tensor', index: t.index },
          );
        const bytes = t.byteLength;
        const region = this.arena.allocatePersistent(bytes, `variable tensor ${t.index} (${t.name})`);
        this.variableBufferBytes += alignUp(bytes);
        t.bind(region.buffer, region.offset, AllocationType.ArenaRwPersistent);
      }
    }
  }

  private createTensors(subgraphIndex: number): void {
    const { model } = this;
    const subgraph = model.subgraphs[subgraphIndex]!;
    const tensors = this.subgraphTensors[subgraphIndex]!;
    subgraph.tensors.forEach((def, i) => {
      const quant =
        def.quantization && def.quantization.scale.length > 0
          ? {
              scale: def.quantization.scale,
              zeroPoint: def.quantization.zeroPoint,
              quantizedDimension: def.quantization.quantizedDimension,
            }
          : null;
      const details = def.quantization?.details ?? null;
      const t = new Tensor(i, def.name, def.type, Int32Array.from(def.shape), quant, def.isVariable, def.sparsity ?? null, details);
      tensors.push(t);
      const buf = model.buffers[def.buffer];
      const hasData = !!buf && buf.data.byteLength > 0;
      if (hasData && !def.isVariable) {
        if (def.type === TensorType.STRING) {
          const problem = validateStringBuffer(buf.data, t.elementCount);
          if (problem)
            throw new ModelError(`constant string tensor ${i} (${def.name}) is not a serialized string buffer: ${problem}`, {
              table: 'Tensor',
              field: 'buffer',
              index: i,
              path: `subgraphs[${subgraphIndex}].tensors[${i}]`,
            });
          t.setStringCapacity(buf.data.byteLength);
          t.bind(buf.data.buffer, buf.data.byteOffset, AllocationType.MmapRo);
          return;
        }
        if (def.type === TensorType.INT4 && !def.sparsity && buf.data.byteLength === t.elementCount && t.elementCount > 1) {
          // An int4 constant written one value per byte (the verifier accepts both): packed here, so
          // kernels see TFLite's packed layout only (two per byte, low nibble first).
          const packed = new Uint8Array(alignUp(t.byteLength));
          for (let k = 0; k < t.elementCount; k++) packed[k >> 1]! |= (buf.data[k]! & 0xf) << ((k & 1) * 4);
          t.bind(packed.buffer, 0, AllocationType.MmapRo);
          return;
        }
        const es = def.type === TensorType.INT4 ? 1 : elementSize(def.type);
        if (es === undefined) return; // a VARIANT constant: no kernel reads it
        // A sparse constant holds only its stored values (the verifier checked their count).
        const elements = def.sparsity ? Math.floor(buf.data.byteLength / es) : t.elementCount;
        if (!def.sparsity && buf.data.byteLength !== t.byteLength)
          throw new ModelError(
            `constant tensor ${i} (${def.name}) has ${buf.data.byteLength} bytes of data, its shape and type need ${t.byteLength}`,
            {
              table: 'Tensor',
              field: 'buffer',
              index: i,
              path: `subgraphs[${subgraphIndex}].tensors[${i}]`,
            },
          );
        const data = buf.data;
        if (data.byteOffset % es === 0) {
          t.bind(data.buffer, data.byteOffset, AllocationType.MmapRo, elements);
        } else {
          const copy = new Uint8Array(alignUp(data.byteLength));
          copy.set(data);
          t.bind(copy.buffer, 0, AllocationType.MmapRo, elements);
        }
      }
    });
  }

  /** A persistent buffer for a kernel or the framework (`node`: `[subgraph, index]` of the asking node). */
  allocatePersistentBuffer(bytes: number, what: string, node?: readonly [number, number]): ArenaRegion {
    if (!Number.isInteger(bytes) || bytes < 0)
      throw new MicrortError(`allocatePersistentBuffer: bytes must be a non-negative integer, got ${bytes} (${what})`);
    const region = this.arena.allocatePersistent(bytes, what);
    const aligned = alignUp(bytes);
    this.persistentBufferBytes += aligned;
    if (node !== undefined) {
      const key = `${node[0]}:${node[1]}`;
      this.persistentByNode.set(key, (this.persistentByNode.get(key) ?? 0) + aligned);
    }
    return region;
  }

  /** Persistent bytes the node asked for. */
  persistentBytesOf(subgraph: number, nodeIndex: number): number {
    return this.persistentByNode.get(`${subgraph}:${nodeIndex}`) ?? 0;
  }

  /** Records a scratch request for the node at `step` of `subgraph`'s plan; returns its index. */
  requestScratchBuffer(bytes: number, step: number, nodeIndex: number, subgraph: number = this.subgraphIndex): number {
    if (!Number.isInteger(bytes) || bytes < 0)
      throw new MicrortError(`requestScratchBufferInArena: bytes must be a non-negative integer, got ${bytes} (node ${nodeIndex})`);
    this.scratch.push({ bytes, step, nodeIndex, subgraph, region: null });
    return this.scratch.length - 1;
  }

  /**
   * The buffers the planner must place, in TFLM's order: planned tensors subgraph by subgraph, by index,
   * then scratch buffers in request order. Tensors not used by any step (e.g. internal to a delegated
   * subset) and tensors of subgraphs the timeline never reaches are skipped. A single-subgraph plan
   * (`steps`) is the entry subgraph's with no control flow.
   */
  bufferRequirements(steps: readonly PlanStep[], offlineOffsets: Int32Array | null): BufferRequirement[];
  bufferRequirements(lifetimes: ModelLifetimes, offlineOffsets: readonly (Int32Array | null)[]): BufferRequirement[];
  bufferRequirements(
    plan: readonly PlanStep[] | ModelLifetimes,
    offline: Int32Array | null | readonly (Int32Array | null)[],
  ): BufferRequirement[] {
    let lifetimes: ModelLifetimes;
    let offsets: readonly (Int32Array | null)[];
    if (Array.isArray(plan)) {
      const { subgraph } = this;
      const { firstCreated, lastUsed } = computeLifetimes(
        this.tensors.length,
        plan as readonly PlanStep[],
        subgraph.inputs,
        subgraph.outputs,
      );
      const steps = (plan as readonly PlanStep[]).map((_, k) => k);
      lifetimes = { subgraphs: this.subgraphTensors.map(() => null), lastTime: Math.max(0, steps.length - 1) };
      lifetimes.subgraphs[this.subgraphIndex] = {
        firstCreated,
        lastUsed,
        stepStart: Int32Array.from(steps),
        stepEnd: Int32Array.from(steps),
      };
      offsets = this.subgraphTensors.map((_, s) => (s === this.subgraphIndex ? (offline as Int32Array | null) : null));
    } else {
      lifetimes = plan as ModelLifetimes;
      offsets = offline as readonly (Int32Array | null)[];
    }
    const reqs: BufferRequirement[] = [];
    this.subgraphTensors.forEach((tensors, s) => {
      const life = lifetimes.subgraphs[s];
      if (!life) return;
      const { firstCreated, lastUsed } = life;
      const offlineOffsets = offsets[s] ?? null;
      for (const t of tensors) {
        if (t.allocationType !== AllocationType.None) continue; // constant, variable or bound by its kernel
        if (firstCreated[t.index] === -1 || lastUsed[t.index] === -1) continue;
        if (t.type === TensorType.STRING) {
          if (t.stringCapacity === 0) throw new UnboundedStringError(t.index, t.name, s);
        } else if (dataByteLength(t.type, 0) === undefined) continue;
        const off = offlineOffsets && t.index < offlineOffsets.length ? offlineOffsets[t.index]! : -1;
        const req: BufferRequirement = {
          size: alignUp(t.byteLength),
          firstUsed: firstCreated[t.index]!,
          lastUsed: lastUsed[t.index]!,
          offlineOffset: off,
          kind: 'tensor',
          id: t.index,
          label: t.name || `t${t.index}`,
        };
        if (s !== this.subgraphIndex) {
          req.subgraph = s;
          req.label = `${req.label} (subgraph ${s})`;
        }
        reqs.push(req);
      }
    });
    this.scratch.forEach((r, i) => {
      const life = lifetimes.subgraphs[r.subgraph];
      const first = life ? life.stepStart[r.step]! : r.step;
      const last = life ? life.stepEnd[r.step]! : r.step;
      const where = r.subgraph === this.subgraphIndex ? `node ${r.nodeIndex}` : `node ${r.nodeIndex} of subgraph ${r.subgraph}`;
      reqs.push({ size: alignUp(r.bytes), firstUsed: first, lastUsed: last, kind: 'scratch', id: i, label: `scratch #${i} (${where})` });
    });
    return reqs;
  }

  /**
   * Rejects a plan in which a step reads a planned tensor that no earlier step wrote (and that is not a
   * subgraph input), or a subgraph output nothing writes: its bytes would be whatever the arena held.
   * Also rejects writes into constants (an operator output or a subgraph input that has model data):
   * they would change the model's bytes, which every interpreter of that model shares.
   */
  checkDataFlow(steps: readonly PlanStep[], subgraphIndex: number = this.subgraphIndex): void {
    const tensors = this.subgraphTensors[subgraphIndex]!;
    const subgraph = this.model.subgraphs[subgraphIndex]!;
    const path = `subgraphs[${subgraphIndex}]`;
    for (let i = 0; i < subgraph.inputs.length; i++) {
      const t = tensors[subgraph.inputs[i]!];
      if (t?.isConstant)
        throw new ModelError(
          `subgraph input ${i} is tensor ${t.index} (${t.name || 'unnamed'}), a constant: writing the input would change the model's data`,
          { table: 'SubGraph', field: 'inputs', index: i, path },
        );
    }
    for (let s = 0; s < steps.length; s++) {
      const outs = steps[s]!.outputs;
      for (let k = 0; k < outs.length; k++) {
        const t = tensors[outs[k]!];
        if (!t?.isConstant) continue;
        const node = (steps[s] as { index?: number }).index ?? s;
        throw new ModelError(
          `operator ${node} writes tensor ${t.index} (${t.name || 'unnamed'}) as output ${k}, but it is a constant with data in the model`,
          {
            table: 'Operator',
            field: 'outputs',
            index: node,
            path: `${path}.operators[${node}]`,
          },
        );
      }
    }
    const hasData = (i: number) => {
      const t = tensors[i]!;
      return (
        t.allocationType !== AllocationType.None ||
        (t.type !== TensorType.STRING && dataByteLength(t.type, 0) === undefined) ||
        (t.type !== TensorType.STRING && t.byteLength === 0)
      );
    };
    const bad = findReadBeforeWrite(tensors.length, steps, subgraph.inputs, subgraph.outputs, hasData);
    if (!bad) return;
    const t = tensors[bad.tensor]!;
    const what = `tensor ${t.index} (${t.name || 'unnamed'})`;
    if (bad.step < 0) {
      throw new ModelError(
        `subgraph output ${what} is never written: no operator produces it and it is not an input, constant or variable`,
        {
          table: 'SubGraph',
          field: 'outputs',
          path,
        },
      );
    }
    const node = (steps[bad.step] as { index?: number }).index ?? bad.step;
    throw new ModelError(
      `operator ${node} (step ${bad.step} of the execution plan) reads ${what} before any operator writes it; it is not an input, constant or variable (operators out of order, or a tensor nothing produces)`,
      { table: 'Operator', field: 'inputs', index: node, path: `${path}.operators[${node}]` },
    );
  }

  /**
   * FinishModelAllocation: plan the head, size it, bind planned tensors and scratch buffers.
   *
   * With one subgraph's `steps`, plans the entry subgraph alone (no control flow). With the model's
   * `lifetimes` (graph/allocation-info.ts) and per-subgraph plans, checks every reached subgraph's data
   * flow and plans all of them together. With `inPlace` (per entry-subgraph step, the inputs each
   * kernel lets its output 0 share), outputs that qualify get `inPlaceOf` (see `applyInPlace`); so do
   * the outputs of the kernels' in-place variants granted during prepare (`overwrites`, see
   * `applyOverwrites`), first.
   */
  finishModelAllocation(
    steps: readonly PlanStep[],
    planner: MemoryPlanner,
    offlineOffsets: Int32Array | null,
    inPlace?: InPlaceCandidates | null,
    overwrites?: readonly GrantedOverwrite[],
  ): CommittedPlan;
  finishModelAllocation(
    lifetimes: ModelLifetimes,
    planner: MemoryPlanner,
    plans: readonly (SubgraphPlanSteps | null)[],
    inPlace?: InPlaceCandidates | null,
    overwrites?: readonly GrantedOverwrite[],
  ): CommittedPlan;
  finishModelAllocation(
    stepsOrLifetimes: readonly PlanStep[] | ModelLifetimes,
    planner: MemoryPlanner,
    offlineOrPlans: Int32Array | null | readonly (SubgraphPlanSteps | null)[],
    inPlace: InPlaceCandidates | null = null,
    overwrites: readonly GrantedOverwrite[] = [],
  ): CommittedPlan {
    let requirements: BufferRequirement[];
    let entrySteps: readonly PlanStep[];
    let entryTimes: ArrayLike<number> | undefined;
    if (Array.isArray(stepsOrLifetimes)) {
      entrySteps = stepsOrLifetimes as readonly PlanStep[];
      this.checkDataFlow(entrySteps);
      requirements = this.bufferRequirements(entrySteps, offlineOrPlans as Int32Array | null);
    } else {
      const lifetimes = stepsOrLifetimes as ModelLifetimes;
      const plans = offlineOrPlans as readonly (SubgraphPlanSteps | null)[];
      plans.forEach((p, s) => {
        if (p && lifetimes.subgraphs[s]) this.checkDataFlow(p.steps, s);
      });
      entrySteps = plans[this.subgraphIndex]?.steps ?? [];
      entryTimes = lifetimes.subgraphs[this.subgraphIndex]?.stepStart;
      requirements = this.bufferRequirements(
        lifetimes,
        plans.map((p) => p?.offlineOffsets ?? null),
      );
    }
    const entryRequirements = requirements.filter((r) => r.subgraph === undefined);
    const overwritePairs = overwrites.length ? applyOverwrites(entryRequirements, overwrites) : [];
    const sharedPairs = inPlace
      ? applyInPlace(entryRequirements, entrySteps, inPlace, this.subgraph.inputs, this.subgraph.outputs, entryTimes)
      : [];
    const inPlacePairs = overwritePairs.length ? [...overwritePairs, ...sharedPairs].sort((a, b) => a.step - b.step) : sharedPairs;
    const t0 = now();
    const plan = planner.plan(requirements, { alignment: ARENA_ALIGNMENT });
    const planMs = now() - t0;
    validatePlan(planner.name, requirements, plan, ARENA_ALIGNMENT);
    this.arena.setHeadSize(plan.headBytes);
    this.arena.checkFits();
    const buffer = this.arena.buffer;
    requirements.forEach((r, i) => {
      const offset = plan.offsets[i]!;
      if (r.kind === 'tensor') this.subgraphTensors[r.subgraph ?? this.subgraphIndex]![r.id]!.bind(buffer, offset, AllocationType.ArenaRw);
      else this.scratch[r.id]!.region = new ArenaRegion(buffer, offset, this.scratch[r.id]!.bytes);
    });
    this.committed = { plannerName: planner.name, requirements, plan, planMs, inPlacePairs };
    return this.committed;
  }
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

export { TensorType };
