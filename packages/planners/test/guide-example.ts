// A planner of your own: anything with a name and a deterministic plan() is a MemoryPlanner.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { lowerBound, planReport, validatePlan } from '@micrort/planners';

/** First fit in order of first use, as an online allocator would see the buffers. */
export class FirstUsePlanner implements MemoryPlanner {
  readonly name = 'first-use';

  plan(buffers: readonly BufferRequirement[], { alignment }: PlanOptions): MemoryPlan {
    const order = buffers.map((_, i) => i).sort((a, b) => buffers[a]!.firstUsed - buffers[b]!.firstUsed || a - b);
    const offsets = new Int32Array(buffers.length);
    const placed: number[] = [];
    let headBytes = 0;
    for (const i of order) {
      const b = buffers[i]!;
      // Buffers alive at a common step must not share bytes; scan those already placed, lowest first.
      const live = placed
        .filter((j) => !(buffers[j]!.lastUsed < b.firstUsed || b.lastUsed < buffers[j]!.firstUsed))
        .sort((x, y) => offsets[x]! - offsets[y]!);
      let offset = 0;
      for (const j of live) {
        if (offsets[j]! - offset >= b.size) break; // the gap below j is big enough
        const end = offsets[j]! + buffers[j]!.size;
        offset = Math.max(offset, Math.ceil(end / alignment) * alignment);
      }
      offsets[i] = offset;
      placed.push(i);
      headBytes = Math.max(headBytes, offset + b.size);
    }
    return { offsets, headBytes };
  }
}

export function main(): { head: number; lowerBound: number; y: number[] } {
  // y = relu(x + c) + c: three ops, four activation buffers.
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 64] });
  const c = b.addTensor({ name: 'c', type: TensorType.FLOAT32, shape: [64], data: new Float32Array(64).fill(-1) });
  const s = b.addTensor({ name: 's', type: TensorType.FLOAT32, shape: [1, 64] });
  const r = b.addTensor({ name: 'r', type: TensorType.FLOAT32, shape: [1, 64] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 64] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [s] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [s], outputs: [r] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [r, c], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  // The interpreter validates every plan it gets; validatePlan/planReport do the same in your tests.
  const interpreter = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: new FirstUsePlanner() });
  interpreter.allocateTensors();
  const { requirements } = interpreter.memoryPlan();
  const report = planReport(requirements, new FirstUsePlanner(), { alignment: 16 });
  validatePlan(requirements, report.plan, { alignment: 16 });

  interpreter.setInput(0, new Float32Array(64).fill(3).fill(0, 0, 2));
  interpreter.invoke();
  return {
    head: report.headBytes,
    lowerBound: lowerBound(requirements),
    y: Array.from(interpreter.output(0).data as Float32Array).slice(0, 3),
  };
}
