import {
  composeRuntime,
  withOptions,
  type ComposeEntry,
  type ComposedRuntime,
  type DelegateOptions,
  type InterpreterOptions,
  type MemoryPlanner,
  type MicroInterpreter,
  type ModelDef,
} from '@micrort/core';
import { appRuntimePackages } from '@micrort/app-kit';
import { PLANNER_NAMES, createPlanner } from '@micrort/planners';
import { SimdCounters, type SimdMode } from '@micrort/ops-simd';
import { DEFAULT_RECOMPUTE_BUDGET, SCHEDULE_NAMES, createSchedule, type ScheduleName, type ScheduleOptions } from '@micrort/schedules';
import { appPackage, appPackageHelp, appPackageIds } from './app-packages.js';
import { UsageError, flagString, parseChoiceFlag, type ParsedArgs } from './args.js';
import { delegateChoice } from './delegate-flags.js';
import { choice, flag, text, type OptionSpec } from './options.js';

/** Kernel packages `--ops` can name (the `kernels` entries of app-kit's list). */
export const OPS_CHOICES: readonly string[] = appPackageIds('kernels');
/** Execution modes of `--ops simd` (`--simd-mode`). */
export const SIMD_MODES = ['fast', 'emulated'] as const;

/** `--ops NAME`. */
export const OPS_OPTION: OptionSpec = choice(
  'ops',
  `kernel package in front of ops-reference (${appPackageHelp('kernels')})`,
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
/** `--threads N|auto` (ops-wasm's `threads`). */
export const THREADS_OPTION: OptionSpec = text('threads', 'N', 'threads per node of --ops wasm (WebAssembly threads sharing one memory)', {
  accepts: "a positive integer (ops-wasm takes at most 64), or auto (Node's os.availableParallelism())",
  default: 'auto',
  check: (v) => void parseThreads(v),
});

/** `--threads`: a positive integer, or `auto`. */
export function parseThreads(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--threads must be a positive integer or auto, got ${value}`, {
      option: '--threads',
      value,
      accepted: 'a positive integer, or auto',
    });
  return n;
}

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
  /** `--ops`: the app package in front of the base packages. */
  ops: string;
  planner: MemoryPlanner;
  arena: number | 'auto';
  /** `--delegate` (and its options): the delegate packages composed after the kernels. */
  delegatePackages: ComposeEntry[];
  delegateOptions: DelegateOptions;
  /** `--simd-mode` (only meaningful with `--ops simd`; `emulated` counts instructions). */
  simdMode: SimdMode;
  /** The instruction counters of an emulated `--ops simd` runtime (one interpreter), else null. */
  counters: SimdCounters | null;
  /** `--threads` (only with `--ops wasm`): ops-wasm's `threads`; absent: its default, auto. */
  threads?: number | 'auto';
  /** `--in-place`: outputs may share the memory of inputs that die at their op (interpreter `inPlace`). */
  inPlace?: boolean;
  /** `--schedule` (and `--recompute-budget`): the interpreter's `schedule` (default normal). */
  schedule?: ScheduleOptions;
}

/** Reads --ops, --planner, --arena, --simd-mode, --threads, the delegate flags, --in-place and --schedule. */
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
  const threadsFlag = flagString(args, 'threads');
  if (threadsFlag !== undefined && ops !== 'wasm') throw new UsageError(`--threads applies to --ops wasm only (got --ops ${ops})`);
  const threads = threadsFlag !== undefined ? parseThreads(threadsFlag) : undefined;
  const schedule = scheduleChoice(args);
  return {
    ops,
    planner,
    arena,
    ...delegateChoice(args),
    simdMode,
    counters,
    ...(threads !== undefined ? { threads } : {}),
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

/** Options of the `--ops` package: `--simd-mode` (and its counters) for ops-simd, `--threads` for ops-wasm. */
export interface OpsOptions {
  mode?: SimdMode;
  counters?: SimdCounters | null;
  threads?: number | 'auto';
}

/**
 * The package `--ops` puts in front of the base, with its options (`--ops simd`: `--simd-mode`,
 * counting into `counters` when emulated; `--ops wasm`: `--threads`).
 */
export function opsEntry(ops: string, o: OpsOptions = {}): ComposeEntry {
  const pkg = appPackage(parseChoiceFlag('ops', ops, OPS_CHOICES), '--ops');
  if (ops === 'wasm' && o.threads !== undefined) return withOptions(pkg, { threads: o.threads });
  if (ops !== 'simd') return pkg;
  return withOptions(pkg, { mode: o.mode ?? 'fast', ...(o.counters ? { counters: o.counters } : {}) });
}

/**
 * A runtime of `--ops` kernels without delegates: app-kit's base packages with the `ops` package in
 * front, composed by `composeRuntime()` (its `interpreterOptions` carry what the kernels need, such as
 * ops-wasm's arena backing).
 */
export function composeOps(ops: string, o: OpsOptions = {}): ComposedRuntime {
  return composeRuntime(appRuntimePackages(opsEntry(ops, o)));
}

/** The runtime the flags ask for: the kernels of {@link composeOps} and the `--delegate` packages. Dispose it after its interpreters. */
export function composeChoice(choice: RuntimeChoice): ComposedRuntime {
  return composeRuntime(
    appRuntimePackages(
      opsEntry(choice.ops, {
        mode: choice.simdMode,
        counters: choice.counters,
        ...(choice.threads !== undefined ? { threads: choice.threads } : {}),
      }),
      choice.delegatePackages,
    ),
  );
}

/** The interpreter options the flags ask for (planner, arena, delegate options, in-place, schedule), `extra` last. */
export function interpreterOptions(choice: RuntimeChoice, extra: Partial<InterpreterOptions> = {}): InterpreterOptions {
  return {
    planner: choice.planner,
    arena: choice.arena,
    ...(choice.delegatePackages.length ? { delegateOptions: choice.delegateOptions } : {}),
    ...(choice.inPlace ? { inPlace: true } : {}),
    ...(choice.schedule ? { schedule: createSchedule(choice.schedule) } : {}),
    ...extra,
  };
}

/** A MicroInterpreter of `runtime` (composed for `choice`) for the model. */
export function buildInterpreter(
  runtime: ComposedRuntime,
  model: ModelDef,
  choice: RuntimeChoice,
  extra: Partial<InterpreterOptions> = {},
): MicroInterpreter {
  return runtime.createInterpreter(model, interpreterOptions(choice, extra));
}
