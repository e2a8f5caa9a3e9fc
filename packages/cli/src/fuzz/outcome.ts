import { KernelError, MicrortError } from '@micrort/core';

/** Where in the pipeline a case ended. */
export type Stage = 'generate' | 'load' | 'allocate' | 'input' | 'invoke' | 'determinism' | 'sanitizer' | 'worker';

/**
 * What counts as a bug:
 * - `native-error`: a non-micrort error (TypeError, RangeError, ...) escaped from the runtime.
 * - `kernel-crash`: a kernel threw a native error in prepare or invoke; the interpreter wrapped it in a
 *   KernelError, but the kernel should have refused the node in prepare with a reason.
 * - `bad-message`: a typed error whose message is empty or shows `undefined` / `[object Object]`.
 * - `nondeterministic`: the same model and inputs gave different outputs in two arenas initialised with
 *   different bytes: something read memory nobody wrote (an output not fully written, a scratch buffer
 *   read before written, overlapping buffers, a tensor read before it is produced).
 * - `out-of-bounds-read`: outputs changed when every tensor was given guard elements past its end: a
 *   kernel read past a tensor (normally that silently yields undefined → 0/NaN).
 * - `out-of-bounds-write`: a kernel wrote into those guard elements.
 * - `inconsistent`: an interpreter with an arena of exactly the reported size failed where the first
 *   one ran (the reported arena size is wrong), or a second identical run failed differently.
 * - `hang`: the case ran past its time bound (worker terminated).
 * - `crash`: the worker died (e.g. out of heap memory).
 * - `memory-growth`: the worker's heap after GC grew past the bound over the campaign.
 */
export type FailureKind =
  | 'native-error'
  | 'kernel-crash'
  | 'bad-message'
  | 'nondeterministic'
  | 'out-of-bounds-read'
  | 'out-of-bounds-write'
  | 'inconsistent'
  | 'hang'
  | 'crash'
  | 'memory-growth';

/** The result of one case. */
export interface CaseOutcome {
  /** ok: ran and passed every check; rejected: a typed micrort error; failure: a bug (see FailureKind). */
  result: 'ok' | 'rejected' | 'failure';
  stage: Stage;
  /** Class name of the error (typed or native). */
  errorName?: string;
  message?: string;
  failure?: FailureKind;
  /** Extra detail for failures (which tensor differed, where a guard was hit, ...). */
  detail?: string;
  stack?: string;
  /** Milliseconds the case took in the executor. */
  ms?: number;
}

/** Messages that show a formatting bug rather than information. */
const BAD_MESSAGE = /\bundefined\b|\[object Object\]/;

/** Classifies an error thrown at `stage`: a typed rejection, or a failure when it is not a proper micrort error. */
export function classifyError(e: unknown, stage: Stage): CaseOutcome {
  if (e instanceof KernelError) {
    const cause = (e as { cause?: unknown }).cause;
    if (cause !== undefined && !(cause instanceof MicrortError)) {
      const c = cause as Error;
      return {
        result: 'failure',
        failure: 'kernel-crash',
        stage,
        errorName: c?.name ?? 'Error',
        message: e.message,
        ...(c?.stack ? { stack: c.stack } : {}),
      };
    }
  }
  if (e instanceof MicrortError) {
    if (!e.message || BAD_MESSAGE.test(e.message)) {
      return {
        result: 'failure',
        failure: 'bad-message',
        stage,
        errorName: e.name,
        message: e.message,
        ...(e.stack ? { stack: e.stack } : {}),
      };
    }
    return { result: 'rejected', stage, errorName: e.name, message: e.message };
  }
  const err = e as Error;
  return {
    result: 'failure',
    failure: 'native-error',
    stage,
    errorName: err?.name ?? typeof e,
    message: err?.message ?? String(e),
    ...(err?.stack ? { stack: err.stack } : {}),
  };
}

/**
 * The key outcomes are counted under: `ok` (`ok, guard check incomplete` when the guarded run hit a
 * guard artifact, `ok, no guard check (kernel memory)` when the kernels work in their own memory), the typed error's class, or `FAILURE:<kind>`.
 */
export function outcomeKey(o: CaseOutcome): string {
  if (o.result === 'ok')
    return o.detail?.startsWith('guard check incomplete')
      ? 'ok, guard check incomplete'
      : o.detail?.startsWith('guard check skipped')
        ? 'ok, no guard check (kernel memory)'
        : 'ok';
  if (o.result === 'rejected') return o.errorName ?? 'MicrortError';
  return `FAILURE:${o.failure}`;
}
