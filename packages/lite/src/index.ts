/**
 * @micrort/lite — micrort for the common case, as LiteRT.js and tfjs-tflite users expect:
 *
 * ```ts
 * import { loadModel } from '@micrort/lite';
 * const model = await loadModel('mobilenet_v1_quant.tflite'); // a URL or the bytes; ops-wasm where SIMD128 runs
 * const top = model.classify(imageElement); // resized and normalized from the model's metadata: [{ index, label, score }, …]
 * const outputs = model.run({ image: pixels }); // inputs by name (or position, or one value); outputs by name
 * ```
 *
 * Inputs survive `invoke()` (a run without inputs runs the last ones again) unless `reuseInputMemory`
 * opts into TFLM's reuse of their memory. The TFLM-style API is underneath: `model.interpreter`.
 */
export {
  Model,
  ModelFetchError,
  loadModel,
  type InputInfo,
  type InputValue,
  type Inputs,
  type LoadOptions,
  type ModelSource,
  type Output,
  type OutputInfo,
  type Outputs,
  type Scored,
  type TensorInfo,
} from './model.js';
export { BASE_PACKAGES, composeKernels, type KernelChoice } from './kernels.js';
export {
  imageLayout,
  isImageSource,
  readPixels,
  resizePixels,
  writePixels,
  type DrawableImage,
  type ImageLayout,
  type ImageSource,
  type PixelNormalization,
  type Pixels,
} from './image.js';
export { ioNames, pickSignature } from './names.js';
