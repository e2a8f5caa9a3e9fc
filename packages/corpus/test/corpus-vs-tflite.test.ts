/**
 * The real-model corpus through micrort and through TFLite itself. Each of the 20 MediaPipe models runs
 * in micrort's default runtime (ops-reference + ops-signal + @micrort/ops-mediapipe, greedy planner)
 * and in TFLite 2.9 (packages/test-support/src/tflite-oracle.ts) on the same seeded inputs; every output must agree
 * within the whole-float-CNN tolerance below. A model micrort cannot run FAILS (it is never skipped),
 * with the check report's one-line reason.
 *
 * CI runs a sample (`MICRORT_CORPUS` unset): every model except the big ones in full, and of the big
 * ones (pose_landmark_heavy, the four Objectron models, the SSD MobileNetV2: 27.7 MB, 4 × 5.2 MB, 10 MB) one Objectron model
 * compared with TFLite — the other big ones are only resolved and prepared. `MICRORT_CORPUS=full`
 * (`pnpm corpus:check`) runs and compares all 20. The table printed at the end gives, per model, what
 * `micrort check` says and the max differences from TFLite.
 *
 * Tolerance (per output element): |micrort − TFLite| ≤ 1e-4·|TFLite| + 1e-3·max|TFLite output|.
 * Why: TFLite runs these float models through XNNPACK, which sums dot products in another order (and
 * with fused multiply-adds) than the reference kernels. Over the 150-700 layers of these CNNs the
 * rounding differences accumulate in absolute terms: an output that is a near-cancelling sum of large
 * terms differs by far more than 1e-4 of itself while staying a small fraction of its tensor's range.
 * Measured (printed as "max |Δ|/range"): ≤ 9e-6 of the range for the detectors, hand landmarks and
 * Objectron (≤ 5e-5 for the selfie masks, whose values are tiny on noise inputs); 1.4e-4-2.2e-4 for the
 * pose models' segmentation logits (output 2, range ~600-1500), whose
 * decoder runs ~230 layers deep. Bisecting pose_landmark_lite layer by layer (every intermediate made a
 * graph output, both runtimes) shows the difference growing smoothly with depth — ~1e-5 of the range
 * through the encoder, 3e-4 at the last RELU6 before the logits — with no op where it jumps, as
 * float32 summation noise does and a kernel bug (a wrong tap, an off-by-one resize, a bad rounding)
 * does not. So the bound is the conformance suites' 1e-4 relative term plus 1e-3 of the output's
 * largest magnitude: 4.5× above the worst measured accumulation, still ≥10× below what a wrong kernel
 * gives (≥1e-2 of the range on some element).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  BuiltinOptionsType,
  MicroInterpreter,
  OpResolver,
  Padding,
  TensorType,
  loadModel,
  tensorTypeName,
  writeModel,
} from '@micrort/core';
import { main as micrort } from '@micrort/cli';
import { CORPUS, corpusBytes, linkCorpus, type CorpusModel } from '@micrort/corpus';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { REPO_ROOT } from '@micrort/test-support/conformance';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable, randomInputs } from '@micrort/test-support/tflite-oracle';

/** Relative term of the tolerance (per element, of |TFLite|). */
export const REL_TOL = 1e-4;
/** Range term of the tolerance (of max |TFLite output| of the output tensor). */
export const RANGE_TOL = 1e-3;

const FULL = process.env.MICRORT_CORPUS === 'full';
/** Big models: in CI only resolved and prepared, except SAMPLE which is also run and compared. */
const BIG = new Set([
  'pose_landmark_heavy',
  'object_detection_3d_cup',
  'object_detection_3d_chair',
  'object_detection_3d_camera',
  'object_detection_3d_sneakers',
  'object_detection_ssd_mobilenetv2_oidv4_fp16',
]);
const SAMPLE = 'object_detection_3d_cup';
/** Inputs: seeded uniform floats in [0, 1) — within the input range of every model here (images). */
const INPUT_RANGE: [number, number] = [0, 1];

/**
 * micrort's default runtime: ops-reference, the signal library's ops and MediaPipe's custom ops. The
 * MediaPipe package is imported dynamically so this file also runs (and reports the custom op as
 * missing) in a checkout without it.
 */
