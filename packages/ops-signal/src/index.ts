/**
 * @micrort/ops-signal — kernels for TFLM's signal-library custom ops, bit-exact with TFLM: the audio
 * front end (SignalWindow, SignalRfft, SignalEnergy, SignalFftAutoScale, SignalFilterBank,
 * SignalFilterBankSquareRoot, SignalFilterBankSpectralSubtraction, SignalPCAN, SignalFilterBankLog) and
 * the back end (SignalDelay, SignalFramer, SignalIrfft, SignalOverlapAdd, SignalStacker).
 */
import type { KernelPackage, OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { SIGNAL_DELAY } from './kernels/delay.js';
import { SIGNAL_ENERGY } from './kernels/energy.js';
import { SIGNAL_FFT_AUTO_SCALE } from './kernels/fft-auto-scale.js';
import { SIGNAL_FILTER_BANK } from './kernels/filter-bank.js';
import { SIGNAL_FILTER_BANK_LOG } from './kernels/filter-bank-log.js';
import { SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION } from './kernels/filter-bank-spectral-subtraction.js';
import { SIGNAL_FILTER_BANK_SQUARE_ROOT } from './kernels/filter-bank-square-root.js';
import { SIGNAL_FRAMER } from './kernels/framer.js';
import { SIGNAL_IRFFT } from './kernels/irfft.js';
import { SIGNAL_OVERLAP_ADD } from './kernels/overlap-add.js';
import { SIGNAL_PCAN } from './kernels/pcan.js';
import { SIGNAL_RFFT } from './kernels/rfft.js';
import { SIGNAL_STACKER } from './kernels/stacker.js';
import { SIGNAL_WINDOW } from './kernels/window.js';

import { PROVIDER } from './provider.js';

export { PROVIDER };
// The FlexBuffers reader now lives in @micrort/core; re-exported here for existing users of this package.
export { FlexBufferError, FlexMap, FlexType, parseFlexMap, type FlexValue } from '@micrort/core';
export {
  SIGNAL_DELAY,
  SIGNAL_ENERGY,
  SIGNAL_FFT_AUTO_SCALE,
  SIGNAL_FILTER_BANK,
  SIGNAL_FILTER_BANK_LOG,
  SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION,
  SIGNAL_FILTER_BANK_SQUARE_ROOT,
  SIGNAL_FRAMER,
  SIGNAL_IRFFT,
  SIGNAL_OVERLAP_ADD,
  SIGNAL_PCAN,
  SIGNAL_RFFT,
  SIGNAL_STACKER,
  SIGNAL_WINDOW,
};

/** Every signal kernel. */
export const signalKernels: readonly Registration[] = [
  SIGNAL_WINDOW,
  SIGNAL_RFFT,
  SIGNAL_ENERGY,
  SIGNAL_FFT_AUTO_SCALE,
  SIGNAL_FILTER_BANK,
  SIGNAL_FILTER_BANK_SQUARE_ROOT,
  SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION,
  SIGNAL_PCAN,
  SIGNAL_FILTER_BANK_LOG,
  SIGNAL_DELAY,
  SIGNAL_FRAMER,
  SIGNAL_IRFFT,
  SIGNAL_OVERLAP_ADD,
  SIGNAL_STACKER,
] as Registration[];

/** Registers every signal kernel on `resolver`. */
export function registerSignalOps(resolver: OpResolver, options: RegisterOptions = {}): OpResolver {
  return resolver.registerAll(signalKernels, options);
}

/** ops-signal as a kernel package (`composeRuntime([referencePackage, signalPackage, …])`): TFLM's fourteen signal-library custom ops. */
export const signalPackage: KernelPackage = {
  name: 'ops-signal',
  provider: PROVIDER,
  summary: "TFLM's signal-library custom ops (the audio front end: SignalWindow, SignalRfft, SignalFilterBank, …), bit-exact with TFLM",
  provides: ['custom-ops'],
  join: 'register',
  create: () => ({ register: (resolver, options) => void registerSignalOps(resolver, options) }),
};
