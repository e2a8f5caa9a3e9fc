import {
  DEFAULT_RECOMPUTE_BUDGET,
  MicroInterpreter,
  OpResolver,
  SCHEDULE_NAMES,
  type ScheduleName,
  type ScheduleOptions,
  type Delegate,
  type DelegateOptions,
  type InterpreterOptions,
  type MemoryPlanner,
  type ModelDef,
} from '@micrort/core';
import { PLANNER_NAMES, createPlanner } from '@micrort/planners';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerMediapipeOps } from '@micrort/ops-mediapipe';
import { registerCoralOps } from '@micrort/ops-coral';
import { registerSignalOps } from '@micrort/ops-signal';
import { SimdCounters, createSimdKernels, type SimdMode } from '@micrort/ops-simd';
import { loadWasmKernelsSync, type WasmKernels } from '@micrort/ops-wasm';
import { UsageError, flagString, parseChoiceFlag, type ParsedArgs } from './args.js';
import { delegateChoice } from './delegate-flags.js';
import { choice, flag, text, type OptionSpec } from './options.js';

/** What a kernel set registers with (the `--simd-mode` and its instruction counters). */
export interface KernelSetOptions {
  simdMode: SimdMode;
  counters: SimdCounters | null;
}

/**
 * A kernel set `--ops` can name. Every runtime has ops-reference (and the signal library's custom ops)
 * as the fallback; a set registers its own kernels in front of them with `{ fallback: true }`, so the
 * resolver picks it per node where it supports the node and ops-reference elsewhere.
 */
export interface KernelSet {
  /** One line for `--help`. */
  summary: string;
  /** Registers the set's kernels into a resolver that already holds ops-reference. */
  register(resolver: OpResolver, options: KernelSetOptions): void;
  /** Interpreter options the set's kernels need (ops-wasm: the arena in WebAssembly memory). */
  interpreterOptions?(): Partial<InterpreterOptions>;
}

let loadedWasm: WasmKernels | null = null;
/**
 * ops-wasm, compiled once per process (throws WasmUnsupportedError, naming what is missing, where the
 * engine lacks WebAssembly SIMD128).
 */
export function wasmKernels(): WasmKernels {
  return (loadedWasm ??= loadWasmKernelsSync());
}

/** The kernel sets of `--ops`, by name. Adding a kernel package to the CLI is one entry here. */
export const KERNEL_SETS: Record<string, KernelSet> = {
  reference: { summary: "ops-reference, TFLM's reference kernels", register: () => {} },
  simd: {
    summary: 'ops-simd, CMSIS-NN-style int8 kernels in front of ops-reference',
    register: (resolver, o) =>
      resolver.registerAll(createSimdKernels({ mode: o.simdMode, ...(o.counters ? { counters: o.counters } : {}) }), { fallback: true }),
  },
  wasm: {
    summary: 'ops-wasm, WebAssembly SIMD128 kernels (int8 bit-exact, float32) in front of ops-reference, the arena in WebAssembly memory',
    register: (resolver) => resolver.registerAll(wasmKernels().kernels, { fallback: true }),
    interpreterOptions: () => ({ arenaBacking: wasmKernels().arenaBacking }),
  },
};

/** Kernel sets the CLI can compose (the names of {@link KERNEL_SETS}). */
export const OPS_CHOICES: readonly string[] = Object.keys(KERNEL_SETS);
/** Execution modes of `--ops simd` (`--simd-mode`). */
export const SIMD_MODES = ['fast', 'emulated'] as const;

/** `--ops NAME`. */
export const OPS_OPTION: OptionSpec = choice(
  'ops',
  `kernel set (${Object.entries(KERNEL_SETS)
    .map(([k, v]) => `${k}: ${v.summary}`)
    .join('; ')})`,
  OPS_CHOICES,
  'reference',
);
/** `--simd-mode fast|emulated`. */
export const SIMD_MODE_OPTION: OptionSpec = choice(
  'simd-mode',
  'how --ops simd runs: fast JS, or emulated ARM DSP instructions with counts',
  SIMD_MODES,
  'fast',
  'MODE',
);
/** `--planner NAME`. */
export const PLANNER_OPTION: OptionSpec = choice('planner', 'memory planner of the arena head', PLANNER_NAMES, 'greedy');
/** `--arena BYTES|auto`. */
export const ARENA_OPTION: OptionSpec = text('arena', 'BYTES', 'arena size', {
  accepts: 'a positive number of bytes, or auto (the planned size)',
  default: 'auto',
  check: (v) => void parseArena(v),
});
/** `--in-place`. */
export const IN_PLACE_OPTION: OptionSpec = flag('in-place', 'let outputs share the memory of inputs that die at their op');
/** `--schedule NAME`. */
export const SCHEDULE_OPTION: OptionSpec = choice(
  'schedule',
  "execution schedule: normal (TFLM's), inplace (kernels' in-place variants), patch (the first stage tile by tile), patch+inplace",
  SCHEDULE_NAMES,
  'normal',
);
/** `--recompute-budget PERCENT`. */
export const RECOMPUTE_BUDGET_OPTION: OptionSpec = text(
  'recompute-budget',
  'PERCENT',
  "patch schedules: most extra multiply-accumulates the tiles may recompute, in % of the model's",
  {
    accepts: 'a non-negative number',
    default: String(DEFAULT_RECOMPUTE_BUDGET * 100),
    check: (v) => void parseBudget(v),
  },
);

