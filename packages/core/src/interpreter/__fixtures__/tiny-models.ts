/**
 * Hand-made ModelDefs and kernels for core's own tests (no loader, no writer, no plugin packages).
 */
import { BuiltinOperator } from '../../builtin-ops.js';
import type { Registration } from '../../kernel/api.js';
import type { ModelDef, OperatorDef, TensorDef } from '../../model/model-def.js';
import type { BufferRequirement, MemoryPlan, MemoryPlanner } from '../../planner/memory-planner.js';
import { TensorType } from '../../types.js';

export interface TinyTensor {
  type?: TensorType;
  shape: number[];
  data?: Uint8Array;
  variable?: boolean;
  scale?: number;
  zeroPoint?: number;
  name?: string;
}
export interface TinyOp {
  custom?: string;
  builtin?: BuiltinOperator;
  inputs: number[];
  outputs: number[];
  version?: number;
}

/** Builds a one-subgraph ModelDef. */
export function tinyModel(tensors: TinyTensor[], ops: TinyOp[], inputs: number[], outputs: number[]): ModelDef {
  const buffers: ModelDef['buffers'] = [{ data: new Uint8Array(0) }];
  const tdefs: TensorDef[] = tensors.map((t, i) => {
    let buffer = 0;
    if (t.data) {
      buffers.push({ data: t.data });
      buffer = buffers.length - 1;
    }
    return {
      name: t.name ?? `t${i}`,
      type: t.type ?? TensorType.FLOAT32,
      shape: Int32Array.from(t.shape),
      buffer,
      quantization:
        t.scale !== undefined
          ? { scale: Float32Array.of(t.scale), zeroPoint: Int32Array.of(t.zeroPoint ?? 0), quantizedDimension: 0 }
          : null,
      isVariable: t.variable ?? false,
    };
  });
  const codes: ModelDef['operatorCodes'] = [];
  const codeIndex = (op: TinyOp) => {
    const builtinCode = op.custom ? BuiltinOperator.CUSTOM : op.builtin!;
    const customCode = op.custom ?? null;
    const version = op.version ?? 1;
    let k = codes.findIndex((c) => c.builtinCode === builtinCode && c.customCode === customCode && c.version === version);
    if (k < 0) {
      codes.push({ builtinCode, deprecatedBuiltinCode: Math.min(builtinCode, 127), customCode, version });
      k = codes.length - 1;
    }
    return k;
  };
  const odefs: OperatorDef[] = ops.map((op) => ({
    opcodeIndex: codeIndex(op),
    inputs: Int32Array.from(op.inputs),
    outputs: Int32Array.from(op.outputs),
    intermediates: new Int32Array(0),
    builtinOptionsType: 0,
    builtinOptions: null,
    customOptions: null,
  }));
  return {
    version: 3,
    description: 'tiny',
    operatorCodes: codes,
    subgraphs: [{ name: 'main', tensors: tdefs, inputs: Int32Array.from(inputs), outputs: Int32Array.from(outputs), operators: odefs }],
    buffers,
    metadata: [],
    signatureDefs: [],
  };
}

/** No-reuse planner for core tests (the real planners live in @micrort/planners). */
export class TestLinearPlanner implements MemoryPlanner {
  readonly name = 'test-linear';
  plan(buffers: readonly BufferRequirement[]): MemoryPlan {
    const offsets = new Int32Array(buffers.length);
    let off = 0;
    buffers.forEach((b, i) => {
      offsets[i] = off;
      off += b.size;
    });
    return { offsets, headBytes: off };
  }
}

/** CUSTOM "ADD_CONST": out = in + c (float32), c from a 4-byte persistent buffer set in prepare. */
export function addConstKernel(c: number, scratchBytes = 0): Registration<{ value: Float32Array | null; scratch: number }> {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: 'ADD_CONST',
    provider: 'core-test',
    init: () => ({ value: null, scratch: -1 }),
    prepare(ctx, node) {
      const op = node.userData as { value: Float32Array | null; scratch: number };
      const region = ctx.allocatePersistentBuffer(4);
      region.f32[0] = c;
      op.value = region.f32;
      if (scratchBytes > 0) op.scratch = ctx.requestScratchBufferInArena(scratchBytes);
    },
    invoke(ctx, node) {
      const op = node.userData as { value: Float32Array; scratch: number };
      const x = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
      const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
      if (op.scratch >= 0) ctx.getScratchBuffer(op.scratch).f32[0] = 1;
      const v = op.value[0]!;
      for (let i = 0; i < x.length; i++) y[i] = x[i]! + v;
    },
  };
}

/** A 3-op float chain: in → +1 → +1 → +1 → out, 8 floats per tensor. */
export function chainModel(n = 3, elems = 8): ModelDef {
  const tensors: TinyTensor[] = [];
  for (let i = 0; i <= n; i++) tensors.push({ shape: [elems] });
  const ops: TinyOp[] = [];
  for (let i = 0; i < n; i++) ops.push({ custom: 'ADD_CONST', inputs: [i], outputs: [i + 1] });
  return tinyModel(tensors, ops, [0], [n]);
}
