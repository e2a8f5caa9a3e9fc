/**
 * The models the apps offer without a file, made by the model writer on the spot (nothing is
 * downloaded): `micrort run demo`, the page's model picker. Adding one is one entry here. The float
 * CNN comes from its own module of @micrort/ops-gpu, so a bundled page loads gpu.js only with the GPU
 * delegate.
 */
import { buildFloatCnn } from '@micrort/ops-gpu/float-cnn';
import { buildDemoModel } from './demo-model.js';

/** A model made by the model writer. */
export interface BuiltInModel {
  /** The name apps know it by (`micrort run demo:float-cnn`). */
  readonly name: string;
  /** One line: what it is. */
  readonly label: string;
  /** Its ops, for a picker. */
  readonly ops: string;
  /** The model's bytes (a .tflite file's). */
  build(): Uint8Array;
}

/** The built-in models, the default (`demo`) first. */
export const BUILT_IN_MODELS: readonly BuiltInModel[] = [
  {
    name: 'demo',
    label: 'int8 MLP classifier, made by the model writer',
    ops: 'QUANTIZE, FC, FC, SOFTMAX, DEQUANTIZE',
    build: buildDemoModel,
  },
  {
    name: 'demo:float-cnn',
    label: 'float CNN, made by the model writer',
    ops: 'conv, depthwise, pooling, FC, softmax',
    build: buildFloatCnn,
  },
];

/** The built-in model called `name`, or undefined. */
export function builtInModel(name: string): BuiltInModel | undefined {
  return BUILT_IN_MODELS.find((m) => m.name === name);
}
