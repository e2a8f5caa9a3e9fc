/**
 * One delegated subset run as a chain of gpu.js kernels.
 *
 * prepare: asks each node's GPU op kernel for its plan, gives every tensor the chain touches a slot,
 * puts constants on the device once (GL modes: a texture each), fetches one compiled kernel per node
 * from the cache and runs the chain once on zeros so that every kernel compiles now, not in the first
 * invoke.
 *
 * invoke: copies the subset's input tensors in (GL: one upload kernel each), runs the kernels in order,
 * each reading the device values its arguments name (intermediates never leave the device in the GL
 * modes), and copies the subset's output tensors out into the arena. The chain's own code allocates
 * nothing in invoke (slot and argument arrays are made at prepare); gpu.js itself may allocate when it
 * uploads or reads back.
 */
import { DelegateError, KernelError, type DelegateParams, type Node, type TfLiteContext } from '@micrort/core';
import type { Texture } from 'gpu.js';
import type { CompiledKernel, KernelCache } from './kernel-cache.js';
import type { GpuOpKernel, KernelPlan } from './kernels/kernel-plan.js';

/** A value the kernels read: a device texture (GL modes) or a host typed array (webasm, cpu). */
export type DeviceValue = Float32Array | Texture;

/** One original node of the subset and the GPU op kernel serving it. */
export interface ChainNode {
  readonly node: Node;
  readonly op: GpuOpKernel;
}

/** What a chain needs from its delegate. */
export interface ChainEnv {
  readonly cache: KernelCache;
  /** True in the GL modes, where values live in textures. */
  readonly onDevice: boolean;
  /** Delegate name, for messages. */
  readonly name: string;
}

interface Step {
  readonly plan: KernelPlan;
  readonly nodeIndex: number;
  /** null: the output aliases argument 0 (RESHAPE). */
  readonly kernel: CompiledKernel | null;
  readonly argSlots: Int32Array;
  readonly args: DeviceValue[];
  readonly outSlot: number;
}

interface ChainInput {
  readonly tensor: number;
  readonly slot: number;
  /** GL modes: the upload kernel of this input. */
  readonly upload: CompiledKernel | null;
  readonly elements: number;
}

interface ChainOutput {
  readonly tensor: number;
  readonly slot: number;
}

const EMPTY = new Float32Array(0);

/** A delegated subset's kernels and device values (the delegate node's op data). */
export class SubsetChain {
  /** Original node indices, in execution order. */
  readonly nodes: readonly number[];
  private slots: DeviceValue[] = [];
  private steps: Step[] = [];
  private inputs: ChainInput[] = [];
  private outputs: ChainOutput[] = [];
  /** Constant textures this chain uploaded (deleted by free). */
  private owned: Texture[] = [];

  constructor(
    private readonly env: ChainEnv,
    private readonly params: DelegateParams,
    private readonly members: readonly ChainNode[],
  ) {
    this.nodes = Array.from(params.nodesToReplace);
  }

