import { describe, expect, it } from 'vitest';
import { BuiltinOperator, TensorType } from '@micrort/core';
import {
  DEFAULT_DETECTIONS_PER_CLASS,
  DETECTION_POSTPROCESS,
  intersectionOverUnion,
  readDetectionOptions,
} from './detection-postprocess.js';
import { type FlexEntry, flexMap } from '@micrort/test-support/flexbuffers';
import { harness, invokeError, prepareError, spec } from './__fixtures__/data-testing.js';

// TFLM detection_postprocess_test.cc: six boxes, two classes (+ background), six anchors.
const BOXES = [0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
const SCORES = [0, 0.9, 0.8, 0, 0.75, 0.72, 0, 0.6, 0.5, 0, 0.93, 0.95, 0, 0.5, 0.4, 0, 0.3, 0.2];
const ANCHORS = [0.5, 0.5, 1, 1, 0.5, 0.5, 1, 1, 0.5, 0.5, 1, 1, 0.5, 10.5, 1, 1, 0.5, 10.5, 1, 1, 0.5, 100.5, 1, 1];
const OPTIONS: Record<string, FlexEntry> = {
  max_detections: 3,
  max_classes_per_detection: 1,
  detections_per_class: 1,
  use_regular_nms: false,
  nms_score_threshold: { float: 0 },
  nms_iou_threshold: { float: 0.5 },
  num_classes: 2,
  y_scale: { float: 10 },
  x_scale: { float: 10 },
  h_scale: { float: 5 },
  w_scale: { float: 5 },
};

function detect(
  options: Record<string, FlexEntry>,
  o: { boxes?: number[]; boxShape?: number[]; scores?: number[]; scoreShape?: number[]; anchors?: number[]; slots?: number } = {},
) {
  const slots = o.slots ?? 3;
  const F = TensorType.FLOAT32;
  return harness(
    DETECTION_POSTPROCESS,
    [
      spec(F, o.boxShape ?? [1, 6, 4], o.boxes ?? BOXES),
      spec(F, o.scoreShape ?? [1, 6, 3], o.scores ?? SCORES),
      spec(F, [6, 4], o.anchors ?? ANCHORS, { constant: true }),
      spec(F, [1, slots, 4]),
      spec(F, [1, slots]),
      spec(F, [1, slots]),
      spec(F, [1]),
    ],
    3,
    null,
    flexMap(options),
  );
}

const f = (v: number[]) => v.map(Math.fround);

describe('TFLite_Detection_PostProcess', () => {
  it('is the custom op TFLite_Detection_PostProcess', () => {
    expect(DETECTION_POSTPROCESS.builtinCode).toBe(BuiltinOperator.CUSTOM);
    expect(DETECTION_POSTPROCESS.customName).toBe('TFLite_Detection_PostProcess');
  });

  it('TFLM DetectionPostprocessFloatFastNMS: the golden boxes, classes, scores and count', () => {
    const h = detect(OPTIONS).invoke();
    expect(h.outputArray(0)).toEqual([0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101]);
    expect(h.outputArray(1)).toEqual([1, 0, 0]);
    expect(h.outputArray(2)).toEqual(f([0.95, 0.9, 0.3]));
    expect(h.outputArray(3)).toEqual([3]);
  });

  it('TFLM DetectionPostprocessFloatRegularNMS (one detection per class; unused slots zero-filled)', () => {
    const h = detect({ ...OPTIONS, use_regular_nms: true }).invoke();
    // class 1: box 3 (0.95); class 0: box 3 (0.93) — the TFLM test checks 0.9 with tolerance 0.1
    expect(h.outputArray(0)).toEqual([0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 0, 0]);
    expect(h.outputArray(1)).toEqual([1, 0, 0]);
    expect(h.outputArray(2)).toEqual(f([0.95, 0.93, 0]));
    expect(h.outputArray(3)).toEqual([2]);
  });

  it('no background class and 5-value box encodings (TFLM ...NoBackgroundClassAndKeypoints)', () => {
    const boxes5: number[] = [];
    for (let i = 0; i < 6; i++) boxes5.push(...BOXES.slice(4 * i, 4 * i + 4), 1);
    const noBg = SCORES.filter((_, i) => i % 3 !== 0);
    const h = detect({ ...OPTIONS }, { boxes: boxes5, boxShape: [1, 6, 5], scores: noBg, scoreShape: [1, 6, 2] }).invoke();
    expect(h.outputArray(0)).toEqual([0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101]);
    expect(h.outputArray(1)).toEqual([1, 0, 0]);
    expect(h.outputArray(3)).toEqual([3]);
  });

  it('regular NMS with the default detections_per_class (100) keeps several boxes per class', () => {
    const { detections_per_class: _, ...rest } = OPTIONS;
    expect(readDetectionOptions(detect({ ...rest, use_regular_nms: true }).node).detectionsPerClass).toBe(DEFAULT_DETECTIONS_PER_CLASS);
    const h = detect({ ...rest, use_regular_nms: true, nms_score_threshold: { float: 0.7 } }).invoke();
    // class 1: box 3 (.95), box 0 (.8); class 0: box 3 (.93), box 0 (.9) -> top 3 by score
    expect(h.outputArray(2)).toEqual(f([0.95, 0.93, 0.9]));
    expect(h.outputArray(1)).toEqual([1, 0, 0]);
    expect(h.outputArray(3)).toEqual([3]);
  });

  it("fast NMS with 2 classes per detection leaves TFLM's gaps (its output index advances per class), as 0", () => {
    const h = detect({ ...OPTIONS, max_classes_per_detection: 2 }, { slots: 6 });
    h.prepare();
    h.output<Float32Array>(2).fill(-1); // TFLM would leave these bytes in the gaps; micrort writes 0
    h.invoke();
    // box 3 -> slots 0 (class 1) and 3 (class 0); box 0 -> slot 4 (class 0), its class 1 goes to slot 7 (dropped)
    expect(h.outputArray(2)).toEqual(f([0.95, 0, 0, 0.93, 0.9, 0]));
    expect(h.outputArray(1).slice(0, 5)).toEqual([1, 0, 0, 0, 0]);
    expect(h.outputArray(3)).toEqual([6]);
  });

  it("outputs with room past max_detections get 0 there, with both NMS kinds (TFLM leaves the arena's bytes)", () => {
    for (const use_regular_nms of [false, true]) {
      const h = detect({ ...OPTIONS, use_regular_nms }, { slots: 5 });
      h.prepare();
      for (let i = 0; i < 3; i++) h.output<Float32Array>(i).fill(-7);
      h.invoke();
      expect(h.outputArray(0).slice(12)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expect([h.outputArray(1).slice(3), h.outputArray(2).slice(3)]).toEqual([
        [0, 0],
        [0, 0],
      ]);
    }
  });

  it("fast NMS with 2 classes per detection never writes past its outputs (TFLM's index would)", () => {
    const h = detect({ ...OPTIONS, max_classes_per_detection: 2 }, { slots: 6 });
    h.prepare();
    // give each output room past its end, filled with a sentinel: TFLM's index reaches slot 7
    for (const [i, per] of [
      [0, 4],
      [1, 1],
      [2, 1],
    ] as const) {
      const t = h.tensors[3 + i]!;
      const longer = new Float32Array(t.data.length + 8 * per).fill(-9);
      t.data = longer;
    }
    h.invoke();
    for (const [i, per] of [
      [0, 4],
      [1, 1],
      [2, 1],
    ] as const)
      expect(Array.from(h.output<Float32Array>(i).slice(6 * per)), `output ${i}`).toEqual(new Array(8 * per).fill(-9));
    expect(h.outputArray(3)).toEqual([6]); // counted as TFLM counts
  });

  it("equal scores keep the lower box first (TFLM's stable merge sort)", () => {
    const tied = [0, 0.5, 0.1, 0, 0.1, 0.1, 0, 0.1, 0.1, 0, 0.1, 0.1, 0, 0.1, 0.1, 0, 0.5, 0.1];
    const h = detect({ ...OPTIONS, nms_score_threshold: { float: 0.3 } }, { scores: tied }).invoke();
    expect(h.outputArray(0).slice(0, 8)).toEqual([0, 0, 1, 1, 0, 100, 1, 101]);
    expect(h.outputArray(3)).toEqual([2]);
  });

  it('IoU in float32: identical boxes 1, disjoint 0, an empty box 0', () => {
    const boxes = Float32Array.from([0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 1, 3, 0, 0, 0, 1]);
    expect(intersectionOverUnion(boxes, 0, 1)).toBe(1);
    expect(intersectionOverUnion(boxes, 0, 2)).toBe(0);
    expect(intersectionOverUnion(boxes, 0, 3)).toBe(0);
  });

  it("allocates TFLM's 112-byte OpData and its eleven scratch buffers in TFLM's order and sizes", () => {
    const h = detect(OPTIONS).prepare();
    expect(h.persistentBytes).toBe(112);
    expect(h.scratchSizes).toEqual([6, 96, 72, 24, 24, 72, 72, 24, 72, 72, 72]);
  });

  it('an empty or inverted decoded box fails the invoke, as in TFLM', () => {
    const flat = ANCHORS.slice();
    flat[2 + 4 * 2] = 0; // anchor 2 height 0 -> ymin == ymax
    expect(invokeError(detect(OPTIONS, { anchors: flat })).message).toMatch(/decoded box 2 is empty or inverted/);
  });

  it('refuses missing or mistyped options, bad thresholds, mismatched shapes, int16 and unquantized int8 inputs', () => {
    const { num_classes: _, ...noClasses } = OPTIONS;
    expect(prepareError(detect(noClasses)).message).toMatch(/custom options: flexbuffer: option "num_classes" is missing/);
    expect(prepareError(detect({ ...OPTIONS, nms_iou_threshold: { float: 1.5 } })).message).toMatch(
      /nms_iou_threshold must be in \(0, 1\], got 1.5/,
    );
    expect(prepareError(detect({ ...OPTIONS, num_classes: 4 })).message).toMatch(/3 classes per box; num_classes 4 allows 4 or 5/);
    expect(prepareError(detect({ ...OPTIONS, max_classes_per_detection: 0 })).message).toMatch(/max_classes_per_detection must be > 0/);
    expect(prepareError(detect({ ...OPTIONS, use_regular_nms: true, detections_per_class: 0 })).message).toMatch(
      /detections_per_class must be > 0/,
    );
    expect(prepareError(detect(OPTIONS, { boxes: BOXES.slice(0, 20), boxShape: [1, 5, 4] })).message).toMatch(
      /class_predictions must have shape \[1, 5, classes\]/,
    );
    expect(prepareError(detect({ ...OPTIONS, max_detections: 4 })).message).toMatch(
      /detection_boxes \(shape \[1, 3, 4\]\) must hold at least 16 values/,
    );
    const outs = [
      spec(TensorType.FLOAT32, [1, 3, 4]),
      spec(TensorType.FLOAT32, [1, 3]),
      spec(TensorType.FLOAT32, [1, 3]),
      spec(TensorType.FLOAT32, [1]),
    ];
    const int16 = harness(
      DETECTION_POSTPROCESS,
      [
        spec(TensorType.INT16, [1, 6, 4], BOXES),
        spec(TensorType.FLOAT32, [1, 6, 3], SCORES),
        spec(TensorType.FLOAT32, [6, 4], ANCHORS),
        ...outs,
      ],
      3,
      null,
      flexMap(OPTIONS),
    );
    expect(int16.supportsAnswer()).toBe('int16 input (handles float32, uint8, int8)');
    expect(prepareError(int16).message).toMatch(/unsupported box_encodings type int16 \(tensor 0\)/);
    const int8 = harness(
      DETECTION_POSTPROCESS,
      [
        spec(TensorType.INT8, [1, 6, 4], BOXES),
        spec(TensorType.FLOAT32, [1, 6, 3], SCORES),
        spec(TensorType.FLOAT32, [6, 4], ANCHORS),
        ...outs,
      ],
      3,
      null,
      flexMap(OPTIONS),
    );
    expect(prepareError(int8).message).toMatch(/box_encodings \(tensor 0\) is int8 without a positive scale/);
    const noOptions = harness(
      DETECTION_POSTPROCESS,
      [
        spec(TensorType.FLOAT32, [1, 6, 4], BOXES),
        spec(TensorType.FLOAT32, [1, 6, 3], SCORES),
        spec(TensorType.FLOAT32, [6, 4], ANCHORS),
        spec(TensorType.FLOAT32, [1, 3, 4]),
        spec(TensorType.FLOAT32, [1, 3]),
        spec(TensorType.FLOAT32, [1, 3]),
        spec(TensorType.FLOAT32, [1]),
      ],
      3,
    );
    expect(prepareError(noOptions).message).toMatch(/custom options \(a FlexBuffers map\) are missing/);
  });
});

describe('TFLite_Detection_PostProcess with uint8 inputs (TFLite quantized SSD)', () => {
  it('gives the detections of the dequantized float32 inputs', () => {
    // scales chosen so every value dequantizes exactly: boxes 0.5 * (q - 128), scores (q - 0) / 256, anchors 0.5 * q
    const U = TensorType.UINT8;
    const boxesQ = BOXES.map((v) => v * 2 + 128);
    const scoresQ = SCORES.map((v) => Math.round(v * 256));
    const anchorsQ = ANCHORS.map((v) => v * 2);
    const outs = () => [
      spec(TensorType.FLOAT32, [1, 3, 4]),
      spec(TensorType.FLOAT32, [1, 3]),
      spec(TensorType.FLOAT32, [1, 3]),
      spec(TensorType.FLOAT32, [1]),
    ];
    for (const regular of [false, true]) {
      const options = flexMap({ ...OPTIONS, use_regular_nms: regular });
      const q = harness(
        DETECTION_POSTPROCESS,
        [
          spec(U, [1, 6, 4], boxesQ, { scale: 0.5, zeroPoint: 128 }),
          spec(U, [1, 6, 3], scoresQ, { scale: 1 / 256, zeroPoint: 0 }),
          spec(U, [6, 4], anchorsQ, { scale: 0.5, zeroPoint: 0, constant: true }),
          ...outs(),
        ],
        3,
        null,
        options,
      ).invoke();
      const fl = detect({ ...OPTIONS, use_regular_nms: regular }, { scores: scoresQ.map((v) => v / 256) }).invoke();
      for (let o = 0; o < 4; o++) expect(q.outputArray(o)).toEqual(fl.outputArray(o));
      expect(q.outputArray(3)[0]).toBeGreaterThan(0);
    }
  });
});
