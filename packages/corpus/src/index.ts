/**
 * @micrort/corpus — the real-model corpus: `.tflite` files that public npm packages ship (MediaPipe's
 * solution packages), installed as ordinary dependencies of this private package. Nothing is downloaded
 * at test or run time; `corpusModels()` lists the files with where they come from.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/** One real model file of the corpus. */
export interface CorpusModel {
  /** Short unique name, e.g. `face_detection_short_range`. */
  name: string;
  /** The npm package that ships it. */
  pkg: string;
  /** File name inside the package. */
  file: string;
  /** What the model is (task, input, precision as shipped). */
  description: string;
}

/** Every model of the corpus (one entry per distinct file; pose files also ship in @mediapipe/holistic). */
export const CORPUS: readonly CorpusModel[] = [
  {
    name: 'face_detection_short_range',
    pkg: '@mediapipe/face_detection',
    file: 'face_detection_short_range.tflite',
    description: 'BlazeFace short range, 128x128 RGB, float16 weights',
  },
  {
    name: 'face_detection_full_range',
    pkg: '@mediapipe/face_detection',
    file: 'face_detection_full_range.tflite',
    description: 'BlazeFace full range, 192x192 RGB, float16 weights',
  },
  {
    name: 'face_detection_full_range_sparse',
    pkg: '@mediapipe/face_detection',
    file: 'face_detection_full_range_sparse.tflite',
    description: 'BlazeFace full range with sparse weights, 192x192 RGB',
  },
  {
    name: 'hand_landmark_lite',
    pkg: '@mediapipe/hands',
    file: 'hand_landmark_lite.tflite',
    description: 'hand landmarks (lite), 224x224 RGB',
  },
  {
    name: 'hand_landmark_full',
    pkg: '@mediapipe/hands',
    file: 'hand_landmark_full.tflite',
    description: 'hand landmarks (full), 224x224 RGB',
  },
  {
    name: 'pose_landmark_lite',
    pkg: '@mediapipe/pose',
    file: 'pose_landmark_lite.tflite',
    description: 'BlazePose landmarks (lite), 256x256 RGB',
  },
  {
    name: 'pose_landmark_full',
    pkg: '@mediapipe/pose',
    file: 'pose_landmark_full.tflite',
    description: 'BlazePose landmarks (full), 256x256 RGB',
  },
  {
    name: 'pose_landmark_heavy',
    pkg: '@mediapipe/pose',
    file: 'pose_landmark_heavy.tflite',
    description: 'BlazePose landmarks (heavy), 256x256 RGB',
  },
  {
    name: 'selfie_segmentation',
    pkg: '@mediapipe/selfie_segmentation',
    file: 'selfie_segmentation.tflite',
    description: 'selfie segmentation (general), 256x256 RGB',
  },
  {
    name: 'selfie_segmentation_landscape',
    pkg: '@mediapipe/selfie_segmentation',
    file: 'selfie_segmentation_landscape.tflite',
    description: 'selfie segmentation (landscape), 144x256 RGB',
  },
  {
    name: 'object_detection_3d_cup',
    pkg: '@mediapipe/objectron',
    file: 'object_detection_3d_cup.tflite',
    description: 'Objectron 3D detection (cup)',
  },
  {
    name: 'object_detection_3d_chair',
    pkg: '@mediapipe/objectron',
    file: 'object_detection_3d_chair.tflite',
    description: 'Objectron 3D detection (chair)',
  },
  {
    name: 'object_detection_3d_camera',
    pkg: '@mediapipe/objectron',
    file: 'object_detection_3d_camera.tflite',
    description: 'Objectron 3D detection (camera)',
  },
  {
    name: 'object_detection_3d_sneakers',
    pkg: '@mediapipe/objectron',
    file: 'object_detection_3d_sneakers.tflite',
    description: 'Objectron 3D detection (sneakers)',
  },
];

const require = createRequire(import.meta.url);

/** Absolute path of a corpus model's file (throws when its package is not installed). */
export function corpusPath(model: CorpusModel | string): string {
  const m = typeof model === 'string' ? CORPUS.find((c) => c.name === model) : model;
  if (!m) throw new Error(`no corpus model named ${String(model)}; known: ${CORPUS.map((c) => c.name).join(', ')}`);
  const dir = dirname(require.resolve(`${m.pkg}/package.json`));
  const path = join(dir, m.file);
  if (!existsSync(path)) throw new Error(`${m.pkg} is installed but has no ${m.file} (${path})`);
  return path;
}

/** A corpus model's bytes (a fresh, aligned copy). */
export function corpusBytes(model: CorpusModel | string): Uint8Array {
  const b = readFileSync(corpusPath(model));
  const out = new Uint8Array(b.byteLength);
  out.set(b);
  return out;
}

/**
 * Puts every corpus model (or those named) into `dir` as `<name>.tflite` — a symbolic link to the
 * installed file, or a copy where links are not allowed — so folder tools such as `micrort check DIR`
 * see the whole corpus. Replaces entries of the same name; returns the paths, in corpus order.
 */
export function linkCorpus(dir: string, names?: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true });
  const wanted = names ? CORPUS.filter((m) => names.includes(m.name)) : CORPUS;
  return wanted.map((m) => {
    const target = resolve(corpusPath(m));
    const path = join(dir, `${m.name}.tflite`);
    if (existsSync(path) || isLink(path)) rmSync(path, { force: true });
    try {
      symlinkSync(target, path);
    } catch {
      copyFileSync(target, path);
    }
    return path;
  });
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