  /** Plans every node, binds slots, uploads constants, compiles (by one warm-up run). */
  prepare(context: TfLiteContext, delegateNode: Node): void {
    this.free();
    const slotOf = new Map<number, number>();
    const slots: DeviceValue[] = [];
    const newSlot = (value: DeviceValue): number => slots.push(value) - 1;
    const subsetInputs = new Set(this.params.inputTensors);
    const uses = new Map<string, number>();
    const inputs: ChainInput[] = [];
    const steps: Step[] = [];
    let uploads = 0;
    for (const { node, op } of this.members) {
      let plan: KernelPlan;
      try {
        plan = op.plan(context, node);
      } catch (e) {
        if (e instanceof KernelError)
          throw new KernelError(`${this.env.name}:${op.name}`, delegateNode.index, `original node ${node.index}: ${e.detail}`);
        throw e;
      }
      const argSlots = new Int32Array(plan.args.length);
      plan.args.forEach((arg, k) => {
        if ('data' in arg) {
          argSlots[k] = newSlot(this.constantValue(arg.data));
          return;
        }
        const known = slotOf.get(arg.tensor);
        if (known !== undefined) {
          argSlots[k] = known;
          return;
        }
        const t = context.getTensor(arg.tensor);
        let slot: number;
        if (t.isConstant) {
          slot = newSlot(this.constantValue(t.data as Float32Array));
        } else {
          if (!subsetInputs.has(arg.tensor))
            throw new DelegateError(
              `${this.env.name}: node ${node.index} reads tensor ${arg.tensor}, which is neither produced earlier in its subset nor an input of it`,
            );
          slot = newSlot(EMPTY);
          inputs.push({
            tensor: arg.tensor,
            slot,
            upload: this.env.onDevice ? this.env.cache.upload(t.elementCount, uploads++) : null,
            elements: t.elementCount,
          });
        }
        slotOf.set(arg.tensor, slot);
        argSlots[k] = slot;
      });
      const instance = uses.get(plan.key) ?? 0;
      uses.set(plan.key, instance + 1);
      const outSlot = newSlot(EMPTY);
      slotOf.set(plan.output, outSlot);
      steps.push({
        plan,
        nodeIndex: node.index,
        kernel: plan.source ? this.env.cache.kernel(plan, instance) : null,
        argSlots,
        args: new Array<DeviceValue>(plan.args.length).fill(EMPTY),
        outSlot,
      });
    }
    const outputs: ChainOutput[] = [];
    for (const t of this.params.outputTensors) {
      const slot = slotOf.get(t);
      if (slot === undefined || !steps.some((s) => s.outSlot === slot))
        throw new DelegateError(`${this.env.name}: output tensor ${t} of the subset [${this.nodes.join(', ')}] is not produced by it`);
      const expected = context.getTensor(t).elementCount;
      const step = steps.find((s) => s.outSlot === slot)!;
      if (step.plan.outputSize !== expected)
        throw new DelegateError(
          `${this.env.name}: output tensor ${t} has ${expected} elements, node ${step.nodeIndex} produces ${step.plan.outputSize}`,
        );
      outputs.push({ tensor: t, slot });
    }
    this.slots = slots;
    this.steps = steps;
    this.inputs = inputs;
    this.outputs = outputs;
    // Warm-up: gpu.js compiles each kernel on its first call; do it now with zero inputs.
    for (const input of inputs) this.slots[input.slot] = this.bindInput(input, new Float32Array(input.elements));
    this.runSteps();
  }

  /** Runs the subset: inputs in, kernels, outputs out. */
  invoke(context: TfLiteContext): void {
    const inputs = this.inputs;
    for (let i = 0; i < inputs.length; i++) {
      const input = inputs[i]!;
      this.slots[input.slot] = this.bindInput(input, context.getEvalTensor(input.tensor).data as Float32Array);
    }
    this.runSteps();
    const outputs = this.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const out = outputs[i]!;
      readInto(this.slots[out.slot]!, context.getEvalTensor(out.tensor).data as Float32Array);
    }
  }

  /** Deletes the constant textures this chain uploaded (kernels belong to the delegate's cache). */
  free(): void {
    for (const t of this.owned) t.delete();
    this.owned = [];
  }

  /** What the chain runs, for inspection: per original node, its kernel key (or alias). */
  describe(): { node: number; op: string; kernel: string }[] {
    return this.steps.map((s) => ({ node: s.nodeIndex, op: s.plan.op, kernel: s.kernel ? s.plan.key : 'alias (no kernel)' }));
  }

  private bindInput(input: ChainInput, data: Float32Array): DeviceValue {
    return input.upload ? (input.upload(data) as Texture) : data;
  }

  private runSteps(): void {
    const steps = this.steps;
    const slots = this.slots;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const argSlots = step.argSlots;
      if (step.kernel === null) {
        slots[step.outSlot] = slots[argSlots[0]!]!;
        continue;
      }
      const args = step.args;
      for (let k = 0; k < argSlots.length; k++) args[k] = slots[argSlots[k]!]!;
      slots[step.outSlot] = callKernel(step.kernel, args);
    }
  }

  private constantValue(data: Float32Array): DeviceValue {
    if (!this.env.onDevice) return data;
    const texture = this.env.cache.constantUpload(data.length)(data) as Texture;
    this.owned.push(texture);
    return texture;
  }
}

/** Calls a kernel with a fixed number of arguments (no spread, no array made per call). */
function callKernel(kernel: CompiledKernel, args: DeviceValue[]): DeviceValue {
  switch (args.length) {
    case 1:
      return kernel(args[0]) as DeviceValue;
    case 2:
      return kernel(args[0], args[1]) as DeviceValue;
    case 3:
      return kernel(args[0], args[1], args[2]) as DeviceValue;
    default:
      return kernel(...(args as never[])) as DeviceValue;
  }
}

/** Copies a device value into an arena array (a texture is read back; a typed array is copied). */
function readInto(value: DeviceValue, target: Float32Array): void {
  if (value instanceof Float32Array) target.set(value);
  else target.set(value.toArray() as Float32Array);
}
