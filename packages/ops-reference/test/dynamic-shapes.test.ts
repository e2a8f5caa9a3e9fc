/**
 * Dynamic shapes through the interpreter, against TFLite 2.9: converter-shaped models whose files leave
 * shapes open (empty output shapes, placeholder 1s under a `shape_signature` -1, SHAPE → arithmetic →
 * PACK subgraphs computing paddings, crops and reshape targets) run with the shapes kernels compute in
 * prepare; `resizeInputTensor` + `allocateTensors()` re-plans them for another input shape. TFLite's
 * oracle cannot resize, so it runs the same model written at the shape micrort was resized to.
 */
import { describe, expect, it } from 'vitest';
import { InputError, InterpreterStateError, MicroInterpreter, loadModel, tensorTypeName, type ShapeNote } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { compareBytes, referenceResolver } from '@micrort/test-support/conformance';
import {
  SSD_TAIL_MAX_DETECTIONS,
  dilatedConvModel,
  dynamicBatchModel,
  emptyShapeAddModel,
  ssdTailModel,
} from '@micrort/test-support/dynamic-models';
import {
  ORACLE_SKIP_REASON,
  TfliteOracle,
  oracleAvailable,
  randomInputs,
  type OracleTensorInfo,
} from '@micrort/test-support/tflite-oracle';

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
}

/** One expected graph output: TFLite's shape and bytes. */
interface Expected {
  name: string;
  shape: number[];
  bytes: Uint8Array;
}

/** TFLite's outputs from an interpreter kept over the model (shapes as TFLite's AllocateTensors sized them). */
function fromOracle(oracle: TfliteOracle, inputs: Uint8Array[]): Expected[] {
  const bytes = oracle.run(inputs);
  return oracle.outputs.map((o: OracleTensorInfo, j) => ({ name: o.name, shape: o.shape, bytes: bytes[j]! }));
}

/** Runs `interp` (allocated) on `inputs` and compares every output's dims and bytes with TFLite's. */
function compare(interp: MicroInterpreter, inputs: Uint8Array[], expected: (inputs: Uint8Array[]) => Expected[]): string[] {
  const want = expected(inputs);
  inputs.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  const problems: string[] = [];
  want.forEach((e, j) => {
    const out = interp.output(j);
    if (Array.from(out.dims).join(',') !== e.shape.join(','))
      problems.push(`output ${j} (${e.name}): dims [${Array.from(out.dims).join(', ')}], TFLite [${e.shape.join(', ')}]`);
    const r = compareBytes(tensorTypeName(out.type), out.bytes.slice(), e.bytes, j);
    if (!r.pass) problems.push(`output ${j} (${e.name}): ${r.mismatches}/${r.elements} differ (max ${r.maxAbsDiff})`);
  });
  return problems;
}

function notes(interp: MicroInterpreter, kind: ShapeNote['kind']): string[] {
  return (interp.check().shapes ?? []).filter((n) => n.kind === kind).map((n) => n.name);
}

