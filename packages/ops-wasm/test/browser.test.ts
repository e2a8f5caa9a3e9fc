/**
 * ops-wasm in a real browser: headless Chromium (Debian's /usr/bin/chromium through playwright-core)
 * loads the kernels module asynchronously and runs the int8 chain network with its arena in
 * WebAssembly memory; the outputs must equal ops-reference's in the page and in Node.
 *
 * The page script (test/browser/entry.ts) is bundled with vite's build API into an IIFE in a temp folder
 * and served from a node:http server on 127.0.0.1. Skipped, saying so, when /usr/bin/chromium is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChain, runBoth } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';
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
];

if (!hasChromium) console.log(`ops-wasm browser test skipped: ${CHROMIUM} is absent (install Debian's chromium package to run it)`);

async function bundle(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: join(here, 'browser'),
    resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      write: true,
      lib: { entry: join(here, 'browser', 'entry.ts'), formats: ['iife'], name: 'micrortWasmBrowserTest', fileName: () => 'bundle.js' },
    },
  } as never);
}

/** Serves the page cross-origin isolated (COOP/COEP: SharedArrayBuffer and threads), or plain under `?plain`. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const page =
    '<!doctype html><html><head><meta charset="utf-8"><title>micrort ops-wasm</title></head><body><script src="/bundle.js"></script></body></html>';
  const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
  const server = createServer((req, res) => {
    const plain = (req.headers.referer ?? req.url ?? '').includes('?plain');
    const headers = plain ? {} : isolation;
    if (req.url?.startsWith('/bundle.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript', ...headers });
      res.end(readFileSync(join(dir, 'bundle.js')));
    } else if (req.url === '/' || req.url === '/?plain') {
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(page);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` }));
  });
}

describe.skipIf(!hasChromium)('ops-wasm in headless Chromium', () => {
  let dir = '';
  let server: Server | null = null;
  let result: BrowserResult | { error: string } | null = null;
  let plain: BrowserResult | { error: string } | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'micrort-wasm-browser-'));
    await bundle(dir);
    const served = await serve(dir);
    server = served.server;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const visit = async (url: string) => {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(url);
        await page.waitForFunction(() => (window as unknown as { __micrortResult?: unknown }).__micrortResult !== undefined, null, {
          timeout: 90_000,
        });
        if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
        return (await page.evaluate(() => (window as unknown as { __micrortResult: unknown }).__micrortResult)) as typeof result;
      };
      result = await visit(served.url);
      plain = await visit(`${served.url}?plain`);
    } finally {
      await browser.close();
    }
  });

  afterAll(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the int8 chain through ops-wasm in the page, equal to ops-reference in the page and in Node', () => {
    expect(result).not.toBeNull();
    if (result && 'error' in result && result.error) throw new Error(`the page failed: ${result.error}`);
    const r = result as BrowserResult;
    expect(r.simd128).toBe(true);
    expect(r.providers).toEqual(Array(5).fill(PROVIDER));
    expect(r.inWasmMemory).toBe(true);
    expect(r.wasm).toEqual(r.reference);
    const { def, input } = buildChain();
    expect(r.wasm).toEqual(Array.from(runBoth(def, [input]).ref[0]!));
  });

  it('cross-origin isolated: threads (a Blob-URL worker, the main thread spinning) give the same bytes, and workers take chunks', () => {
    const r = result as BrowserResult;
    expect(r.isolated).toBe(true);
    expect(r.autoThreads).toBeGreaterThanOrEqual(1);
    expect(r.threadedThreads).toBe(2);
    expect(r.threaded).toEqual(r.reference);
    expect(r.workerChunks).toBeGreaterThan(0);
  });

  it('relaxed SIMD (Chromium has it): the relaxed build, exact on random int8 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED', () => {
    const r = (result as BrowserResult).relaxed;
    expect(r, 'Chromium has relaxed SIMD').not.toBeNull();
    console.log(
      `Chromium: relaxed dot = ${r!.dot} (the int8 GEMM ${r!.dot === 'none' ? 'keeps dot_i16x8' : 'takes the relaxed-dot tile'}), ${r!.ran} random nodes`,
    );
    expect(r!.variant).toBe('relaxed');
    expect(r!.served).toBeGreaterThan(r!.ran * 0.9);
    expect(r!.mismatches).toEqual([]);
  });

  it('not isolated: no SharedArrayBuffer, so threads fall back to one and the outputs are the same', () => {
    if (plain && 'error' in plain && plain.error) throw new Error(`the page failed: ${plain.error}`);
    const r = plain as BrowserResult;
    expect(r.isolated).toBe(false);
    expect(r.autoThreads).toBe(1);
    expect(r.threadedThreads).toBe(1);
    expect(r.threaded).toEqual(r.reference);
  });
});
