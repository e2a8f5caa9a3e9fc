/**
 * The benchmark page (bundled by run-browser.ts into an IIFE, loaded in headless Chromium from a page
 * served cross-origin isolated): `window.benchRun(spec)` fetches a model and its inputs from the server,
 * benches the named runtimes on them with the harness Node uses (benchModel, timeRuns) and resolves to
 * the ModelResult. One LiteRT.js build per page, so the runner opens a page per group.
 */
import { composeRuntimeAsync, withOptions, type ComposedRuntime, type KernelPackage } from '@micrort/core';
import { mediapipePackage } from '@micrort/ops-mediapipe';
import { referencePackage } from '@micrort/ops-reference';
import { signalPackage } from '@micrort/ops-signal';
import { wasmPackage, type LoadOptions } from '@micrort/ops-wasm';
import { benchModel, type ModelResult } from '../harness.js';
import type { BenchModel } from '../models.js';
import type { RuntimeAdapter, Runner } from '../runtime.js';
import { litertLoad, type LiteRtModule } from '../runtimes/litert-embind.js';
import { micrortLoad } from '../runtimes/micrort-core.js';
import type { TimingOptions } from '../timing.js';

/** What the runner asks the page for. */
export interface BrowserBenchSpec {
  model: string;
  kind: string;
  description: string;
  inputs: number;
  inputSource: string;
  runtimes: string[];
  timing: Partial<TimingOptions>;
  keepOutputs: boolean;
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/**
 * The packages every page runtime has (ops-reference, the signal and MediaPipe custom ops; imported
 * directly rather than through app-kit, whose list imports ops-gpu and ops-simd on demand).
 */
const BASE: readonly KernelPackage[] = [referencePackage, signalPackage, mediapipePackage];

/** micrort with ops-wasm (`options`, null: ops-reference alone), composed once per page. */
function micrort(id: string, description: string, options: LoadOptions | null): RuntimeAdapter {
  let rt: Promise<ComposedRuntime> | null = null;
  return {
    id,
    description,
    async load(bytes: Uint8Array): Promise<Runner> {
      rt ??= composeRuntimeAsync(options ? [...BASE, withOptions(wasmPackage, options)] : [...BASE]);
      const runtime = await rt;
      const served = runtime.packages.find((p) => p.name === wasmPackage.name);
      if (options?.threads && served) {
        const threads = (served.contribution as { threads?: number }).threads;
        if (threads !== undefined && threads !== options.threads) throw new Error(`${options.threads} threads asked, ${threads} available`);
      }
      return micrortLoad(bytes, runtime, options ? wasmPackage.provider : undefined);
    },
  };
}

/** LiteRT.js from the server's /litert/ folder: the relaxed build where Chromium has relaxed SIMD, or the threaded one. */
function litert(id: string, threads: number): RuntimeAdapter {
  let loaded: Promise<LiteRtModule> | null = null;
  return {
    id,
    description:
      threads > 1
        ? `@litertjs/core threaded build (relaxed SIMD, XNNPACK), ${threads} threads`
        : '@litertjs/core (relaxed SIMD build where available), 1 thread',
    async load(bytes: Uint8Array): Promise<Runner> {
      loaded ??= (async () => {
        const m = (await import('@litertjs/core')) as unknown as LiteRtModule;
        await m.loadLiteRt('/litert/', threads > 1 ? { threads: true } : undefined);
        return m;
      })();
      return litertLoad(await loaded, bytes, threads);
    },
  };
}

/** The runtimes a page can run, by id. */
const RUNTIMES: Record<string, () => RuntimeAdapter> = {
  'micrort reference': () => micrort('micrort reference', '@micrort/ops-reference', null),
  'micrort wasm': () =>
    micrort('micrort wasm', '@micrort/ops-wasm (1 thread, relaxed build) in front of @micrort/ops-reference', { threads: 1 }),
  'micrort wasm 2t': () =>
    micrort('micrort wasm 2t', '@micrort/ops-wasm (2 threads, relaxed build) in front of @micrort/ops-reference', { threads: 2 }),
  'micrort wasm simd128': () =>
    micrort('micrort wasm simd128', '@micrort/ops-wasm (1 thread, SIMD128 build) in front of @micrort/ops-reference', {
      threads: 1,
      relaxed: false,
    }),
  'LiteRT.js': () => litert('LiteRT.js', 1),
  'LiteRT.js 2t': () => litert('LiteRT.js 2t', 2),
};

async function benchRun(spec: BrowserBenchSpec): Promise<ModelResult> {
  const bytes = await fetchBytes(`/model/${encodeURIComponent(spec.model)}`);
  const inputs: Uint8Array[] = [];
  for (let i = 0; i < spec.inputs; i++) inputs.push(await fetchBytes(`/input/${encodeURIComponent(spec.model)}/${i}`));
  const model: BenchModel = {
    name: spec.model,
    kind: spec.kind as BenchModel['kind'],
    description: spec.description,
    load: () => ({ bytes, inputs: spec.inputs ? inputs : null, inputSource: spec.inputSource }),
  };
  const runtimes = spec.runtimes.map((id) => {
    const make = RUNTIMES[id];
    if (!make) throw new Error(`no browser runtime ${id}`);
    return make();
  });
  return benchModel(model, runtimes, { timing: spec.timing, keepOutputs: spec.keepOutputs });
}

/** What the page offers the runner. */
export const BROWSER_RUNTIMES = Object.keys(RUNTIMES);
(globalThis as unknown as { benchRun: typeof benchRun; browserRuntimes: string[]; crossOriginIsolated?: boolean }).benchRun = benchRun;
(globalThis as unknown as { browserRuntimes: string[] }).browserRuntimes = BROWSER_RUNTIMES;
