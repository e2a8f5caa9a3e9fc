/**
 * An SSD detector's tail as a small model: TFLite_Detection_PostProcess (6 boxes, 2 classes plus
 * background, max_detections 3, fast NMS) whose four outputs have no shape in the file, as SSD exports that
 * leave them to TFLite's dynamic resize write them. micrort's kernel sizes them in prepare, as TFLite's
 * Prepare does; under TFLM's rule (`shapes: 'file'`), which `micrort deploy` and `micrort plan` use to
 * predict TFLM, they are refused and those tools plan the node with a stand-in (tests of both use it).
 */
import { ModelBuilder, TensorType } from '@micrort/core';
import { flexMap } from './flexbuffers.js';

/** max_detections of {@link ssdPostProcessModel}. */
export const SSD_MAX_DETECTIONS = 3;

/** The model's bytes: inputs box_encodings [1,6,4] and class_predictions [1,6,3], constant anchors [6,4]. */
export function ssdPostProcessModel(): Uint8Array {
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const boxes = b.addTensor({ name: 'box_encodings', type: F, shape: [1, 6, 4] });
  const scores = b.addTensor({ name: 'class_predictions', type: F, shape: [1, 6, 3] });
  const anchors = b.addTensor({ name: 'anchors', type: F, shape: [6, 4], data: new Float32Array(24).fill(0.5) });
  const outputs = ['detection_boxes', 'detection_classes', 'detection_scores', 'num_detections'].map((name) =>
    b.addTensor({ name, type: F, shape: [] }),
  );
  const options = flexMap({
    max_detections: SSD_MAX_DETECTIONS,
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
  });
  b.addOperator({ op: { custom: 'TFLite_Detection_PostProcess' }, inputs: [boxes, scores, anchors], outputs, customOptions: options });
  return b.setInputs([boxes, scores]).setOutputs(outputs).build();
}
