/**
 * What TFLM will refuse in a model, found before it reaches the MCU: operators TFLM has no kernel for
 * (no `Add…()` method in micro_mutable_op_resolver.h, so AllocateTensors fails), custom operators TFLM
 * does not ship (the build must provide them), and (operator, type) pairs TFLM's kernels reject.
 *
 * The per-operator type rules start from the (operator, type) pairs the conformance-ops suite built and
 * TFLM refused at tflite-micro 90b983c2 (its README, "Refused by TFLM"), each with the stage and the
 * message TFLM printed. What a rule *accepts* is read from the kernel's code — the types its Eval switch
 * dispatches on, or the condition its Prepare checks — never from the message's wording: messages go stale
 * (ZEROS_LIKE's still lists three types while its switch handles int8 too; ARG_MAX/ARG_MIN's lists uint8,
 * which their switch dropped). Where the code was not read, a rule refuses only the type seen refused.
 * The general rules (types no TFLM kernel computes with: uint8 outside QUANTIZE/DEQUANTIZE, float16 (a
 * warning for DEQUANTIZE's input, which recent TFLM builds take),
 * bfloat16, float64, complex, string, unsigned 16/32/64-bit; int4 outside the constant filter of
 * CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED) skip the type-agnostic CAST, RESHAPE, SQUEEZE and
 * EXPAND_DIMS. Findings are what is known to fail; a model with none may still hit a kernel check not
 * listed here.
 */
import { BuiltinOperator, TensorType, parseFlexMap, tensorTypeName, type ModelDef } from '@micrort/core';
import { nodeView, type NodeView, type TensorView } from './tflm/node-view.js';
import { TFLM_BUILTIN_METHODS, TFLM_CUSTOM_METHODS } from './resolver-header.js';

/** When TFLM stops: building the resolver, AllocateTensors (a kernel's Prepare) or Invoke. */
export type RefusalStage = 'build' | 'resolver' | 'prepare' | 'invoke';

/** One thing TFLM refuses (or needs) for one node. */
export interface Refusal {
  subgraph: number;
  node: number;
  /** `CONV_2D` or `CUSTOM:<name>`. */
  op: string;
  /** `error`: TFLM fails at `stage`; `warning`: it runs, but needs something or computes wrongly. */
  severity: 'error' | 'warning';
  stage: RefusalStage;
  /** What TFLM refuses and why (with TFLM's message where it has one). */
  reason: string;
}

/** Where a type rule looks: input or output `index` of the node. */
type Where = readonly ['input' | 'output', number];

/** A TFLM kernel's type check. */
interface TypeRule {
  where: Where;
  /** Types the kernel's code handles (its Eval switch or Prepare condition), or */
  accepts?: readonly TensorType[];
  /** types seen refused (when the kernel's dispatch was not read). */
  refuses?: readonly TensorType[];
  stage: 'prepare' | 'invoke';
  /** TFLM's message for the refused case. */
  message: string;
}

const F32 = TensorType.FLOAT32;
const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const I32 = TensorType.INT32;
const I64 = TensorType.INT64;

const rule = (
  where: Where,
  stage: TypeRule['stage'],
  message: string,
  types: { accepts?: TensorType[]; refuses?: TensorType[] },
): TypeRule => ({
  where,
  stage,
  message,
  ...types,
});
const IN0: Where = ['input', 0];
const IN1: Where = ['input', 1];
const OUT0: Where = ['output', 0];

