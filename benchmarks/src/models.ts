/**
 * The models the harness knows: the conformance models (../shared/conformance, with their case 0
 * inputs), the float CNNs MediaPipe's npm packages ship (@micrort/corpus), a float MobileNetV2-shaped
 * model made with the model writer, a tiny float CNN (the harness's own test), or any .tflite path.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS, corpusBytes } from '@micrort/corpus';
import { buildMobileNetV2Float } from './mobilenet-v2-float.js';
import { buildDeepLabV3Float } from './deeplab-v3-float.js';
import { buildMobileNetV2Hybrid } from './mobilenet-v2-hybrid.js';
import { buildMobileNetV2Uint8 } from './mobilenet-v2-uint8.js';
import { buildTinyFloatCnn } from './tiny-cnn.js';

/** A model's bytes and, when it has them, the input files every runtime is given. */
export interface LoadedModel {
  bytes: Uint8Array;
  /** Raw input bytes (conformance case 0), or null: the harness draws seeded inputs. */
  inputs: Uint8Array[] | null;
  /** Where the inputs come from, for the report. */
  inputSource: string;
}

/** A model the harness can bench. */
export interface BenchModel {
  name: string;
  kind: 'conformance' | 'corpus' | 'built' | 'file';
  description: string;
  load(): LoadedModel;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The conformance folder: $MICRORT_CONFORMANCE_DIR, else ../shared/conformance beside the repository; null when absent. */
export function conformanceDir(): string | null {
  const d = process.env['MICRORT_CONFORMANCE_DIR'] ?? resolve(REPO_ROOT, '..', 'shared', 'conformance');
  return existsSync(join(d, 'tflm_figures.json')) ? d : null;
}

function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  const out = new Uint8Array(b.byteLength);
  out.set(b);
  return out;
}

function conformanceModel(dir: string, name: string): BenchModel {
  return {
    name,
    kind: 'conformance',
    description: `conformance model (../shared/conformance/${name})`,
    load() {
      const manifest = JSON.parse(readFileSync(join(dir, name, 'manifest.json'), 'utf8')) as {
        cases: { name?: string; inputs: { file: string }[] }[];
      };
      const c = manifest.cases[0]!;
      const caseDir = join(dir, name, c.name ?? 'case0');
      return {
        bytes: readBytes(join(dir, name, 'model.tflite')),
        inputs: c.inputs.map((i) => readBytes(join(caseDir, i.file))),
        inputSource: `${name}/${c.name ?? 'case0'} input files`,
      };
    },
  };
}

const seeded = 'splitmix64 seed 1';

/** The float CNNs from @micrort/corpus the harness includes by default. */
export const CORPUS_MODELS = ['face_detection_short_range', 'hand_landmark_lite', 'selfie_segmentation'] as const;

/** Built models: name → builder. */
export const BUILT_MODELS: Readonly<Record<string, { description: string; build: () => Uint8Array }>> = {
  mobilenet_v2_float_224: {
    description: 'float MobileNetV2 shape, 224x224x3, seeded weights (model writer)',
    build: () => buildMobileNetV2Float(),
  },
  mobilenet_v2_uint8_224: {
    description: "uint8 MobileNetV2 shape, 224x224x3, TFLite's asymmetric quantization, seeded weights (model writer)",
    build: () => buildMobileNetV2Uint8(),
  },
  deeplab_v3_float_257: {
    description: 'float DeepLabV3 shape (MobileNetV2, output stride 16, 21 classes), 257x257x3, seeded weights (model writer)',
    build: () => buildDeepLabV3Float(),
  },
  mobilenet_v2_hybrid_224: {
    description:
      'hybrid MobileNetV2 shape, 224x224x3, float32 activations x int8 weights (dynamic-range quantization), seeded weights (model writer)',
    build: () => buildMobileNetV2Hybrid(),
  },
  tiny_float_cnn: { description: 'tiny float CNN, 8x8x3 (model writer; the harness test)', build: buildTinyFloatCnn },
};

/** Every model the harness can name (conformance ones only when the folder is there). */
export function modelCatalog(): BenchModel[] {
  const out: BenchModel[] = [];
  const dir = conformanceDir();
  if (dir)
    for (const name of readdirSync(dir).sort())
      if (existsSync(join(dir, name, 'model.tflite')) && existsSync(join(dir, name, 'manifest.json')))
        out.push(conformanceModel(dir, name));
  for (const m of CORPUS) {
    out.push({
      name: m.name,
      kind: 'corpus',
      description: `${m.description} (${m.pkg})`,
      load: () => ({ bytes: corpusBytes(m), inputs: null, inputSource: seeded }),
    });
  }
  for (const [name, m] of Object.entries(BUILT_MODELS))
    out.push({ name, kind: 'built', description: m.description, load: () => ({ bytes: m.build(), inputs: null, inputSource: seeded }) });
  return out;
}

/** The default set: the conformance models, the corpus float CNNs, the float and uint8 MobileNetV2 shapes and the float DeepLabV3 shape. */
export function defaultModels(): BenchModel[] {
  const all = modelCatalog();
  return all.filter(
    (m) =>
      m.kind === 'conformance' ||
      (CORPUS_MODELS as readonly string[]).includes(m.name) ||
      m.name === 'mobilenet_v2_float_224' ||
      m.name === 'mobilenet_v2_uint8_224' ||
      m.name === 'deeplab_v3_float_257',
  );
}

/** A model by catalog name, or a .tflite path. */
export function findModel(name: string): BenchModel {
  const m = modelCatalog().find((x) => x.name === name);
  if (m) return m;
  if (name.endsWith('.tflite') && existsSync(name))
    return {
      name: basename(name, '.tflite'),
      kind: 'file',
      description: name,
      load: () => ({ bytes: readBytes(name), inputs: null, inputSource: seeded }),
    };
  throw new Error(
    `unknown model "${name}": not a .tflite file, nor one of ${modelCatalog()
      .map((x) => x.name)
      .join(', ')}`,
  );
}
