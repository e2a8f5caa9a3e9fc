/**
 * `pnpm bench:peers --browser`: the same table in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core). The page (page.ts) is bundled with vite into an IIFE and served from 127.0.0.1
 * cross-origin isolated (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy:
 * require-corp), so SharedArrayBuffer and WebAssembly threads work; the server also hands out the models,
 * their inputs and LiteRT.js's wasm folder. Each round opens one page per group: micrort's runtimes, then
 * LiteRT.js (its relaxed build: one LiteRT.js per page), then LiteRT.js's threaded build.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelResult } from '../harness.js';
import type { BenchModel, LoadedModel } from '../models.js';
import { mergeRounds, roundTiming } from '../rounds.js';
import type { RuntimeAdapter } from '../runtime.js';
import { DEFAULT_TIMING, type TimingOptions } from '../timing.js';
import type { BrowserBenchSpec } from './page.js';

export const CHROMIUM = '/usr/bin/chromium';
/** The flags of packages/ops-wasm/test/browser.test.ts. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The browser's runtimes, in report order, and the page (group) each runs in. */
export const BROWSER_RUNTIMES: { id: string; group: string; description: string }[] = [
  { id: 'micrort reference', group: 'micrort', description: '@micrort/ops-reference' },
  { id: 'micrort wasm', group: 'micrort', description: '@micrort/ops-wasm, 1 thread, relaxed build where the browser has relaxed SIMD' },
  { id: 'micrort wasm 2t', group: 'micrort', description: '@micrort/ops-wasm, 2 threads (Web Workers), relaxed build' },
  { id: 'micrort wasm simd128', group: 'micrort', description: '@micrort/ops-wasm, 1 thread, SIMD128 build' },
  { id: 'LiteRT.js', group: 'litert', description: '@litertjs/core, its relaxed-SIMD build, 1 thread' },
  { id: 'LiteRT.js 2t', group: 'litert-threads', description: '@litertjs/core, its threaded build, 2 threads' },
];

/** The page bundle (vite, IIFE) written to `dir`. */
async function bundle(dir: string): Promise<void> {
  const { build } = await import('vite');
  const src = join(here, '..', '..', 'src', 'browser', 'page.ts');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: dirname(src),
    resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir: dir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      write: true,
      lib: { entry: src, formats: ['iife'], name: 'micrortBench', fileName: () => 'bundle.js' },
    },
  } as never);
}

/** Serves the page, the bundle, LiteRT.js's wasm folder and the models, all cross-origin isolated. */
function serve(dir: string, models: Map<string, LoadedModel>): Promise<{ server: Server; url: string }> {
  const litertDir = join(dirname(require.resolve('@litertjs/core/package.json')), 'wasm');
  const page =
    '<!doctype html><html><head><meta charset="utf-8"><title>micrort bench</title></head><body><script src="/bundle.js"></script></body></html>';
  const headers = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
    'cross-origin-resource-policy': 'same-origin',
  };
  const server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const send = (type: string, body: Uint8Array | string) => {
      res.writeHead(200, { 'content-type': type, ...headers });
      res.end(body);
    };
    const model = /^\/model\/(.+)$/.exec(url);
    const input = /^\/input\/(.+)\/(\d+)$/.exec(url);
    if (url === '/') send('text/html', page);
    else if (url === '/bundle.js') send('text/javascript', readFileSync(join(dir, 'bundle.js')));
    else if (url.startsWith('/litert/') && existsSync(join(litertDir, url.slice(8))))
      send(url.endsWith('.wasm') ? 'application/wasm' : 'text/javascript', readFileSync(join(litertDir, url.slice(8))));
    else if (model && models.has(model[1]!)) send('application/octet-stream', models.get(model[1]!)!.bytes);
    else if (input && models.get(input[1]!)?.inputs?.[Number(input[2])])
      send('application/octet-stream', models.get(input[1]!)!.inputs![Number(input[2])]!);
    else {
      res.writeHead(404, { 'content-type': 'text/plain', ...headers });
      res.end('not found');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` }));
  });
}

/** Options of {@link benchInBrowser}. */
export interface BrowserOptions {
  timing?: Partial<TimingOptions>;
  rounds?: number;
  /** Runtime ids (default: all of BROWSER_RUNTIMES). */
  runtimes?: readonly string[];
  onStep?: (model: string, what: string) => void;
}

/** Benches `models` in headless Chromium; throws when Chromium is absent. */
export async function benchInBrowser(
  models: readonly BenchModel[],
  options: BrowserOptions = {},
): Promise<{ results: ModelResult[]; browser: string }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is absent (install Debian's chromium package for --browser)`);
  const chosen = BROWSER_RUNTIMES.filter((r) => !options.runtimes?.length || options.runtimes.includes(r.id));
  const rounds = options.rounds ?? 3;
  const loaded = new Map(models.map((m) => [m.name, m.load()] as const));
  const dir = mkdtempSync(join(tmpdir(), 'micrort-bench-browser-'));
  await bundle(dir);
  const { server, url } = await serve(dir, loaded);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: ModelResult[] = [];
  try {
    const groups = [...new Set(chosen.map((r) => r.group))].map((g) => chosen.filter((r) => r.group === g));
    for (const m of models) {
      const data = loaded.get(m.name)!;
      const parts: ModelResult[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const g of groups) {
          options.onStep?.(m.name, `round ${r + 1}/${rounds} ${g.map((x) => x.id).join(', ')}`);
          const page = await browser.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(String(e)));
          try {
            await page.goto(url);
            await page.waitForFunction(() => typeof (globalThis as { benchRun?: unknown }).benchRun === 'function', null, {
              timeout: 60_000,
            });
            const spec: BrowserBenchSpec = {
              model: m.name,
              kind: m.kind,
              description: m.description,
              inputs: data.inputs?.length ?? 0,
              inputSource: data.inputSource,
              runtimes: g.map((x) => x.id),
              timing: roundTiming(options.timing ?? {}, DEFAULT_TIMING, rounds),
              keepOutputs: r === 0,
            };
            parts.push(
              (await page.evaluate(
                (s) => (globalThis as unknown as { benchRun: (s: BrowserBenchSpec) => Promise<ModelResult> }).benchRun(s),
                spec,
              )) as ModelResult,
            );
          } catch (e) {
            const why = `${(e as Error).message.split('\n')[0]}${errors.length ? ` (page: ${errors[0]})` : ''}`;
            parts.push({
              model: m.name,
              kind: m.kind,
              description: m.description,
              inputSource: data.inputSource,
              reference: null,
              runtimes: g.map((x) => ({ runtime: x.id, description: x.description, status: 'refused' as const, error: why })),
            });
          } finally {
            await page.close();
          }
        }
      }
      const order = chosen.map((r) => ({ id: r.id, description: r.description }) as RuntimeAdapter);
      results.push(mergeRounds(parts, order));
    }
    return { results, browser: `Chromium ${browser.version()}` };
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