/** Per-operator type checks of TFLM's kernels (tensorflow/lite/micro/kernels/<op>.cc at 90b983c2). */
export const TFLM_TYPE_RULES: Readonly<Partial<Record<string, readonly TypeRule[]>>> = {
  EXP: [rule(IN0, 'prepare', 'exp.cc:41 input->type != kTfLiteFloat32', { accepts: [F32] })],
  NEG: [rule(IN0, 'invoke', 'Type INT32 (2) not supported.', { refuses: [I32] })],
  FLOOR_DIV: [rule(IN0, 'invoke', "Type 'INT32' is not supported by FLOOR_DIV.", { refuses: [I32] })],
  FLOOR_MOD: [rule(IN0, 'invoke', "Type 'INT32' is not supported by FLOOR_MOD.", { refuses: [I32] })],
  GATHER: [rule(IN0, 'prepare', "Type 'INT16' is not supported by gather.", { refuses: [I16] })],
  ELU: [rule(IN0, 'invoke', 'ELU only supports float32 and int8 currently', { accepts: [F32, I8] })],
  HARD_SWISH: [rule(IN0, 'invoke', 'Unsupported type INT16', { refuses: [I16] })],
  LOG_SOFTMAX: [rule(IN0, 'invoke', 'LOG_SOFTMAX only supports float32, int8', { accepts: [F32, I8] })],
  L2_NORMALIZATION: [
    rule(OUT0, 'prepare', 'l2norm.cc:57 output->type == kTfLiteFloat32 || output->type == kTfLiteInt8 was not true', {
      accepts: [F32, I8],
    }),
  ],
  REDUCE_MAX: [rule(IN0, 'invoke', 'Only float32 and int8 types are supported.', { accepts: [F32, I8] })],
  CUMSUM: [
    rule(IN0, 'prepare', 'cumsum.cc:58 input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true', { accepts: [F32, I8] }),
  ],
  RESIZE_BILINEAR: [rule(OUT0, 'invoke', 'requires float or int8', { accepts: [F32, I8] })],
  MIRROR_PAD: [rule(IN0, 'invoke', 'failed to invoke with status 1 (no kernel message)', { refuses: [I16] })],
  DEPTH_TO_SPACE: [
    rule(IN0, 'prepare', 'depth_to_space.cc:56 data_type == kTfLiteFloat32 || data_type == kTfLiteInt8 was not true', {
      accepts: [F32, I8],
    }),
  ],
  SPACE_TO_DEPTH: [
    rule(IN0, 'prepare', 'space_to_depth.cc:55 data_type == kTfLiteFloat32 || data_type == kTfLiteInt8 was not true', {
      accepts: [F32, I8],
    }),
  ],
  BATCH_TO_SPACE_ND: [rule(IN0, 'invoke', 'Type INT16 (7) not supported.', { refuses: [I16] })],
  FILL: [rule(IN1, 'invoke', 'Fill only currently supports float32 for input 1', { refuses: [I16] })],
  // zeros_like.cc Eval switch: int64, int32, int8, float32 (the default branch's message omits int8).
  ZEROS_LIKE: [rule(IN0, 'invoke', 'ZerosLike only currently supports int64, int32, and float32', { accepts: [I64, I32, I8, F32] })],
  SELECT_V2: [rule(IN1, 'invoke', 'Does not support type other than int8|int16|float32', { accepts: [I8, I16, F32] })],
  // arg_min_max.cc Eval: input float32 or int8 (the message still names uint8, which the switch dropped), int32 axis and output.
  ARG_MAX: [
    rule(IN0, 'invoke', 'Only float32, uint8_t and int8_t are supported currently', { accepts: [F32, I8] }),
    rule(OUT0, 'invoke', 'Only int32_t are supported currently', { accepts: [I32] }),
  ],
  ARG_MIN: [
    rule(IN0, 'invoke', 'Only float32, uint8_t and int8_t are supported currently', { accepts: [F32, I8] }),
    rule(OUT0, 'invoke', 'Only int32_t are supported currently', { accepts: [I32] }),
  ],
  SHAPE: [rule(OUT0, 'invoke', 'Output type INT64 (4) not supported.', { accepts: [I32] })],
  EMBEDDING_LOOKUP: [
    rule(IN1, 'prepare', 'embedding_lookup.cc:84 value->type == kTfLiteFloat32 || value->type == kTfLiteInt8 was not true', {
      accepts: [F32, I8],
    }),
  ],
  L2_POOL_2D: [rule(IN0, 'prepare', 'l2_pool_2d.cc:71 input->type != kTfLiteFloat32', { accepts: [F32] })],
};

/** Types no TFLM kernel computes with. */
const NO_KERNEL_TYPES: ReadonlySet<TensorType> = new Set([
  TensorType.FLOAT16,
  TensorType.BFLOAT16,
  TensorType.FLOAT64,
  TensorType.COMPLEX64,
  TensorType.COMPLEX128,
  TensorType.STRING,
  TensorType.UINT16,
  TensorType.UINT32,
  TensorType.UINT64,
]);

/** Ops that move bytes without looking at the type (the general type rules skip them). */
const TYPE_AGNOSTIC = new Set(['CAST', 'RESHAPE', 'SQUEEZE', 'EXPAND_DIMS']);
/** Ops whose TFLM kernels still take uint8 (requantization). */
const UINT8_OPS = new Set(['QUANTIZE', 'DEQUANTIZE']);
/** Ops whose TFLM kernels unpack an int4 constant filter (input 1). */
const INT4_FILTER_OPS = new Set(['CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED']);

function tensorAt(n: NodeView, where: Where): TensorView | null {
  return (where[0] === 'input' ? n.inputs : n.outputs)[where[1]] ?? null;
}

function typeRefusals(n: NodeView): string[] {
  const out: string[] = [];
  for (const r of TFLM_TYPE_RULES[n.op] ?? []) {
    const t = tensorAt(n, r.where);
    if (!t) continue;
    const refused = r.accepts ? !r.accepts.includes(t.type) : (r.refuses ?? []).includes(t.type);
    if (refused) out.push(`${r.where[0]} ${r.where[1]} is ${tensorTypeName(t.type)}; TFLM's kernel fails in ${r.stage}: "${r.message}"`);
  }
  return out;
}