/** `--recompute-budget`: a non-negative percentage, as a fraction. */
export function parseBudget(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--recompute-budget must be a non-negative number of percent, got ${value}`, {
      option: '--recompute-budget',
      value,
      accepted: 'a non-negative number',
    });
  return n / 100;
}

/** The schedule `--schedule` and `--recompute-budget` ask for (`name` overrides `--schedule`). */
export function scheduleChoice(args: ParsedArgs, name?: string): ScheduleOptions {
  const schedule = parseChoiceFlag('schedule', name ?? flagString(args, 'schedule') ?? 'normal', SCHEDULE_NAMES) as ScheduleName;
  const budget = flagString(args, 'recompute-budget');
  return { name: schedule, ...(budget !== undefined ? { recomputeBudget: parseBudget(budget) } : {}) };
}

/** What the flags asked for. */
export interface RuntimeChoice {
  ops: string;
  planner: MemoryPlanner;
  arena: number | 'auto';
  delegates: Delegate[];
  delegateOptions: DelegateOptions;
  /** `--simd-mode` (only meaningful with `--ops simd`; `emulated` counts instructions). */
  simdMode: SimdMode;
  /** The instruction counters of an emulated `--ops simd` runtime (one interpreter), else null. */
  counters: SimdCounters | null;
  /** `--in-place`: outputs may share the memory of inputs that die at their op (interpreter `inPlace`). */
  inPlace?: boolean;
  /** `--schedule` (and `--recompute-budget`): the interpreter's `schedule` (default normal). */
  schedule?: ScheduleOptions;
}

/** Reads --ops, --planner, --arena from the flags. */
export function runtimeChoice(args: ParsedArgs): RuntimeChoice {
  // --cycles needs the emulated ops-simd kernels: it implies --ops simd and --simd-mode emulated.
  const cycles = args.flags.has('cycles');
  const ops = parseChoiceFlag('ops', flagString(args, 'ops') ?? (cycles ? 'simd' : 'reference'), OPS_CHOICES);
  const planner = createPlanner(parseChoiceFlag('planner', flagString(args, 'planner') ?? 'greedy', PLANNER_NAMES));
  const arena = parseArena(flagString(args, 'arena') ?? 'auto');
  const simdMode = parseChoiceFlag('simd-mode', flagString(args, 'simd-mode') ?? (cycles ? 'emulated' : 'fast'), SIMD_MODES);
  if (args.flags.has('simd-mode') && ops !== 'simd') throw new UsageError(`--simd-mode applies to --ops simd only (got --ops ${ops})`);
  if (cycles && (ops !== 'simd' || simdMode !== 'emulated'))
    throw new UsageError(`--cycles needs --ops simd --simd-mode emulated (got --ops ${ops}, --simd-mode ${simdMode})`);
  const counters = ops === 'simd' && simdMode === 'emulated' ? new SimdCounters() : null;
  const schedule = scheduleChoice(args);
  return {
    ops,
    planner,
    arena,
    ...delegateChoice(args),
    simdMode,
    counters,
    inPlace: args.flags.has('in-place'),
    ...(schedule.name !== 'normal' ? { schedule } : {}),
  };
}

/** `--arena`: a positive byte count or `auto`. */
export function parseArena(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`--arena must be a positive number of bytes or auto, got ${value}`, {
      option: '--arena',
      value,
      accepted: 'a positive number of bytes, or auto',
    });
  return n;
}

/**
 * The resolver for an --ops choice: ops-reference, the signal library's, MediaPipe's and Coral's custom ops, with the
 * kernel set's kernels registered in front of them (for `simd`: in `simd.mode`, counting into
 * `simd.counters` when emulated).
 */
export function buildResolver(ops: string, simd: { mode?: SimdMode; counters?: SimdCounters | null } = {}): OpResolver {
  const set = KERNEL_SETS[parseChoiceFlag('ops', ops, OPS_CHOICES)]!;
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  registerSignalOps(resolver); // TFLM's signal-library custom ops (SignalWindow, SignalRfft, ...)
  registerMediapipeOps(resolver); // MediaPipe's custom ops (Convolution2DTransposeBias, ...)
  registerCoralOps(resolver); // Coral's custom ops (PosenetDecoderOp)
  set.register(resolver, { simdMode: simd.mode ?? 'fast', counters: simd.counters ?? null });
  return resolver;
}

/** Interpreter options an --ops kernel set needs (ops-wasm: the arena in its WebAssembly memory), else none. */
export function kernelSetOptions(ops: string): Partial<InterpreterOptions> {
  return KERNEL_SETS[ops]?.interpreterOptions?.() ?? {};
}

/** A MicroInterpreter for the model and choice. */
export function buildInterpreter(model: ModelDef, choice: RuntimeChoice, extra: Partial<InterpreterOptions> = {}): MicroInterpreter {
  return new MicroInterpreter(model, buildResolver(choice.ops, { mode: choice.simdMode, counters: choice.counters }), {
    planner: choice.planner,
    arena: choice.arena,
    ...(choice.delegates.length ? { delegates: choice.delegates, delegateOptions: choice.delegateOptions } : {}),
    ...(choice.inPlace ? { inPlace: true } : {}),
    ...(choice.schedule ? { schedule: choice.schedule } : {}),
    ...kernelSetOptions(choice.ops),
    ...extra,
  });
}
