/**
 * Which gpu.js backend ("mode") the delegate runs on, and which ones this platform offers.
 *
 * gpu.js picks a backend per `GPU` instance: `webgl2` / `webgl` in a browser, `headlessgl` in Node when
 * the `gl` addon can open a context (e.g. under `xvfb-run`), `webasm` (WebAssembly, anywhere) and `cpu`
 * (plain JavaScript, always). The delegate only uses synchronous kernels, so `webgpu` and `async` are
 * not offered.
 */
import { DelegateError } from '@micrort/core';
import { GPU } from 'gpu.js';

/** A synchronous gpu.js backend. */
export type GpuMode = 'webgl2' | 'webgl' | 'headlessgl' | 'webasm' | 'cpu';

/** Every mode the delegate knows, best first (the order `'auto'` tries). */
export const GPU_MODES: readonly GpuMode[] = ['webgl2', 'webgl', 'headlessgl', 'webasm', 'cpu'];

/** Modes whose pipelined kernel outputs are textures in device memory (the others return typed arrays). */
export function isDeviceMode(mode: GpuMode): boolean {
  return mode === 'webgl2' || mode === 'webgl' || mode === 'headlessgl';
}

/** Whether gpu.js can run `mode` here. */
export function isModeSupported(mode: GpuMode): boolean {
  switch (mode) {
    case 'webgl2':
      return GPU.isWebGL2Supported;
    case 'webgl':
      return GPU.isWebGLSupported;
    case 'headlessgl':
      return GPU.isHeadlessGLSupported;
    case 'webasm':
      return GPU.isWebAssemblySupported;
    case 'cpu':
      return true;
  }
}

/** The modes this platform offers, best first; always ends with `'cpu'`. */
export function availableModes(): GpuMode[] {
  return GPU_MODES.filter(isModeSupported);
}

/** Thrown when a requested mode is not available here. */
export class GpuModeError extends DelegateError {
  constructor(
    readonly requested: string,
    readonly available: readonly GpuMode[],
  ) {
    super(`gpu.js mode "${requested}" is not available here (available: ${available.join(', ')})`);
  }
}

/**
 * The mode to use: `'auto'` (default) is the best available mode; a named mode must be available.
 * `'gpu'` means the best GL mode, falling back like `'auto'` when none exists.
 */
export function resolveMode(requested: GpuMode | 'auto' | 'gpu' = 'auto'): GpuMode {
  const available = availableModes();
  if (requested === 'auto' || requested === 'gpu') return available[0]!;
  if (!(GPU_MODES as readonly string[]).includes(requested) || !available.includes(requested)) throw new GpuModeError(requested, available);
  return requested;
}
