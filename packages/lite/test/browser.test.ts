/**
 * @micrort/lite in headless Chromium (Debian's /usr/bin/chromium through playwright-core), installed
 * the way the README's "import map" path installs it: the packages' built ESM (`dist/`) served as they
 * are, bare specifiers mapped by an import map, no bundler. The page loads the labelled uint8
 * classifier from a URL and classifies an ImageData, an <img> and an ImageBitmap (the same pixels:
 * the same top 5 and the same bytes as Node computes), runs a float model twice without setting its
 * input again (same outputs), and reports which kernel packages ran.
 *
 * Skipped, saying so, when /usr/bin/chromium is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { encodePng } from '@micrort/test-support/png';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { runtimeClosure } from '@micrort/test-support/workspace';
import { loadModel } from '../src/index.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..', '..', '..');
/** The packages the page imports, each mapped to its built entry. */
const PACKAGES = runtimeClosure('lite');
const FLATBUFFERS = dirname(createRequire(join(ROOT, 'packages', 'core', 'package.json')).resolve('flatbuffers/package.json'));

if (!hasChromium) console.log(`@micrort/lite browser test skipped: ${CHROMIUM} is absent (install Debian's chromium package to run it)`);

/** The import map of the README's "In the browser, without a bundler" section, for packages served under /micrort/<name>/. */
export function importMap(base: string): string {
  const imports: Record<string, string> = Object.fromEntries(PACKAGES.map((p) => [`@micrort/${p}`, `${base}micrort/${p}/dist/index.js`]));
  imports['flatbuffers'] = `${base}flatbuffers/mjs/flatbuffers.js`;
  return JSON.stringify({ imports }, null, 2);
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>micrort lite</title>
<script type="importmap">${importMap('/')}</script>
<script type="module">
  import { loadModel } from '@micrort/lite';
  window.lite = { loadModel };
  document.body.dataset.ready = '1';
</script></head><body></body></html>`;

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.png': 'image/png', '.map': 'application/json' };

/** A 16x16 picture. */
const pixel = (x: number, y: number): [number, number, number] => [x * 16, y * 16, (x * y) % 256];

function floatChain(): Uint8Array {
  const F = TensorType.FLOAT32;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F, shape: [1, 8] });
  const one = b.addTensor({ name: 'one', type: F, shape: [1], data: Float32Array.of(1) });
  const [a, c, y] = ['a', 'c', 'y'].map((name) => b.addTensor({ name, type: F, shape: [1, 8] })) as [number, number, number];
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, one], outputs: [a] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, one], outputs: [c] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [c, one], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

function serve(files: Record<string, Uint8Array | string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let body: Uint8Array | string | undefined = files[path];
    const m = /^\/micrort\/([\w-]+)\/dist\/(.+)$/.exec(path);
    const f = /^\/flatbuffers\/(mjs\/.+)$/.exec(path);
    const file = m && PACKAGES.includes(m[1]!) ? join(ROOT, 'packages', m[1]!, 'dist', m[2]!) : f ? join(FLATBUFFERS, f[1]!) : null;
    if (!body && file && normalize(file) === file && existsSync(file) && statSync(file).isFile()) body = readFileSync(file);
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(path)] ?? (path === '/' ? 'text/html' : 'application/octet-stream') });
    res.end(body);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })),
  );
}

describe.skipIf(!hasChromium)('@micrort/lite in headless Chromium, through an import map', () => {
  let server: Server | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    // the built ESM the import map points at (incremental: fast when built already)
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/lite'], { cwd: ROOT });
    const served = await serve({
      '/': PAGE,
      '/flowers.tflite': buildLabelledUint8Classifier(),
      '/chain.tflite': floatChain(),
      '/picture.png': encodePng(16, 16, pixel),
    });
    server = served.server;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(served.url);
    await page.waitForSelector('body[data-ready="1"]', { state: 'attached', timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('classifies an ImageData, an <img> and an ImageBitmap: labels from the metadata, the bytes Node computes', async () => {
    const result = await page.evaluate(async () => {
      const { loadModel } = (window as unknown as { lite: typeof import('../src/index.js') }).lite;
      const model = await loadModel('/flowers.tflite');
      const img = new Image();
      img.src = '/picture.png';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 16;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const imageData = ctx.getImageData(0, 0, 16, 16);
      const bitmap = await createImageBitmap(img);
      const fromData = model.run(imageData)['probabilities']!;
      return {
        kernels: model.kernels,
        servedBy: model.servedBy(),
        labels: model.outputs[0]!.labels,
        bytes: Array.from(fromData.data as Uint8Array),
        top: fromData.top(5),
        img: model.classify(img),
        bitmap: model.classify(bitmap),
        again: Array.from(model.run()['probabilities']!.data as Uint8Array),
      };
    });
    expect(result.labels).toEqual(FLOWER_LABELS);
    expect(result.kernels).toContain('ops-wasm'); // Chromium has SIMD128
    expect(result.servedBy).toEqual([
      { package: 'ops-reference', nodes: 2 },
      { package: 'ops-wasm', nodes: 6 },
    ]);
    const node = await loadModel(buildLabelledUint8Classifier());
    const data = new Uint8ClampedArray(16 * 16 * 4);
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) data.set([...pixel(x, y), 255], (y * 16 + x) * 4);
    const expected = node.run({ width: 16, height: 16, data })['probabilities']!;
    expect(result.bytes).toEqual(Array.from(expected.data as Uint8Array));
    expect(result.top).toEqual(expected.top(5));
    expect(result.img).toEqual(result.top);
    expect(result.bitmap).toEqual(result.top);
    expect(result.again).toEqual(result.bytes);
    expect(result.top.map((t: { label?: string }) => t.label).sort()).toEqual([...FLOWER_LABELS].sort());
    node.dispose();
  });

  it('a float model run twice without setting its input again gives the same outputs', async () => {
    const out = await page.evaluate(async () => {
      const { loadModel } = (window as unknown as { lite: typeof import('../src/index.js') }).lite;
      const model = await loadModel(new URL('/chain.tflite', location.href));
      const first = Array.from(model.run(new Float32Array([0, 1, 2, 3, 4, 5, 6, 7]))['y']!.data as Float32Array);
      const second = Array.from(model.run()['y']!.data as Float32Array);
      const reused = await loadModel('/chain.tflite', { reuseInputMemory: true });
      reused.run(new Float32Array([0, 1, 2, 3, 4, 5, 6, 7]));
      const overwritten = Array.from(reused.run()['y']!.data as Float32Array);
      return { first, second, overwritten };
    });
    expect(out.first).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out.second).toEqual(out.first);
    expect(out.overwritten).not.toEqual(out.first); // TFLM's reuse, opted into
  });

  it('a missing model is a ModelFetchError; nothing was logged as an error', async () => {
    const message = await page.evaluate(async () => {
      const { loadModel } = (window as unknown as { lite: typeof import('../src/index.js') }).lite;
      return loadModel('/nope.tflite').then(
        () => 'loaded',
        (e: Error) => `${e.name}: ${e.message}`,
      );
    });
    expect(message).toMatch(/^ModelFetchError: could not fetch the model from \/nope\.tflite: HTTP 404/);
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});
