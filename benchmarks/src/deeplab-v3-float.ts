/**
 * A float32 DeepLabV3 with a MobileNetV2 backbone, the shape of TensorFlow's mobile segmentation model
 * (`deeplabv3_257_mv_gpu.tflite`), made with the model writer: a 257x257x3 input, MobileNetV2's blocks at
 * output stride 16 (the last stride-2 stage keeps stride 1 and its depthwise layers and those after it are
 * dilated by 2), DeepLab's head for MobileNetV2 — image pooling (AVERAGE_POOL_2D over the whole 17x17 map,
 * a 1x1 conv to 256, RESIZE_BILINEAR back to 17x17) beside a 1x1 conv to 256, CONCATENATION, a 1x1
 * projection to 256, the 1x1 logits conv to 21 classes — and RESIZE_BILINEAR (align_corners) of the
 * logits to 257x257. Deterministic random weights (variance 1/fan-in): it measures speed and agreement
 * between runtimes on a real-sized segmentation network, not accuracy.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import { FloatNet } from './mobilenet-v2-float.js';

/** Options of {@link buildDeepLabV3Float}. */
export interface DeepLabV3Options {
  /** Input height and width (default 257). */
  size?: number;
  /** Classes of the logits (default 21, PASCAL VOC's). */
  classes?: number;
}

/** Builds the float DeepLabV3-shaped model as .tflite bytes (about 9 MB of float32 weights). */
export function buildDeepLabV3Float(options: DeepLabV3Options = {}): Uint8Array {
  const size = options.size ?? 257;
  const classes = options.classes ?? 21;
  const net = new FloatNet('micrort benchmarks: float DeepLabV3 (MobileNetV2, output stride 16) shape (untrained, seeded weights)');
  const b = net.b;
  const x = net.act('input', [1, size, size, 3]);
  const { y, h, c } = net.mobileNetV2Blocks(x, size, 16);
  const resize = (name: string, input: number, to: number, channels: number) => {
    const sizeT = b.addTensor({ name: `${name}/size`, type: TensorType.INT32, shape: [2], data: Int32Array.of(to, to) });
    const out = net.act(name, [1, to, to, channels]);
    b.addOperator({
      op: BuiltinOperator.RESIZE_BILINEAR,
      inputs: [input, sizeT],
      outputs: [out],
      options: { alignCorners: true, halfPixelCenters: false },
    });
    return out;
  };
  // image pooling branch
  const pooled = net.globalAveragePool('image_pooling', y, h, c);
  const pooledConv = net.conv('image_pooling/conv', pooled, 1, c, 256, 1, 1, 'relu');
  const upPooled = resize('image_pooling/resize', pooledConv.y, h, 256);
  // 1x1 branch
  const aspp0 = net.conv('aspp0', y, h, c, 256, 1, 1, 'relu');
  const concat = net.act('concat', [1, h, h, 512]);
  b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: [upPooled, aspp0.y], outputs: [concat], options: { axis: 3 } });
  const projection = net.conv('concat_projection', concat, h, 512, 256, 1, 1, 'relu');
  const logits = net.conv('logits', projection.y, h, 256, classes, 1, 1, 'none');
  const out = resize('ResizeBilinear', logits.y, size, classes);
  return b.setInputs([x]).setOutputs([out]).build();
}
