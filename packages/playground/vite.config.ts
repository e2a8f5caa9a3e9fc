/**
 * Vite config of the playground: `vite` serves it (pnpm playground), `vite build` writes a static site
 * to dist/site with relative URLs (any static file server, any sub-path). Workspace packages are
 * bundled from their TypeScript sources (the `source` export condition), as the tests run them.
 * Optional kernel packages that are not installed (e.g. @micrort/ops-wasm before it lands) resolve to
 * a module saying so, and the page lists them as unavailable. A few small real models of
 * @micrort/corpus are served beside the page (corpus/<name>.tflite) for the model picker.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
// The corpus from its TypeScript source (vite bundles the config), so the page builds and serves on a
// fresh clone before anything is compiled (the corpus package has no dist/ until `pnpm build`).
import { CORPUS, corpusPath } from '../corpus/src/index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const OPTIONAL_PACKAGES = ['@micrort/ops-wasm'];
/**
 * Minification that keeps every identifier and statement: gpu.js compiles the GPU delegate's kernels
 * from their function source text, and a compressed or mangled kernel no longer compiles (tried: the
 * delegate's run fails). Whitespace and comments go.
 */
const WHITESPACE_ONLY = { compress: false, mangle: false, codegen: { removeWhitespace: true } };

/**
 * Resolves an optional workspace package: as a dependency when installed; else from its folder in the
 * workspace (packages/<name>, its `source` entry) when it is there but not yet a dependency of the
 * playground; else to a module exporting `unavailable` (the reason), which the page reports.
 */
function optionalPackages(names: readonly string[]): Plugin {
  const require = createRequire(resolve(here, 'package.json'));
  const targets = new Map<string, string | null>();
  for (const n of names) {
    try {
      require.resolve(`${n}/package.json`);
      continue; // a dependency: normal resolution
    } catch {
      const dir = resolve(here, '..', n.split('/')[1]!);
      let entry: string | null = null;
      try {
        const pkg = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as {
          name?: string;
          exports?: { '.'?: { source?: string } };
        };
        const source = pkg.exports?.['.']?.source;
        if (pkg.name === n && source) entry = resolve(dir, source);
      } catch {
        /* not in the workspace */
      }
      targets.set(n, entry);
    }
  }
  return {
    name: 'micrort-optional-packages',
    enforce: 'pre',
    resolveId(id) {
      if (!targets.has(id)) return null;
      return targets.get(id) ?? `\0optional:${id}`;
    },
    load(id) {
      if (!id.startsWith('\0optional:')) return null;
      const name = id.slice('\0optional:'.length);
      return `export const unavailable = ${JSON.stringify(`${name} is not part of this build (not in the workspace)`)};`;
    },
  };
}

/** Small real models of @micrort/corpus (MediaPipe's npm packages) the site ships beside the page. */
const CORPUS_MODELS = [
  'face_detection_short_range',
  'face_detection_full_range',
  'selfie_segmentation',
  'selfie_segmentation_landscape',
  'hand_landmark_lite',
];

/**
 * Serves (dev) or emits (build) `corpus/<name>.tflite` for each of `names`, read from the installed
 * MediaPipe packages through @micrort/corpus, and provides `virtual:corpus-models`, their list. When
 * the MediaPipe packages are absent, the list is empty and the page offers none.
 */
function corpusModels(names: readonly string[]): Plugin {
  type Entry = { name: string; description: string; path: string; bytes: number };
  let entries: Entry[] | null = null;
  const load = (): Entry[] => {
    if (entries) return entries;
    entries = [];
    for (const name of names) {
      const m = CORPUS.find((c) => c.name === name);
      if (!m) continue;
      try {
        const path = corpusPath(m);
        entries.push({ name, description: `${m.description} (${m.pkg})`, path, bytes: statSync(path).size });
      } catch {
        /* package not installed: not offered */
      }
    }
    return entries;
  };
  const VIRTUAL = 'virtual:corpus-models';
  return {
    name: 'micrort-corpus-models',
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : null),
    async load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      const list = load().map(({ name, description, bytes }) => ({ name, description, bytes, file: `corpus/${name}.tflite` }));
      return `export const CORPUS_MODELS = ${JSON.stringify(list)};`;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const m = /\/corpus\/([\w-]+)\.tflite$/.exec(req.url ?? '');
        const e = m ? load().find((x) => x.name === m[1]) : undefined;
        if (!e) return next();
        res.setHeader('content-type', 'application/octet-stream');
        res.end(readFileSync(e.path));
      });
    },
    async generateBundle() {
      for (const e of load()) this.emitFile({ type: 'asset', fileName: `corpus/${e.name}.tflite`, source: readFileSync(e.path) });
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  plugins: [optionalPackages(OPTIONAL_PACKAGES), corpusModels(CORPUS_MODELS)],
  resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  worker: { format: 'es', plugins: () => [optionalPackages(OPTIONAL_PACKAGES)], rolldownOptions: { output: { minify: WHITESPACE_ONLY } } },
  server: { host: '127.0.0.1', strictPort: false },
  build: {
    outDir: resolve(here, 'dist', 'site'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    rolldownOptions: { output: { minify: WHITESPACE_ONLY } },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
  },
} as never);
