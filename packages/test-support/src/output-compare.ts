/**
 * What the oracle tests of ops-reference's TFLite builtins (registrations/tflite-builtins.ts) share: run one model through micrort
 * (ops-reference + ops-signal) and through TFLite 2.9 (or any runner that returns output bytes), and
 * compare every output — integers and bools byte for byte, float32/float64 within
 * |a − b| ≤ 1e-5 + 1e-4·|b| (NaN equals NaN). A data-dependent output (WHERE, UNIQUE…) is planned at its
 * upper bound in micrort and has its actual dims after invoke: `runMicrort` returns those dims and the
 * elements they hold, which must equal TFLite's (TFLite allocates such outputs at their actual size).
 */
import { MicroInterpreter, loadModel, tensorTypeName } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from './conformance.js';

/** One output as a runtime returned it. */
export interface RunOutput {
  dtype: string;
  bytes: Uint8Array;
  /** The output's dims after the run (the actual dims of a data-dependent output), when known. */
  dims?: number[];
}

/**
 * micrort's outputs for `model` on raw `inputs` (greedy planner, ops-reference + ops-signal): each one's
 * dims after the last invoke and the bytes of that many elements.
 */
export function runMicrort(model: Uint8Array, inputs: readonly Uint8Array[], invokes = 1): RunOutput[] {
  const interp = new MicroInterpreter(loadModel(model), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
  interp.allocateTensors();
  inputs.forEach((b, i) => interp.setInput(i, b));
  for (let k = 0; k < invokes; k++) interp.invoke();
  const out: RunOutput[] = [];
  for (let j = 0; j < interp.outputsSize; j++) {
    const t = interp.output(j);
    out.push({ dtype: tensorTypeName(t.type), bytes: t.bytes.slice(0, t.byteLength), dims: Array.from(t.dims) });
  }
  interp.dispose();
  return out;
}

/** The outcome of comparing one output. */
export interface OutputDiff {
  ok: boolean;
  /** Largest |a − b| over float elements (0 for integer outputs). */
  maxAbsDiff: number;
  detail: string;
}

function view(dtype: string, b: Uint8Array): ArrayLike<number> | ArrayLike<bigint> {
  const c = b.slice();
  switch (dtype) {
    case 'float32':
      return new Float32Array(c.buffer);
    case 'float64':
      return new Float64Array(c.buffer);
    case 'int32':
      return new Int32Array(c.buffer);
    case 'int16':
      return new Int16Array(c.buffer);
    case 'uint16':
      return new Uint16Array(c.buffer);
    case 'uint32':
      return new Uint32Array(c.buffer);
    case 'uint64':
      return new BigUint64Array(c.buffer);
    case 'int8':
      return new Int8Array(c.buffer);
    case 'int64':
      return new BigInt64Array(c.buffer);
    default:
      return c;
  }
}

/** A dtype as micrort names it: the addon reports some types by their C names (`kTfLiteInt64` → `int64`). */
export function dtypeName(dtype: string): string {
  return dtype.startsWith('kTfLite') ? dtype.slice(7).toLowerCase() : dtype;
}

/**
 * Compares micrort's output `got` with the oracle's `want` (same dtype, same size; same dims when both
 * state them).
 */
export function compareOutput(got: RunOutput, want: RunOutput): OutputDiff {
  if (got.dtype !== dtypeName(want.dtype)) return { ok: false, maxAbsDiff: 0, detail: `dtype ${got.dtype} vs ${want.dtype}` };
  if (got.dims && want.dims && got.dims.join(',') !== want.dims.join(','))
    return { ok: false, maxAbsDiff: 0, detail: `dims [${got.dims.join(', ')}] vs [${want.dims.join(', ')}]` };
  return compareSameType(got, want);
}

/**
 * Compares an integer output of another integer type than the oracle's element by element as numbers
 * (TFLite 2.9 writes some index outputs as int32 whatever type the model declares).
 */
export function compareIntegerValues(got: RunOutput, want: RunOutput): OutputDiff {
  const a = view(got.dtype, got.bytes);
  const b = view(dtypeName(want.dtype), want.bytes);
  if (a.length !== b.length) return { ok: false, maxAbsDiff: 0, detail: `${a.length} elements vs ${b.length}` };
  for (let i = 0; i < a.length; i++)
    if (Number(a[i]) !== Number(b[i]))
      return { ok: false, maxAbsDiff: 0, detail: `element ${i}: micrort ${String(a[i])}, oracle ${String(b[i])}` };
  return { ok: true, maxAbsDiff: 0, detail: '' };
}

function compareSameType(got: RunOutput, want: RunOutput): OutputDiff {
  const size = want.bytes.byteLength;
  if (got.bytes.byteLength !== size) return { ok: false, maxAbsDiff: 0, detail: `${got.bytes.byteLength} bytes vs ${size}` };
  const a = view(got.dtype, got.bytes);
  const b = view(dtypeName(want.dtype), want.bytes);
  const isFloat = got.dtype === 'float32' || got.dtype === 'float64';
  let max = 0;
  let bad = -1;
  for (let i = 0; i < b.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (!isFloat) {
      if (x !== y && bad < 0) bad = i;
      continue;
    }
    const xf = x as number;
    const yf = y as number;
    if (Number.isNaN(xf) && Number.isNaN(yf)) continue;
    const d = Math.abs(xf - yf);
    if (!(d <= max)) max = d;
    if (!(d <= 1e-5 + 1e-4 * Math.abs(yf)) && bad < 0) bad = i;
  }
  return bad < 0
    ? { ok: true, maxAbsDiff: max, detail: '' }
    : { ok: false, maxAbsDiff: max, detail: `element ${bad}: micrort ${String(a[bad])}, oracle ${String(b[bad])}` };
}