async function makeResolverFactory(): Promise<{ make: () => OpResolver; note: string | null }> {
  let mediapipe: ((r: OpResolver) => OpResolver) | null = null;
  let note: string | null = null;
  try {
    const pkg = '@micrort/ops-mediapipe';
    mediapipe = ((await import(/* @vite-ignore */ pkg)) as { registerMediapipeOps: (r: OpResolver) => OpResolver }).registerMediapipeOps;
  } catch (e) {
    note = `@micrort/ops-mediapipe not available (${(e as Error).message.split('\n')[0]}): MediaPipe custom ops missing`;
  }
  return {
    make: () => {
      const r = registerSignalOps(registerReferenceOps(new OpResolver()));
      return mediapipe ? mediapipe(r) : r;
    },
    note,
  };
}
const runtime = await makeResolverFactory();

/** One row of the printed table. */
interface Row {
  model: string;
  mb: string;
  check: string;
  maxAbs: string;
  maxRange: string;
  result: string;
}
const rows = new Map<string, Row>();

/** Where the corpus is linked for `micrort check DIR` (the folder stays for running it by hand). */
export const CORPUS_DIR = join(REPO_ROOT, '.tmp', 'corpus');

/** `micrort check .tmp/corpus --json`, per model: runs or what is missing (the command's one line). */
const checked = new Map<string, { ok: boolean; summary: string }>();
beforeAll(async () => {
  linkCorpus(CORPUS_DIR);
  const out: string[] = [];
  const code = await micrort(['check', CORPUS_DIR, '--json'], { log: (l) => out.push(l), err: (l) => out.push(l), progress: () => {} });
  const json = JSON.parse(out.join('\n')) as { results: { model: string; ok: boolean; summary: string }[] };
  for (const r of json.results) checked.set(r.model.replace(/\.tflite$/, ''), { ok: r.ok, summary: r.summary });
  expect(code === 0).toBe(json.results.every((r) => r.ok));
}, 300_000);

interface OutputDiff {
  index: number;
  name: string;
  elements: number;
  maxAbs: number;
  /** max |Δ| / max |TFLite| */
  maxOverRange: number;
  /** Elements outside the tolerance. */
  outside: number;
}

/** Compares float32 (and integer) outputs with the tolerance above. */
function diff(index: number, name: string, dtype: string, got: Uint8Array, want: Uint8Array): OutputDiff {
  if (got.byteLength !== want.byteLength) return { index, name, elements: -1, maxAbs: Infinity, maxOverRange: Infinity, outside: -1 };
  if (dtype !== 'float32') {
    let outside = 0;
    for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) outside++;
    return { index, name, elements: got.length, maxAbs: outside ? Infinity : 0, maxOverRange: outside ? Infinity : 0, outside };
  }
  const a = new Float32Array(got.slice().buffer);
  const b = new Float32Array(want.slice().buffer);
  let range = 0;
  for (let i = 0; i < b.length; i++) range = Math.max(range, Math.abs(b[i]!));
  let maxAbs = 0;
  let outside = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (!(d <= REL_TOL * Math.abs(b[i]!) + RANGE_TOL * range)) outside++; // NaN counts as outside
    if (!(d <= maxAbs)) maxAbs = d;
  }
  return { index, name, elements: a.length, maxAbs, maxOverRange: range > 0 ? maxAbs / range : maxAbs, outside };
}

/**
 * The model as TFLite can run it: TFLite has no MediaPipe custom ops, so each
 * `Convolution2DTransposeBias` node becomes its builtin equivalent, TRANSPOSE_CONV (version 3, with the
 * bias input) on the same weights, padding and strides (its custom options are TFLite's
 * TfLiteTransposeConvParams: int32 padding (1 SAME, 2 VALID), stride_width, stride_height). Other
 * models are returned unchanged.
 */
