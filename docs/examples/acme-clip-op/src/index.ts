// A third-party kernel package: one custom op, ACME_CLIP(x) = min(max(x, lo), hi) for float32 and int8.
// Its options are 8 custom-option bytes: two little-endian float32 (lo, hi). Core's callback table and
// kernel-support's checks, decline reasons and op-data idiom are all it needs.
import { BuiltinOperator, TensorType, type KernelPackage, type Registration } from '@micrort/core';
import { expectSameType, expectType, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'ACME_CLIP';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8];

interface ClipData {
  lo: number;
  hi: number;
  /** Bounds in the int8 domain, computed in prepare. */
  qlo: number;
  qhi: number;
  int8: boolean;
}

export const ACME_CLIP: Registration<ClipData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: 'ACME_CLIP',
  version: 1,
  provider: '@acme/micrort-clip-op',
  // declined nodes fall back to the next provider with this reason, e.g. "int16 input (handles float32, int8)"
  supports: (ctx, node) => supportsInputTypes(ctx, node, TYPES),
  // init allocates the op data, prepare fills it, invoke reads it
  init(_ctx, initData) {
    const bytes = initData as Uint8Array | null;
    if (!bytes || bytes.byteLength !== 8) return { lo: -Infinity, hi: Infinity, qlo: -128, qhi: 127, int8: false };
    const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
    return { lo: view.getFloat32(0, true), hi: view.getFloat32(4, true), qlo: -128, qhi: 127, int8: false };
  },
  prepare(ctx, node) {
    const op = opData<ClipData>(OP, node);
    const x = ctx.getTensor(node.inputs[0]!);
    const y = ctx.getTensor(node.outputs[0]!);
    expectType(OP, node, 'input', x, TYPES); // a typed KernelError: "unsupported input type int16 (tensor 0); supported: ..."
    expectSameType(OP, node, 'input and output', x, y);
    if (x.type === TensorType.INT8) {
      const { scale, zeroPoint } = y.params;
      op.int8 = true;
      op.qlo = Math.max(-128, zeroPoint + Math.round(op.lo / scale));
      op.qhi = Math.min(127, zeroPoint + Math.round(op.hi / scale));
    }
  },
  invoke(ctx, node) {
    const op = opData<ClipData>(OP, node);
    const x = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array | Int8Array;
    const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array | Int8Array;
    const lo = op.int8 ? op.qlo : op.lo;
    const hi = op.int8 ? op.qhi : op.hi;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      y[i] = v < lo ? lo : v > hi ? hi : v;
    }
  },
};

/** Custom options bytes for ACME_CLIP. */
export function clipOptions(lo: number, hi: number): Uint8Array {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setFloat32(0, lo, true);
  v.setFloat32(4, hi, true);
  return b;
}

/** Every kernel of this package. */
export const acmeKernels: Registration[] = [ACME_CLIP as Registration];

/** The package for composeRuntime(): `composeRuntime([referencePackage, acmePackage])`. */
export const acmePackage: KernelPackage = {
  name: 'acme-clip-op',
  provider: 'acme',
  summary: "ACME's ACME_CLIP custom op (float32, int8)",
  provides: ['custom-ops'],
  join: 'register',
  create: () => ({ register: (resolver, options) => void resolver.registerAll(acmeKernels, options) }),
};