describe.skipIf(!oracleAvailable)(`dynamic shapes vs TFLite 2.9${ORACLE_SKIP_REASON ? ` (${ORACLE_SKIP_REASON})` : ''}`, () => {
  it('an ADD whose output the file stores with an empty shape', () => {
    const bytes = emptyShapeAddModel();
    const oracle = new TfliteOracle(bytes);
    const interp = interpreter(bytes).allocateTensors();
    expect(compare(interp, randomInputs(oracle.inputs, 1), (i) => fromOracle(oracle, i))).toEqual([]);
    expect(Array.from(interp.output(0).dims)).toEqual([2, 3]);
    expect(notes(interp, 'inferred')).toEqual(['y']);
  });

  it('an SSD tail: TFLite_Detection_PostProcess outputs stored with empty shapes', () => {
    const bytes = ssdTailModel();
    const oracle = new TfliteOracle(bytes);
    const interp = interpreter(bytes).allocateTensors();
    for (const seed of [1, 2, 3])
      expect(compare(interp, randomInputs(oracle.inputs, seed, [-2, 2]), (i) => fromOracle(oracle, i))).toEqual([]);
    const n = SSD_TAIL_MAX_DETECTIONS;
    expect(oracle.outputs.map((o) => o.shape)).toEqual([[1, n, 4], [1, n], [1, n], [1]]);
    expect(new Float32Array(interp.output(3).bytes.slice().buffer)[0]).toBeGreaterThan(0);
    expect(notes(interp, 'inferred')).toEqual(['detection_boxes', 'detection_classes', 'detection_scores', 'num_detections']);
  });

  it('a dilated convolution whose paddings and crops come from SHAPE(x): folded in prepare', () => {
    const bytes = dilatedConvModel([1, 9, 9, 2]);
    // TFLite 2.9 crashes (SIGSEGV) on the dynamic form: it runs the static twin (constant paddings/crops).
    const oracle = new TfliteOracle(dilatedConvModel([1, 9, 9, 2], 'static'));
    const interp = interpreter(bytes).allocateTensors();
    for (const seed of [1, 2]) expect(compare(interp, randomInputs(oracle.inputs, seed), (i) => fromOracle(oracle, i))).toEqual([]);
    expect(Array.from(interp.output(0).dims)).toEqual([1, 5, 5, 3]);
    // The shape arithmetic ran once, in prepare: only the three spatial nodes run at invoke.
    const run = interp
      .nodes()
      .filter((n) => !n.folded)
      .map((n) => n.op);
    expect(run).toEqual(['SPACE_TO_BATCH_ND', 'CONV_2D', 'BATCH_TO_SPACE_ND']);
    expect(notes(interp, 'folded')).toEqual(expect.arrayContaining(['dilated/shape', 'dilated/paddings', 'dilated/crops']));
    expect(notes(interp, 'inferred')).toEqual(expect.arrayContaining(['dilated/space_to_batch', 'conv', 'y']));
  });

  it('a dynamic batch: RESHAPE and BROADCAST_TO targets packed from SHAPE(x)[0], an empty-shaped ADD', () => {
    const bytes = dynamicBatchModel(1);
    const oracle = new TfliteOracle(bytes);
    const interp = interpreter(bytes).allocateTensors();
    // BROADCAST_TO's shape input is computed: TFLite resizes its output (and the ADD's) at eval, and its
    // output buffers keep their earlier size, so it runs the same graph with the real shapes stored.
    const twin = new TfliteOracle(dynamicBatchModel(1, true));
    expect(compare(interp, randomInputs(oracle.inputs, 4), (i) => fromOracle(twin, i))).toEqual([]);
    expect(Array.from(interp.output(0).dims)).toEqual([2, 1, 2, 3]);
  });

  it('resizeInputTensor + allocateTensors: the dilated convolution at other spatial sizes and batches', () => {
    const interp = interpreter(dilatedConvModel([1, 9, 9, 2])).allocateTensors();
    for (const shape of [
      [2, 13, 11, 2],
      [1, 10, 10, 2],
      [3, 7, 12, 2],
      [1, 9, 9, 2],
    ]) {
      interp.resizeInputTensor(0, shape, { strict: true });
      expect(interp.status).toBe('resized');
      expect(() => interp.invoke()).toThrow(InterpreterStateError);
      interp.allocateTensors();
      expect(Array.from(interp.input(0).dims)).toEqual(shape);
      const oracle = new TfliteOracle(dilatedConvModel(shape, 'static'));
      expect(
        compare(interp, randomInputs(oracle.inputs, shape[1]!), (i) => fromOracle(oracle, i)),
        `input [${shape.join(', ')}]`,
      ).toEqual([]);
      expect(Array.from(interp.output(0).dims)).toEqual([shape[0], shape[1]! - 4, shape[2]! - 4, 3]);
    }
  });

  it('a -1 batch input resized to 3 and 5 (strict: only the -1 dimension may change)', () => {
    const interp = interpreter(dynamicBatchModel(1)).allocateTensors();
    expect(Array.from(interp.input(0).shapeSignature ?? [])).toEqual([-1, 4]);
    expect(() => interp.resizeInputTensor(0, [3, 5], { strict: true })).toThrow(InputError);
    expect(() => interp.resizeInputTensor(0, [3], { strict: true })).toThrow(InputError);
    for (const batch of [3, 5]) {
      interp.resizeInputTensor(0, [batch, 4], { strict: true });
      interp.allocateTensors();
      const oracle = new TfliteOracle(dynamicBatchModel(batch, true));
      expect(
        compare(interp, randomInputs(oracle.inputs, batch), (i) => fromOracle(oracle, i)),
        `batch ${batch}`,
      ).toEqual([]);
      expect(Array.from(interp.output(0).dims)).toEqual([2, batch, 2, 3]);
    }
    expect(notes(interp, 'resized')).toEqual(['x']);
  });

  it("shapes: 'file' (TFLM's rule) refuses the empty output shape with a TensorResizeError naming both shapes", () => {
    const interp = new MicroInterpreter(loadModel(emptyShapeAddModel()), referenceResolver(), {
      planner: createPlanner('greedy'),
      arena: 'auto',
      shapes: 'file',
    });
    expect(() => interp.allocateTensors()).toThrow(/has shape \[\] in the file; the inputs give \[2, 3\]/);
  });
});