export function tfliteEquivalent(bytes: Uint8Array): Uint8Array {
  const def = loadModel(bytes);
  const custom = def.operatorCodes.findIndex((c) => c.customCode === 'Convolution2DTransposeBias');
  if (custom < 0) return bytes;
  def.operatorCodes.push({
    builtinCode: BuiltinOperator.TRANSPOSE_CONV,
    deprecatedBuiltinCode: BuiltinOperator.TRANSPOSE_CONV,
    customCode: null,
    version: 3,
  });
  const tconv = def.operatorCodes.length - 1;
  for (const sg of def.subgraphs) {
    for (const node of sg.operators) {
      if (node.opcodeIndex !== custom) continue;
      const o = node.customOptions!;
      const opt = new DataView(o.buffer, o.byteOffset, o.byteLength);
      const padding = opt.getInt32(0, true) === 2 ? Padding.VALID : Padding.SAME;
      def.buffers.push({ data: new Uint8Array(Int32Array.from(sg.tensors[node.outputs[0]!]!.shape).buffer) });
      sg.tensors.push({
        name: `${sg.tensors[node.outputs[0]!]!.name}/output_shape`,
        type: TensorType.INT32,
        shape: Int32Array.of(4),
        buffer: def.buffers.length - 1,
        quantization: null,
        isVariable: false,
      });
      node.opcodeIndex = tconv;
      // custom op: (input, weights, bias); TRANSPOSE_CONV: (output_shape, weights, input, bias)
      node.inputs = Int32Array.of(sg.tensors.length - 1, node.inputs[1]!, node.inputs[0]!, node.inputs[2]!);
      node.builtinOptionsType = BuiltinOptionsType.TransposeConvOptions;
      node.builtinOptions = {
        padding,
        strideW: opt.getInt32(4, true),
        strideH: opt.getInt32(8, true),
        fusedActivationFunction: ActivationFunctionType.NONE,
        quantizedBiasType: 0,
      };
      node.customOptions = null;
    }
  }
  return writeModel(def);
}

/** MediaPipe custom ops with no TFLite builtin equivalent (face_landmark_with_attention's refinement heads). */
const NO_EQUIVALENT = new Set(['Landmarks2TransformMatrix', 'TransformTensorBilinear', 'TransformLandmarks']);

/**
 * The part of the model TFLite can run when it has custom ops without a builtin equivalent: every node
 * that uses such an op, or reads (directly or not) what one produces, is removed; the outputs are the
 * model's outputs that are still produced, then every tensor a removed custom node read. micrort and
 * TFLite both run this part (the custom ops themselves are checked by @micrort/ops-mediapipe's tests;
 * micrort runs the whole model in `micrort check`). Returns null when the model has no such op.
 */
export function tfliteComparablePart(bytes: Uint8Array): { bytes: Uint8Array; removed: number } | null {
  const def = loadModel(bytes);
  const codes = new Set(def.operatorCodes.flatMap((c, i) => (c.customCode && NO_EQUIVALENT.has(c.customCode) ? [i] : [])));
  if (!codes.size) return null;
  const sg = def.subgraphs[0]!;
  const tainted = new Set<number>();
  const cut = new Set<number>();
  const kept = sg.operators.filter((op) => {
    const custom = codes.has(op.opcodeIndex);
    if (custom || Array.from(op.inputs).some((t) => tainted.has(t))) {
      for (const t of op.outputs) tainted.add(t);
      if (custom) for (const t of op.inputs) if (t >= 0) cut.add(t);
      return false;
    }
    return true;
  });
  const outputs = [
    ...Array.from(sg.outputs).filter((t) => !tainted.has(t)),
    ...[...cut].filter((t) => !tainted.has(t) && !sg.outputs.includes(t)),
  ];
  const constant = (t: number) => (def.buffers[sg.tensors[t]!.buffer]?.data.byteLength ?? 0) > 0;
  const removed = sg.operators.length - kept.length;
  sg.operators = kept;
  sg.outputs = Int32Array.from(outputs.filter((t) => !constant(t) && !sg.inputs.includes(t)));
  return { bytes: writeModel(def), removed };
}

