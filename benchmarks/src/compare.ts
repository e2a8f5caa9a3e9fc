/**
 * Output agreement between runtimes, checked before a time is trusted (LiteRT.js, for one, silently
 * returns zeros for custom ops it lacks). Outputs are decoded by dtype and compared element by element
 * with the reference runtime's.
 */
import type { TensorInfo } from './runtime.js';

/** How a runtime's outputs compare with the reference's. */
export interface Agreement {
  /**
   * `exact`: every element equal. `close`: floats within 1e-4 of the output's largest |value| (plus
   * 1e-6), integers within 1 step: what two correct runtimes that sum in different orders give.
   * `rounding`: integer outputs within {@link ROUNDING_MAX_STEPS} steps and a mean within
   * {@link ROUNDING_MEAN_STEPS}: TFLite's optimized int8 kernels (XNNPACK, float requantization) round
   * differently from TFLM's reference kernels and the differences add up over the layers; the time is
   * still comparable. `differs`: beyond that (the time is not comparable). `zeros`: all-zero outputs
   * where the reference has non-zeros (e.g. LiteRT.js on a custom op it lacks). `mismatch`: different
   * output count or sizes.
   */
  verdict: 'exact' | 'close' | 'rounding' | 'differs' | 'zeros' | 'mismatch';
  /** Largest |a − b| over all outputs (in the dtype's units: quantized steps for integers); null on a mismatch. */
  maxAbsDiff: number | null;
  /** Mean |a − b| over all elements (absent on a mismatch). */
  meanAbsDiff?: number;
  /** What differs, for `mismatch`. */
  detail?: string;
}

/** Largest integer difference (in steps) that still counts as `rounding`. */
export const ROUNDING_MAX_STEPS = 16;
/** Largest mean integer difference (in steps) that still counts as `rounding`. */
export const ROUNDING_MEAN_STEPS = 4;

/** The elements of raw little-endian bytes of `dtype` as numbers (int64 as Number). */
export function decode(dtype: string, bytes: Uint8Array): ArrayLike<number> {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  switch (dtype) {
    case 'float32':
      return new Float32Array(buf);
    case 'int8':
      return new Int8Array(buf);
    case 'uint8':
    case 'bool':
      return new Uint8Array(buf);
    case 'int16':
      return new Int16Array(buf);
    case 'int32':
      return new Int32Array(buf);
    case 'int64':
      return Array.from(new BigInt64Array(buf), Number);
    default:
      return new Uint8Array(buf);
  }
}

/**
 * For each reference output, the index of the same output in `outputs`: by tensor name when every name
 * is found (a runtime may order its outputs by signature name), else by position.
 */
export function alignOutputs(reference: readonly TensorInfo[], outputs: readonly TensorInfo[]): number[] {
  const byName = reference.map((r) => outputs.findIndex((o) => o.name === r.name));
  return byName.every((i) => i >= 0) && new Set(byName).size === byName.length ? byName : reference.map((_, j) => j);
}

/** Compares `got` with the reference outputs `want` (aligned with {@link alignOutputs}). */
export function compareOutputs(
  wantInfo: readonly TensorInfo[],
  want: readonly Uint8Array[],
  gotInfo: readonly TensorInfo[],
  got: readonly Uint8Array[],
): Agreement {
  if (want.length !== got.length)
    return { verdict: 'mismatch', maxAbsDiff: null, detail: `${got.length} outputs, the reference has ${want.length}` };
  const order = alignOutputs(wantInfo, gotInfo);
  let max = 0;
  let sum = 0;
  let count = 0;
  let exact = true;
  let close = true;
  let integer = true;
  let allZero = true;
  let refNonZero = false;
  for (let j = 0; j < want.length; j++) {
    const k = order[j]!;
    const w = want[j]!;
    const g = got[k]!;
    if (w.byteLength !== g.byteLength || wantInfo[j]!.dtype !== gotInfo[k]!.dtype)
      return {
        verdict: 'mismatch',
        maxAbsDiff: null,
        detail: `output ${j}: ${gotInfo[k]!.dtype} ${g.byteLength} B, the reference ${wantInfo[j]!.dtype} ${w.byteLength} B`,
      };
    const isFloat = wantInfo[j]!.dtype.startsWith('float');
    if (isFloat) integer = false;
    const a = decode(wantInfo[j]!.dtype, w);
    const b = decode(gotInfo[k]!.dtype, g);
    let scale = 0;
    for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i]!));
    const tolerance = isFloat ? 1e-4 * scale + 1e-6 : 1;
    count += a.length;
    for (let i = 0; i < a.length; i++) {
      const ref = a[i]!;
      const v = b[i]!;
      if (ref !== 0) refNonZero = true;
      if (v !== 0) allZero = false;
      if (ref === v) continue;
      exact = false;
      const d = Number.isNaN(ref) || Number.isNaN(v) ? Infinity : Math.abs(ref - v);
      sum += d;
      if (d > max) max = d;
      if (d > tolerance) close = false;
    }
  }
  const meanAbsDiff = count ? sum / count : 0;
  if (refNonZero && allZero) return { verdict: 'zeros', maxAbsDiff: max, meanAbsDiff };
  const rounding = integer && max <= ROUNDING_MAX_STEPS && meanAbsDiff <= ROUNDING_MEAN_STEPS;
  return { verdict: exact ? 'exact' : close ? 'close' : rounding ? 'rounding' : 'differs', maxAbsDiff: max, meanAbsDiff };
}
