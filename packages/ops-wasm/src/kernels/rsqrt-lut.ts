/**
 * RSQRT, int8, in WebAssembly by lookup: prepare tabulates TFLM's RsqrtEvalQuantized (kernel-support's
 * rsqrtQuantized, the function ops-reference runs per element) for the 256 input bytes, and invoke runs
 * qs8_rsqrt (assembly/int8/rsqrt.ts): a scan for inputs below the input zero point, which fail the invoke
 * with ops-reference's error, then the lookup. Declines other types (int16: ops-reference).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import { constantInputCopies, elementwiseInPlace, inputOffset, quantizedUnaryTensors } from './kernel-common.js';
import { declineOnError, LUT_BYTES, type LutData } from './lut-common.js';
import { rsqrtLutPopulateBytes, rsqrtMultiplier, setOutputShape } from '@micrort/kernel-support';

const OP = 'RSQRT';

/** Op data of an RSQRT node: the lookup's, and the input zero point. */
interface RsqrtData extends LutData {
  zeroPoint: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const t = quantizedUnaryTensors(context, node, (i, o) => i === TensorType.INT8 && o === i, 'int8 to int8');
  if (typeof t === 'string') return t;
  return declineOnError(() => rsqrtMultiplier(OP, node, t.input.params.scale, t.output.params.scale)) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as RsqrtData;
  const input = context.getTensor(node.inputs[0]!);
  const output = setOutputShape(OP, context, node, 0, input.dims);
  const m = rsqrtMultiplier(OP, node, input.params.scale, output.params.scale);
  const region = context.allocatePersistentBuffer(LUT_BYTES);
  data.k = kernelsFor(OP, node, region);
  rsqrtLutPopulateBytes(region.u8.subarray(0, LUT_BYTES), input.params.zeroPoint, m, output.params.zeroPoint);
  data.table = region.offset;
  data.count = output.elementCount;
  data.zeroPoint = input.params.zeroPoint;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as RsqrtData;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const bad = data.k!.qs8_rsqrt(data.table, input, output, data.count, data.zeroPoint);
  if (bad >= 0) {
    const x = new Int8Array(context.getEvalTensor(node.outputs[0]!).data.buffer, input + bad, 1)[0]!;
    throw new KernelError(
      OP,
      node.index,
      `Rsqrt is only defined for positive values (element ${bad} is ${x}, below the input zero point ${data.zeroPoint})`,
    );
  }
}

/** The int8 RSQRT registration. */
export function createRsqrtLut(): Registration<RsqrtData> {
  return {
    builtinCode: BuiltinOperator.RSQRT,
    version: 3,
    provider: PROVIDER,
    name: 'RSQRT/wasm-lut8',
    supports,
    init: (): RsqrtData => ({ k: null, table: 0, count: 0, fixed: -1, zeroPoint: 0 }),
    prepare,
    invoke,
    inPlace: elementwiseInPlace,
  };
}