/** Runs `bytes` in micrort and (its TFLite equivalent) in TFLite on the same inputs; per-output differences. */
function compare(bytes: Uint8Array): OutputDiff[] {
  const oracle = new TfliteOracle(tfliteEquivalent(bytes));
  const inputs = randomInputs(oracle.inputs, 0x5eed1234, INPUT_RANGE);
  const expected = oracle.run(inputs);
  const interp = new MicroInterpreter(loadModel(bytes), runtime.make(), {
    planner: createPlanner('greedy'),
    arena: 'auto',
  }).allocateTensors();
  try {
    inputs.forEach((b, i) => interp.setInput(i, b));
    interp.invoke();
    return expected.map((e, j) => diff(j, oracle.outputs[j]!.name, tensorTypeName(interp.output(j).type), interp.output(j).bytes, e));
  } finally {
    interp.dispose();
  }
}

const fmt = (x: number) => (x === 0 ? '0' : Number.isFinite(x) ? x.toExponential(1) : '∞');

if (!oracleAvailable) it.skip(`corpus vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});
if (runtime.note) console.log(runtime.note);

describe('real-model corpus: micrort vs TFLite', () => {
  it('lists the 20 MediaPipe models', () => {
    expect(CORPUS.length).toBe(20);
  });

  for (const m of CORPUS) {
    const compared = FULL || !BIG.has(m.name) || m.name === SAMPLE;
    it(`${m.name}: ${compared ? 'runs and matches TFLite' : 'micrort check passes (big model: compared with TFLite by pnpm corpus:check)'}`, () => {
      const row: Row = { model: m.name, mb: '', check: '', maxAbs: '', maxRange: '', result: 'FAIL' };
      rows.set(m.name, row);
      const bytes = corpusBytes(m);
      row.mb = (bytes.byteLength / 1e6).toFixed(1);
      const check = checked.get(m.name);
      row.check = check?.summary ?? 'not checked';
      expect(check?.ok, `${m.name}: micrort check says ${row.check}`).toBe(true);
      if (!compared || !oracleAvailable) {
        row.result = compared ? 'runs (oracle unavailable)' : 'not compared (CI sample)';
        return;
      }
      const part = tfliteComparablePart(bytes);
      if (part) row.check += `; vs TFLite: the ${part.removed} nodes of and after its custom ops left out`;
      const diffs = compare(part ? part.bytes : bytes);
      const worst = (k: 'maxAbs' | 'maxOverRange') => Math.max(...diffs.map((d) => d[k]));
      row.maxAbs = fmt(worst('maxAbs'));
      row.maxRange = fmt(worst('maxOverRange'));
      const bad = diffs.filter((d) => d.outside !== 0);
      row.result = bad.length
        ? `FAIL: ${bad.map((d) => `output ${d.index} (${d.name}) ${d.outside}/${d.elements} outside`).join('; ')}`
        : `matches (${diffs.length} outputs)`;
      expect(bad, `${m.name}: outputs outside |Δ| ≤ ${REL_TOL}·|TFLite| + ${RANGE_TOL}·range`).toEqual([]);
    });
  }
});

afterAll(() => {
  if (!rows.size) return;
  const head: (keyof Row)[] = ['model', 'mb', 'check', 'maxAbs', 'maxRange', 'result'];
  const titles: Record<keyof Row, string> = {
    model: 'model',
    mb: 'MB',
    check: 'micrort check',
    maxAbs: 'max |Δ|',
    maxRange: 'max |Δ|/range',
    result: 'vs TFLite',
  };
  const list = CORPUS.map((m: CorpusModel) => rows.get(m.name)).filter((r): r is Row => !!r);
  const width = head.map((k) => Math.max(titles[k].length, ...list.map((r) => r[k].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(width[i]!))
      .join('  ')
      .trimEnd();
  console.log(
    [
      '',
      `real-model corpus vs TFLite (${FULL ? 'full set' : 'CI sample; MICRORT_CORPUS=full for all'}; tolerance |Δ| ≤ ${REL_TOL}·|TFLite| + ${RANGE_TOL}·range)`,
      line(head.map((k) => titles[k])),
      line(width.map((w) => '-'.repeat(w))),
      ...list.map((r) => line(head.map((k) => r[k]))),
    ].join('\n'),
  );
});
