/**
 * @micrort/corpus — the real-model corpus: `.tflite` files that public npm packages ship (MediaPipe's
 * solution packages), installed as ordinary dependencies of this private package. Nothing is downloaded
 * at test or run time; `corpusModels()` lists the files with where they come from.
 */
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  /**
   * Set when the package ships the model inside an Emscripten packed-assets file (`*_packed_assets.data`,
   * the files concatenated) rather than as its own file: the `.data` file's name in the package and the
   * model's path in the listing its `*_packed_assets_loader.js` carries (with start and end offsets).
   * `corpusPath` then extracts the model once into a cache folder under node_modules.
   */
  packed?: { data: string; path: string };
}

/**
 * Every model of the corpus (one entry per distinct file; pose files also ship in @mediapipe/holistic,
 * face_detection_short_range in @mediapipe/face_mesh). The last six are shipped inside the packages'
 * packed-assets files (see `packed`).
 */
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
  {
    name: 'palm_detection_lite',
    pkg: '@mediapipe/hands',
    file: 'palm_detection_lite.tflite',
    description: 'palm detector (lite), 192x192 RGB',
    packed: { data: 'hands_solution_packed_assets.data', path: '/third_party/mediapipe/modules/palm_detection/palm_detection_lite.tflite' },
  },
  {
    name: 'palm_detection_full',
    pkg: '@mediapipe/hands',
    file: 'palm_detection_full.tflite',
    description: 'palm detector (full), 192x192 RGB',
    packed: { data: 'hands_solution_packed_assets.data', path: '/third_party/mediapipe/modules/palm_detection/palm_detection_full.tflite' },
  },
  {
    name: 'pose_detection',
    pkg: '@mediapipe/pose',
    file: 'pose_detection.tflite',
    description: 'BlazePose person detector, 224x224 RGB',
    packed: { data: 'pose_solution_packed_assets.data', path: '/third_party/mediapipe/modules/pose_detection/pose_detection.tflite' },
  },
  {
    name: 'object_detection_ssd_mobilenetv2_oidv4_fp16',
    pkg: '@mediapipe/objectron',
    file: 'object_detection_ssd_mobilenetv2_oidv4_fp16.tflite',
    description: "Objectron's 2D object detector: SSD MobileNetV2 (Open Images v4), float16 weights",
    packed: {
      data: 'objectron_solution_packed_assets.data',
      path: '/third_party/mediapipe/modules/objectron/object_detection_ssd_mobilenetv2_oidv4_fp16.tflite',
    },
  },
  {
    name: 'face_landmark',
    pkg: '@mediapipe/face_mesh',
    file: 'face_landmark.tflite',
    description: 'face mesh: 468 landmarks, 192x192 RGB',
    packed: { data: 'face_mesh_solution_packed_assets.data', path: '/third_party/mediapipe/modules/face_landmark/face_landmark.tflite' },
  },
  {
    name: 'face_landmark_with_attention',
    pkg: '@mediapipe/face_mesh',
    file: 'face_landmark_with_attention.tflite',
    description: 'face mesh with attention (refined lips, eyes and irises), 192x192 RGB',
    packed: {
      data: 'face_mesh_solution_packed_assets.data',
      path: '/third_party/mediapipe/modules/face_landmark/face_landmark_with_attention.tflite',
    },
  },
];

const require = createRequire(import.meta.url);

/** Absolute path of a corpus model's file (throws when its package is not installed). */
export function corpusPath(model: CorpusModel | string): string {
  const m = typeof model === 'string' ? CORPUS.find((c) => c.name === model) : model;
  if (!m) throw new Error(`no corpus model named ${String(model)}; known: ${CORPUS.map((c) => c.name).join(', ')}`);
  const dir = dirname(require.resolve(`${m.pkg}/package.json`));
  if (m.packed) return extractPacked(m, dir, m.packed);
  const path = join(dir, m.file);
  if (!existsSync(path)) throw new Error(`${m.pkg} is installed but has no ${m.file} (${path})`);
  return path;
}

/** Where models shipped inside packed-assets files are extracted (git-ignored, like all of node_modules). */
export const EXTRACT_DIR = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.cache', 'corpus');

/**
 * The byte range of `path` in a packed-assets file, from the listing in its loader script
 * (`{"filename": "/…/x.tflite", "start": N, "end": M}` entries, as Emscripten's file packager writes
 * them; the packages' files are stored uncompressed).
 */
export function packedRange(loaderScript: string, path: string): { start: number; end: number } | null {
  const quoted = JSON.stringify(path);
  const re = /\{\s*"filename"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"start"\s*:\s*(\d+)\s*,\s*"end"\s*:\s*(\d+)/g;
  for (const match of loaderScript.matchAll(re)) if (match[1] === quoted) return { start: Number(match[2]), end: Number(match[3]) };
  return null;
}

function extractPacked(m: CorpusModel, dir: string, packed: { data: string; path: string }): string {
  const out = join(EXTRACT_DIR, m.pkg.replace('/', '+'), m.file);
  const dataPath = join(dir, packed.data);
  const loaderPath = dataPath.replace(/\.data$/, '_loader.js');
  if (!existsSync(dataPath) || !existsSync(loaderPath))
    throw new Error(`${m.pkg} is installed but has no ${packed.data} with its loader (${dataPath})`);
  const range = packedRange(readFileSync(loaderPath, 'utf8'), packed.path);
  if (!range) throw new Error(`${m.pkg}: ${packed.data} does not list ${packed.path}`);
  if (existsSync(out) && statSync(out).size === range.end - range.start) return out;
  const data = readFileSync(dataPath);
  if (range.end > data.byteLength)
    throw new Error(`${m.pkg}: ${packed.path} ends at byte ${range.end}, past ${packed.data} (${data.byteLength} bytes)`);
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`; // threads share a pid
  writeFileSync(tmp, data.subarray(range.start, range.end));
  renameSync(tmp, out);
  return out;
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
