/**
 * The playground page in headless Chromium (Debian's /usr/bin/chromium through playwright-core), as a
 * person uses it: the site is built with the package's vite config (what `pnpm playground:build`
 * writes) and served statically from 127.0.0.1. The page opens the built-in demo model and shows its
 * check table, graph, node details and memory plan; its run's outputs equal the same model's outputs
 * computed here in Node for the same (seeded) inputs; a conformance model (person_detect) loaded
 * through the file input runs and equals TFLM's output, also with emulated ops-simd (whose Cortex-M
 * cycle estimate is shown) and with an uploaded image quantized as stated; Compare shows identical int8
 * outputs; mobilenet_v2 opens, checks and plans (its time to first interaction is printed); a corrupt
 * file shows the loader's typed error and the page stays usable; nothing is logged to the console as
 * an error. Screenshots are written to .tmp/playground/ (test artifacts).
 *
 * Skipped, saying so, when /usr/bin/chromium is absent; the conformance part is skipped when
 * ../shared/conformance is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { SplitMix64, buildDemoModel, fillRandom } from '@micrort/app-kit';
import { CONFORMANCE_DIR, SKIP_REASON, hasConformance } from '@micrort/test-support/conformance';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { encodePng } from '@micrort/test-support/png';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const here = dirname(fileURLToPath(import.meta.url));
const PACKAGE_DIR = resolve(here, '..');
/** Where the screenshots go (test artifacts; .tmp is ignored by git). */
export const ARTIFACTS = resolve(PACKAGE_DIR, '..', '..', '.tmp', 'playground');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

if (!hasChromium) console.log(`playground browser test skipped: ${CHROMIUM} is absent (install Debian's chromium package to run it)`);
if (hasChromium && !hasConformance) console.log(`playground browser test: ${SKIP_REASON}`);

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Builds the site into `outDir` with the package's vite config. */
async function buildSite(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(PACKAGE_DIR, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** A static file server for `dir` on 127.0.0.1 (a free port). */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })),
  );
}

/** Outputs of `bytes` run here in Node with ops-reference on the seeded inputs `micrort run` draws. */
function nodeOutputs(bytes: Uint8Array, seed: number): Uint8Array[] {
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  registerSignalOps(resolver);
  const it = new MicroInterpreter(loadModel(bytes), resolver, { planner: createPlanner('greedy') }).allocateTensors();
  const rng = new SplitMix64(seed);
  for (let i = 0; i < it.inputsSize; i++) fillRandom(it.input(i), rng);
  it.invoke();
  return Array.from({ length: it.outputsSize }, (_, j) => it.output(j).bytes.slice());
}

/** The raw bytes of output `j` of the last run shown in the page. */
async function pageOutput(page: Page, j: number): Promise<Uint8Array> {
  const b64 = await page.getAttribute(`[data-testid=run-results] [data-testid=output-${j}]`, 'data-bytes');
  return new Uint8Array(Buffer.from(b64 ?? '', 'base64'));
}

