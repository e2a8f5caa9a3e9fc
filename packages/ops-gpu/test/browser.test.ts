/**
 * The GPU delegate in a real browser: headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core, WebGL2 on SwiftShader) runs the float CNN through the delegate in gpu.js's WebGL2 mode
 * and with ops-reference alone; the outputs must agree within the stated tolerance, and with the same
 * model run here in Node.
 *
 * The page script (test/browser/entry.ts) is bundled with vite's build API into an IIFE in a temp
 * folder and served from a node:http server on 127.0.0.1. Skipped, saying so, when /usr/bin/chromium
 * is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOAT_CNN_INPUT_SHAPE, buildFloatCnn, lcgFloats } from '../src/index.js';
import { expectClose, referenceOutputs } from '../src/__tests__/helpers.js';
import type { BrowserResult } from './browser/entry.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const here = dirname(fileURLToPath(import.meta.url));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

if (!hasChromium) console.log(`browser test skipped: ${CHROMIUM} is absent (install Debian's chromium package to run it)`);

/** Bundles the page script into `outDir/bundle.js`. */
async function bundle(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: join(here, 'browser'),
    resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
    oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false, // gpu.js transpiles kernel functions from their source text
      target: 'es2022',
      write: true,
      lib: { entry: join(here, 'browser', 'entry.ts'), formats: ['iife'], name: 'micrortBrowserTest', fileName: () => 'bundle.js' },
    },
  } as never);
}

/** Serves index.html and bundle.js from `dir` on 127.0.0.1 (a free port). */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const files: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><html><head><meta charset="utf-8"><title>micrort gpu</title></head><body><script src="/bundle.js"></script></body></html>',
    ],
  };
  const server = createServer((req, res) => {
    if (req.url === '/bundle.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(dir, 'bundle.js')));
      return;
    }
    const f = files[req.url ?? ''];
    res.writeHead(f ? 200 : 404, { 'content-type': f ? f[0] : 'text/plain' });
    res.end(f ? f[1] : 'not found');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${addr.port}/` });
    });
  });
}

describe.skipIf(!hasChromium)('GPU delegate in headless Chromium (WebGL2)', () => {
  let dir = '';
  let server: Server | null = null;
  let result: BrowserResult | { error: string } | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'micrort-gpu-browser-'));
    await bundle(dir);
    const served = await serve(dir);
    server = served.server;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(served.url);
      await page.waitForFunction(() => (window as unknown as { __micrortResult?: unknown }).__micrortResult !== undefined, null, {
        timeout: 90_000,
      });
      result = (await page.evaluate(() => (window as unknown as { __micrortResult: unknown }).__micrortResult)) as typeof result;
      if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
    } finally {
      await browser.close();
    }
  });

  afterAll(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the float CNN on WebGL2 as one partition, equal to ops-reference in the page and in Node', () => {
    expect(result).not.toBeNull();
    if (result && 'error' in result && result.error) throw new Error(`the page failed: ${result.error}`);
    const r = result as BrowserResult;
    console.log(
      `browser: gpu.js modes ${r.modes.join(', ')}; the delegate ran in mode ${r.mode} (kernel backends ${r.backends.join(', ')})`,
    );
    expect(r.mode).toBe('webgl2');
    expect(r.backends).toEqual(['webgl2']);
    expect(r.partitions).toEqual([Array.from({ length: 16 }, (_, i) => i)]);
    const f32 = (rows: number[][]) => rows.map((v) => Float32Array.from(v));
    expectClose(f32(r.gpu), f32(r.reference), 'WebGL2 vs ops-reference in the page');
    const n = FLOAT_CNN_INPUT_SHAPE.reduce<number>((s, d) => s * d, 1);
    const node = [7, 8].map((seed) => referenceOutputs(buildFloatCnn(), [lcgFloats(n, seed, 1)])[0]!);
    expectClose(f32(r.gpu), node, 'WebGL2 vs ops-reference in Node');
  });
});