function generalTypeRefusals(n: NodeView): string[] {
  if (TYPE_AGNOSTIC.has(n.op)) return [];
  const found = new Map<string, string>();
  const check = (kind: 'input' | 'output', i: number, t: TensorView | null) => {
    if (!t) return;
    let why: string | null = null;
    if (n.op === 'DEQUANTIZE' && kind === 'input' && t.type === TensorType.FLOAT16) return; // a warning, see tflmRefusals
    if (NO_KERNEL_TYPES.has(t.type)) why = `no TFLM kernel computes with ${tensorTypeName(t.type)}`;
    else if (t.type === TensorType.UINT8 && !UINT8_OPS.has(n.op))
      why = "TFLM's kernels dropped uint8 (only QUANTIZE and DEQUANTIZE take it)";
    else if (t.type === TensorType.INT4 && !(INT4_FILTER_OPS.has(n.op) && kind === 'input' && i === 1 && t.data))
      why = 'TFLM takes int4 only as the constant filter of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED';
    if (why && !found.has(why)) found.set(why, `${kind} ${i} is ${tensorTypeName(t.type)}: ${why}`);
  };
  n.inputs.forEach((t, i) => check('input', i, t));
  n.outputs.forEach((t, i) => check('output', i, t));
  return [...found.values()];
}

/**
 * TFLite_Detection_PostProcess outputs too small for what TFLM's Eval writes (detection_postprocess.cc):
 * TFLM neither resizes nor checks them (its Prepare only counts them), so a file whose outputs have no
 * shape (SSD exports that leave them to TFLite's dynamic resize) gets 4-byte tensors in TFLM's plan, and
 * Eval writes max_detections boxes, classes and scores past them, over whatever the planner put there.
 */
function detectionOutputOverflows(n: NodeView): string[] {
  let maxDetections = 0;
  try {
    maxDetections = n.customOptions ? (parseFlexMap(n.customOptions).get('max_detections')?.int32 ?? 0) : 0;
  } catch {
    return [];
  }
  const names = ['detection_boxes', 'detection_classes', 'detection_scores', 'num_detections'];
  const needed = [4 * maxDetections, maxDetections, maxDetections, 1];
  const out: string[] = [];
  n.outputs.forEach((t, i) => {
    if (!t || i >= 4 || t.elements >= needed[i]!) return;
    out.push(
      `output ${i} (${names[i]}) has shape [${Array.from(t.shape).join(', ')}] in the file: TFLM plans ${t.bytes} bytes for it and ` +
        `its Eval writes up to ${needed[i]! * 4} bytes there (max_detections ${maxDetections}), past its end into the arena; give ` +
        'the outputs their shapes ([1, max_detections, 4], [1, max_detections] twice, [1]) before deploying',
    );
  });
  return out;
}

/** Everything TFLM will refuse or need for `model`, node by node (every subgraph). */
export function tflmRefusals(model: ModelDef): Refusal[] {
  const found: Refusal[] = [];
  model.subgraphs.forEach((sg, s) =>
    sg.operators.forEach((_, i) => {
      const n = nodeView(model, s, i);
      const at = { subgraph: s, node: i, op: n.op };
      if (n.builtinCode === BuiltinOperator.CUSTOM) {
        if (n.customName === 'TFLite_Detection_PostProcess')
          for (const reason of detectionOutputOverflows(n)) found.push({ ...at, severity: 'error', stage: 'invoke', reason });
        if (!TFLM_CUSTOM_METHODS[n.customName ?? ''])
          found.push({
            ...at,
            severity: 'warning',
            stage: 'build',
            reason: `TFLM ships no kernel for custom op "${n.customName}": the build must provide its registration`,
          });
        return;
      }
      if (!TFLM_BUILTIN_METHODS[n.op]) {
        found.push({
          ...at,
          severity: 'error',
          stage: 'resolver',
          reason: `TFLM has no kernel for ${n.op} (no MicroMutableOpResolver method): AllocateTensors fails`,
        });
        return;
      }
      for (const reason of typeRefusals(n))
        found.push({ ...at, severity: 'error', stage: reason.includes('fails in prepare') ? 'prepare' : 'invoke', reason });
      for (const reason of generalTypeRefusals(n)) found.push({ ...at, severity: 'error', stage: 'prepare', reason });
      if (n.op === 'DEQUANTIZE' && n.inputs[0]?.type === TensorType.FLOAT16)
        found.push({
          ...at,
          severity: 'warning',
          stage: 'prepare',
          reason:
            'float16 input: only recent TFLM builds dequantize float16 (earlier DequantizePrepare accepts int8/int16 only); check yours',
        });
      if (n.op === 'GREATER' && n.inputs[0]?.type === I16)
        found.push({
          ...at,
          severity: 'warning',
          stage: 'invoke',
          reason: 'GREATER int16: TFLM accepts it but ComparisonsPrepare rescales only int8, so every output is false',
        });
    }),
  );
  return found;
}