/** Rounds half away from zero (the page's quantization of pixels). */
function roundAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** x → CUSTOM "NoSuchOpA" → CUSTOM "NoSuchOpB" → y: two nodes no package serves. */
function modelWithTwoUnknownOps(): Uint8Array {
  const b = new ModelBuilder({ description: 'two unknown custom ops' });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const m = b.addTensor({ name: 'mid', type: TensorType.FLOAT32, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: { custom: 'NoSuchOpA' }, inputs: [x], outputs: [m] });
  b.addOperator({ op: { custom: 'NoSuchOpB' }, inputs: [m], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** Rows of the check table as text. */
async function checkRows(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid=check-table] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
}

/** Opens the labelled uint8 classifier (built here, with TFLite metadata) through the file input, with ops-reference picked. */
async function openFlowers(page: Page): Promise<Uint8Array> {
  const bytes = buildLabelledUint8Classifier();
  if ((await page.inputValue('[data-testid=kernel-select]')) !== 'reference') await pickKernels(page, 'reference');
  // the page sets data-plans-ready once the model is checked and planned; the previous model may have the same name
  await page.evaluate(() => document.getElementById('app')!.removeAttribute('data-plans-ready'));
  await page.setInputFiles('[data-testid=file-input]', {
    name: 'flowers.tflite',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
  await page.waitForSelector('#app[data-plans-ready="flowers.tflite"]', { timeout: 60_000 });
  return bytes;
}

/** Whether ops-wasm runs in this browser (it says why not when it does not). */
async function wasmAvailable(page: Page): Promise<boolean> {
  const ok = (await page.getAttribute('#app', 'data-kernels-ready'))!.split(',').includes('wasm');
  if (!ok) console.log('ops-wasm is unavailable in this browser: its part of the test is skipped');
  return ok;
}

/** Picks a kernel package in the header and waits for the open model's check and plans (the change clears data-plans-ready at once). */
async function pickKernels(page: Page, id: string): Promise<void> {
  await page.selectOption('[data-testid=kernel-select]', id);
  await page.waitForSelector('#app[data-plans-ready]', { timeout: 120_000 });
}

async function openTab(page: Page, tab: string): Promise<void> {
  await page.click(`nav.tabs [data-tab=${tab}]`);
}

async function runAndWait(page: Page): Promise<void> {
  await openTab(page, 'run');
  await page.evaluate(() => document.querySelector('[data-testid=run-results]')!.replaceChildren());
  await page.click('[data-testid=run-button]');
  await page.waitForSelector('[data-testid=run-results] [data-testid=output-0]', { timeout: 60_000 });
}

describe.skipIf(!hasChromium)('playground in headless Chromium', () => {
  let dir = '';
  let server: Server | null = null;
  let browser: Browser | null = null;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'micrort-playground-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    await buildSite(dir);
    const served = await serve(dir);
    server = served.server;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }); // playwright gives it a fresh user-data-dir
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(served.url);
    await page.waitForSelector('#app[data-kernels-ready]', { timeout: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens the demo model: summary, check table, graph, memory plan', async () => {
    await page.selectOption('[data-testid=builtin-select]', 'demo');
    await page.waitForSelector('#app[data-plans-ready="demo"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid=model-name]')).toBe('demo');
    const check = await page.textContent('[data-testid=check]');
    expect(check).toContain('All 5 nodes run with ops-reference');
    const rows = await page.$$eval('[data-testid=check-table] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows.some((r) => r.startsWith('FULLY_CONNECTED') && r.includes('ops-reference'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-model.png'), fullPage: true });

    await openTab(page, 'graph');
    expect(await page.locator('[data-testid=graph-svg] .box.op').count()).toBe(5);
    await page.click('[data-testid=graph-svg] .box.op[data-node="1"]');
    const details = await page.textContent('[data-testid=node-details]');
    expect(details).toContain('#1 FULLY_CONNECTED');
    expect(details).toContain('fc1/weights');
    expect(details).toContain('fusedActivationFunction');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-graph.png') });

    await openTab(page, 'memory');
    const planners = await page.$$eval('[data-testid=planner-table] tbody tr', (trs) =>
      trs.map((tr) => (tr as HTMLTableRowElement).cells[0]!.textContent!.trim()),
    );
    expect(planners).toEqual(['greedy', 'linear', 'bestfit', 'offline', 'optimal']);
    expect(await page.locator('[data-testid=plan-picture] svg g.buffer').count()).toBeGreaterThan(0);
    await page.hover('[data-testid=plan-picture] svg g.buffer >> nth=0');
    expect(await page.textContent('[data-testid=plan-hover]')).toMatch(/^tensor #\d+ .+ alive step/);
    expect(await page.textContent('[data-testid=auto-arena]')).toMatch(/^\d[\d,]* B/);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-memory.png'), fullPage: true });
  });

  it('runs the demo model: outputs equal the same model run in Node on the same inputs', async () => {
    await openTab(page, 'run');
    await page.fill('[data-testid=run-seed]', '3');
    await runAndWait(page);
    const expected = nodeOutputs(buildDemoModel(), 3);
    expect(Array.from(await pageOutput(page, 0))).toEqual(Array.from(expected[0]!));
    expect(await page.textContent('[data-testid=run-results]')).toContain('Latency by op');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-run.png'), fullPage: true });
  });

  it.skipIf(!hasConformance)('loads a conformance model through the file input and runs it: equal to TFLM', async () => {
    const bytes = readFileSync(join(CONFORMANCE_DIR!, 'person_detect', 'model.tflite'));
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'person_detect.tflite',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await page.waitForSelector('#app[data-plans-ready="person_detect.tflite"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid=check]')).toContain('All 31 nodes run');
    await openTab(page, 'run');
    await page.fill('[data-testid=run-seed]', '1'); // seed 1 = the conformance suite's case0 inputs
    await page.selectOption('[data-testid=run-planner]', 'bestfit');
    await runAndWait(page);
    const tflm = readFileSync(join(CONFORMANCE_DIR!, 'person_detect', 'case0', 'output_0.bin'));
    expect(Array.from(await pageOutput(page, 0))).toEqual(Array.from(tflm));
    expect(Array.from(await pageOutput(page, 0))).toEqual(Array.from(nodeOutputs(new Uint8Array(bytes), 1)[0]!));
  });

  it.skipIf(!hasConformance)(
    'person_detect with emulated ops-simd: Cortex-M cycles per op, still equal to TFLM; an image input',
    async () => {
      await page.selectOption('[data-testid=kernel-select]', 'simd-emulated');
      await page.waitForSelector('#app[data-plans-ready="person_detect.tflite"]', { timeout: 60_000 });
      expect(await page.textContent('[data-testid=check]')).toContain('@micrort/ops-simd');
      await openTab(page, 'run');
      await page.selectOption('[data-testid=run-planner]', 'greedy');
      await runAndWait(page);
      const tflm = readFileSync(join(CONFORMANCE_DIR!, 'person_detect', 'case0', 'output_0.bin'));
      expect(Array.from(await pageOutput(page, 0))).toEqual(Array.from(tflm));
      expect(await page.textContent('[data-testid=cycles-total]')).toMatch(/Cortex-M4: [\d,]+ cycles per invoke, Cortex-M7: [\d,]+/);
      expect(await page.locator('[data-testid=cycles-by-node] .hrow').count()).toBeGreaterThan(20);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-cycles.png'), fullPage: true });
      await page.locator('[data-testid=cycles-total]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'playground-cycles-view.png') });
      await openTab(page, 'graph');
      await page.click('[data-testid=graph-svg] .box.op[data-node="4"]');
      await page.screenshot({ path: join(ARTIFACTS, 'playground-person-detect-graph.png') });

      // An image: 96x96, left half black, right half white; int8 input with the tensor's range gets p − 128.
      await page.selectOption('[data-testid=kernel-select]', 'reference');
      await page.waitForSelector('#app[data-plans-ready="person_detect.tflite"]', { timeout: 60_000 });
      await openTab(page, 'run');
      await page.selectOption('[data-testid=run-source]', 'image');
      const png = encodePng(96, 96, (x) => (x < 48 ? [0, 0, 0] : [255, 255, 255]));
      await page.setInputFiles('[data-testid=run-image]', { name: 'halves.png', mimeType: 'image/png', buffer: png });
      await page.waitForSelector('canvas.preview');
      await runAndWait(page);
      const b64 = await page.getAttribute('[data-testid=run-results] [data-testid=input-0]', 'data-bytes');
      const input = new Int8Array(Buffer.from(b64 ?? '', 'base64'));
      const expected = Int8Array.from({ length: 96 * 96 }, (_, i) => (i % 96 < 48 ? -128 : 127));
      expect(Array.from(input)).toEqual(Array.from(expected));
      await page.selectOption('[data-testid=run-source]', 'seeded');
    },
  );

  it.skipIf(!hasConformance)('compares the kernel packages on person_detect: identical int8 outputs', async () => {
    await openTab(page, 'compare');
    await page.click('[data-testid=compare-button]');
    await page.waitForSelector('[data-testid=compare-table]', { timeout: 60_000 });
    const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    const ran = rows.filter((r) => !/unavailable/.test(r));
    expect(ran.length).toBeGreaterThanOrEqual(3);
    expect(ran.every((r) => r.includes('identical bytes'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-compare.png'), fullPage: true });
  });

  it.skipIf(!hasConformance)('opens mobilenet_v2 (84 nodes): checks, draws and plans it; time to first interaction', async () => {
    const bytes = readFileSync(join(CONFORMANCE_DIR!, 'mobilenet_v2_quantized_1x3x224x224', 'model.tflite'));
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'mobilenet_v2.tflite',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await page.waitForSelector('#app[data-model-ready="mobilenet_v2.tflite"]', { timeout: 60_000 });
    const t = (await page.evaluate(() => (window as unknown as { __playgroundTimings: Record<string, number> }).__playgroundTimings))!;
    console.log(
      `mobilenet_v2 in the page: summary ${t['summaryMs']!.toFixed(0)} ms, graph drawn ${t['graphMs']!.toFixed(0)} ms, check shown ${t['checkMs']!.toFixed(0)} ms, memory plans shown ${t['plansMs']!.toFixed(0)} ms after the file was chosen`,
    );
    expect(await page.textContent('[data-testid=check]')).toContain('All 84 nodes run');
    await openTab(page, 'memory');
    expect(await page.textContent('[data-testid=lower-bound]')).toMatch(/^2,451,840 B/); // = TFLM's planned head
    await page.screenshot({ path: join(ARTIFACTS, 'playground-mobilenet-memory.png'), fullPage: true });
    await openTab(page, 'graph');
    expect(await page.locator('[data-testid=graph-svg] .box.op').count()).toBe(84);
    await page.click('[data-testid=graph-svg] .box.op[data-node="2"]');
    expect(await page.textContent('[data-testid=node-details]')).toContain('#2 CONV_2D');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-mobilenet-graph.png') });
  });

  it('a float model (a MediaPipe sample the page offers) takes an uploaded image; with ops-wasm the page says who ran what', async () => {
    const sample = 'corpus:face_detection_short_range';
    if (!(await page.locator(`[data-testid=builtin-select] option[value="${sample}"]`).count())) {
      console.log('float image test skipped: the MediaPipe samples are not installed (@micrort/corpus)');
      return;
    }
    await page.selectOption('[data-testid=builtin-select]', sample);
    await page.waitForSelector('#app[data-plans-ready="face_detection_short_range.tflite"]', { timeout: 120_000 });
    await openTab(page, 'run');
    // float32[1,128,128,3]: the image input is offered (it was disabled for every float model)
    expect(await page.$eval('[data-testid=run-source] option[value=image]', (o) => (o as HTMLOptionElement).disabled)).toBe(false);
    await page.selectOption('[data-testid=run-source]', 'image', { timeout: 5_000 });
    expect(await page.inputValue('[data-testid=run-range]')).toBe('0..1'); // no metadata: 0..1 for a float input
    const png = encodePng(128, 128, (x, y) => (x < 64 ? [255, 0, 0] : y < 64 ? [0, 0, 255] : [255, 255, 255]));
    await page.setInputFiles('[data-testid=run-image]', { name: 'quarters.png', mimeType: 'image/png', buffer: png });
    await page.waitForSelector('canvas.preview');
    await runAndWait(page);
    const b64 = await page.getAttribute('[data-testid=run-results] [data-testid=input-0]', 'data-bytes');
    const input = new Float32Array(new Uint8Array(Buffer.from(b64 ?? '', 'base64')).buffer);
    const expected = Float32Array.from({ length: 128 * 128 * 3 }, (_, i) => {
      const px = Math.floor(i / 3);
      const [x, y, c] = [px % 128, Math.floor(px / 128), i % 3];
      return (x < 64 ? [255, 0, 0] : y < 64 ? [0, 0, 255] : [255, 255, 255])[c]! / 255;
    });
    expect(Array.from(input)).toEqual(Array.from(expected));
    await page.locator('canvas.preview').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'playground-float-image.png') });

    // ops-wasm serves 86 of the 164 nodes (the float16 DEQUANTIZEs and RESHAPEs fall back): said so, not "all run with ops-wasm"
    if (!(await wasmAvailable(page))) return;
    await pickKernels(page, 'wasm');
    const headline = await page.textContent('[data-testid=check] p.headline');
    expect(headline).toContain('All 164 nodes run: ops-wasm 86 of 164 nodes (100.0% of MACs), ops-reference 78 of 164 (0.0% of MACs).');
    expect(headline).not.toContain('run with ops-wasm');
    expect(await page.textContent('[data-testid=check-served]')).toMatch(/^ops-wasm: 78 nodes fell back to ops-reference — DEQUANTIZE ×74/);
    await openTab(page, 'model');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-facedetect-wasm.png') });
    await openTab(page, 'run');
    await page.selectOption('[data-testid=run-source]', 'seeded');
    await runAndWait(page);
    expect(await page.textContent('[data-testid=run-served]')).toContain('ops-wasm 86 of 164 nodes');
    await pickKernels(page, 'reference');
  });

  it('a uint8 model with labels in its TFLite metadata: labels in the top 5, its normalization for an image', async () => {
    const bytes = await openFlowers(page);
    const summary = await page.textContent('[data-testid=summary]');
    expect(summary).toContain('TFLite metadataflower classifier (test) · v1 · by micrort tests · Apache-2.0');
    expect(summary).toContain('labelsoutput 0: 5 labels (daisy, dandelion, roses, sunflowers, …)');
    expect(summary).toContain('input normalization(pixel − 127.5) / 127.5');
    await openTab(page, 'model');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-labels-model.png'), fullPage: true });
    await openTab(page, 'run');
    await page.selectOption('[data-testid=run-source]', 'image');
    expect(await page.inputValue('[data-testid=run-range]')).toBe('metadata');
    const pixel = (x: number, y: number): [number, number, number] => [x * 16, y * 16, 255 - x * 8];
    await page.setInputFiles('[data-testid=run-image]', { name: 'ramp.png', mimeType: 'image/png', buffer: encodePng(16, 16, pixel) });
    await page.waitForSelector('canvas.preview');
    await runAndWait(page);
    // (p − 127.5) / 127.5, quantized with scale 1/128 and zero point 128
    const q = (p: number) => Math.max(0, Math.min(255, roundAway((p - 127.5) / 127.5 / (1 / 128)) + 128));
    const expected = Array.from({ length: 16 * 16 * 3 }, (_, i) => q(pixel(Math.floor(i / 3) % 16, Math.floor(i / 48))[i % 3]!));
    const b64 = await page.getAttribute('[data-testid=run-results] [data-testid=input-0]', 'data-bytes');
    const input = new Uint8Array(Buffer.from(b64 ?? '', 'base64'));
    expect(Array.from(input)).toEqual(expected);
    // the top 5 names the classes, in the order of the model's scores (computed here in Node on the same input)
    const it2 = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    it2.setInput(0, input);
    it2.invoke();
    expect(Array.from(await pageOutput(page, 0))).toEqual(Array.from(it2.output(0).bytes));
    const scores = Array.from(it2.output(0).data as Uint8Array);
    const order = scores
      .map((s, i) => [s, i] as const)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .map(([, i]) => FLOWER_LABELS[i]);
    const shown = await page.$$eval('[data-testid=output-0-topk] tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.textContent));
    expect(shown).toEqual(order);
    await page.locator('[data-testid=output-0-topk]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'playground-labels-top5.png') });
  });

  it('ops-wasm with fallbacks on the uint8 model: the headline says 6 of 8 nodes; one check row per reason shape', async () => {
    if (!(await wasmAvailable(page))) return;
    await openFlowers(page);
    await pickKernels(page, 'wasm');
    const headline = await page.textContent('[data-testid=check] p.headline');
    expect(headline).toContain('All 8 nodes run: ops-wasm 6 of 8 nodes (99.9% of MACs), ops-reference 2 of 8 (0.1% of MACs).');
    // the uint8 AVERAGE_POOL_2D and SOFTMAX run on ops-wasm; RESHAPE and the 40-MAC FULLY_CONNECTED fall back
    expect(await page.textContent('[data-testid=check-served]')).toMatch(
      /^ops-wasm: 2 nodes fell back to ops-reference — RESHAPE ×1 \(no ops-wasm kernel for RESHAPE\); FULLY_CONNECTED ×1/,
    );
    // the three uint8 CONV_2D nodes ops-wasm runs: one row, not three
    const rows = await checkRows(page);
    expect(rows.filter((r) => r.startsWith('CONV_2D'))).toHaveLength(1);
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r.startsWith('CONV_2D'))).toContain('3 (0, 2, 3)@micrort/ops-wasm');
    expect(rows.find((r) => r.startsWith('FULLY_CONNECTED'))).toContain('40 multiply-accumulates per invoke, fewer than minMacs 4096');
    await openTab(page, 'model');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-wasm-fallback.png'), fullPage: true });
    await openTab(page, 'run');
    await page.selectOption('[data-testid=run-source]', 'seeded');
    await runAndWait(page);
    expect(await page.textContent('[data-testid=run-results]')).toContain('ops-wasm 6 of 8 nodes');
  });

  it('the graph: a legend of who runs the nodes, node search, option enums by name', async () => {
    await openFlowers(page);
    await openTab(page, 'graph');
    await page.click('[data-testid=graph-svg] .box.op[data-node="3"]');
    const conv = await page.textContent('[data-testid=node-details]');
    expect(conv).toContain('paddingSAME'); // was "padding0"
    expect(conv).toContain('fusedActivationFunctionRELU6'); // was 3
    expect(await page.textContent('[data-testid=graph-legend]', { timeout: 5_000 })).toContain('ops-reference (8)');
    await page.fill('[data-testid=graph-search]', 'softmax');
    expect(await page.textContent('[data-testid=graph-search-count]')).toMatch(/^1 node/);
    await page.fill('[data-testid=graph-search]', '#2');
    await page.press('[data-testid=graph-search]', 'Enter');
    expect(await page.textContent('[data-testid=graph-search-count]')).toBe('1 of 1 node');
    expect(await page.textContent('[data-testid=node-details]')).toContain('#2 CONV_2D');
    expect(await page.locator('[data-testid=graph-svg] .box.op.match').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-graph-legend-search.png') });
    await page.fill('[data-testid=graph-search]', '');
  });

  it('Compare says what each package served, and when one served no node (ops-simd and the GPU delegate on the uint8 model)', async () => {
    if (!(await wasmAvailable(page))) return;
    await openFlowers(page);
    await openTab(page, 'run');
    await page.selectOption('[data-testid=run-source]', 'seeded');
    await openTab(page, 'compare');
    await page.evaluate(() => document.querySelector('[data-testid=compare-results]')!.replaceChildren());
    await page.click('[data-testid=compare-button]');
    await page.waitForSelector('[data-testid=compare-table]', { timeout: 120_000 });
    const compare = await page.$$eval('[data-testid=compare-table] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    const wasmRow = compare.find((r) => r.startsWith('ops-wasm'))!;
    expect(wasmRow).toContain('ops-wasm 6 of 8 nodes (99.9% of MACs), ops-reference 2 of 8 (0.1% of MACs)');
    expect(wasmRow).not.toContain('served no node');
    expect(wasmRow).toContain('identical bytes');
    const simdRow = compare.find((r) => r.startsWith('ops-simd'))!; // CMSIS-NN kernels are int8 only
    expect(simdRow).toContain('ops-simd served no node: ops-simd 0 of 8 nodes (0.0% of MACs), ops-reference 8 of 8 (100.0% of MACs)');
    expect(simdRow).toContain('identical bytes');
    const gpuRow = compare.find((r) => r.startsWith('ops-gpu'));
    if (gpuRow && !/unavailable/.test(gpuRow)) expect(gpuRow).toContain('ops-gpu served no node');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-compare-served.png'), fullPage: true });
  });

  it('shows a corrupt file as the typed error, says what to do, and stays usable', async () => {
    await openFlowers(page);
    const good = buildDemoModel();
    const corrupt = good.slice(0, 40); // a truncated file
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'broken.tflite',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(corrupt),
    });
    await page.waitForSelector('#app[data-open-failed="broken.tflite"]', { timeout: 30_000 });
    const error = await page.textContent('[data-testid=error]');
    expect(error).toMatch(/^ModelError: /);
    expect(error).toContain('This file is not a .tflite model micrort can read. Open another file');
    expect(error).toContain('flowers.tflite stays open');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-error.png') });
    // Still usable: the model open before stays open and runs.
    await runAndWait(page);
    expect(await page.isHidden('[data-testid=error]')).toBe(true);
  });

  it('a model with nodes no package serves: the page says what to do in the page, not in the CLI', async () => {
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'unknown-ops.tflite',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(modelWithTwoUnknownOps()),
    });
    await page.waitForSelector('#app[data-plans-ready="unknown-ops.tflite"]', { timeout: 60_000 });
    const checkError = (await page.textContent('[data-testid=check-error]'))!;
    expect(checkError).toMatch(/^UnsupportedOpError: unsupported model: 2 nodes cannot run/);
    expect(checkError).not.toContain('micrort check');
    expect(checkError).toContain("the Model tab's check table lists them all");
    expect(checkError).toContain('Custom ops no package in this page provides: a kernel package that registers them is needed');
    await openTab(page, 'run');
    await page.click('[data-testid=run-button]');
    await page.waitForSelector('[data-testid=error-advice]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=error-advice]')).toContain("the Model tab's check table lists every node that cannot run");
    expect(await page.textContent('[data-testid=error]')).not.toContain('micrort check');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-unsupported-error.png') });
    await page.click('[data-testid=error] button.close');
  });

  it('logged no console errors', () => {
    expect(consoleErrors).toEqual([]);
  });
});
