/**
 * `micrort plan`: how each memory planner lays out a model's arena head, against the lower bound.
 *
 * The buffers come from a real allocation (the model allocated with the chosen kernels, every kernel's
 * prepare run, so scratch buffers are included); their requirements are then re-planned by each planner.
 * Nodes micrort cannot prepare (no kernel serves the op, or the kernel's init or prepare throws) get a
 * planning stand-in without prepare (@micrort/deploy's allocateWithStandIns, as `micrort deploy`): their
 * tensors are planned at the file's shapes, but their own scratch and persistent buffers are unknown.
 * `--strict` plans no stand-ins and fails with micrort's error instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  ARENA_ALIGNMENT,
  MicroInterpreter,
  loadModel,
  writeModel,
  type BufferRequirement,
  type InPlacePair,
  type InterpreterOptions,
  type MemoryPlan,
  type ModelDef,
  type OpResolver,
} from '@micrort/core';
import { allocateWithStandIns, type StandIn } from '@micrort/deploy';
import { OptimalPlanner, PLANNER_NAMES, createPlanner, lowerBoundAt, planReport, renderPlanSvg, withOfflinePlan } from '@micrort/planners';
import { SCHEDULE_NAMES, createSchedule, scheduleReport, type ScheduleOptions, type ScheduleReport } from '@micrort/schedules';
import { UsageError, flagString, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { MODEL_ARGUMENT, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, choice, flag, text } from '../options.js';
import {
  IN_PLACE_OPTION,
  OPS_OPTION,
  RECOMPUTE_BUDGET_OPTION,
  SIMD_MODE_OPTION,
  composeOps,
  runtimeChoice,
  scheduleChoice,
} from '../runtime.js';
import { checkOutputFile, writeOutputFile } from '../output-files.js';
import { formatMacs, inPlaceSummary, patchSummary } from '../schedule-summary.js';
import { formatBytes, printTable, type Out } from '../print.js';

/** One planner's figures, as printed and as in `--json`. */
export interface PlanRow {
  name: string;
  /** Planned head (activations and scratch buffers). */
  headBytes: number;
  /** headBytes + the interpreter's tail (persistent) bytes: the arena this plan needs. */
  totalBytes: number;
  lowerBoundBytes: number;
  /** headBytes / lowerBoundBytes. */
  ratio: number;
  planMs: number;
  /** With `--in-place`: the same planner's head when no output shares its input's memory. */
  headBytesWithoutInPlace?: number;
  /** `optimal` only: whether the plan is proven minimal. */
  provenMinimal?: boolean;
}

/** What `plan` found for one model. */
export interface PlanAnalysis {
  requirements: BufferRequirement[];
  tailBytes: number;
  lowerBoundBytes: number;
  /** With `--in-place`: the lower bound when no output shares its input's memory. */
  lowerBoundBytesWithoutInPlace?: number;
  /** First execution step where the lower bound is reached, and its op. */
  peakStep: number;
  peakOp: string;
  /** Op per execution step. */
  stepOps: string[];
  /** Nodes planned with a stand-in (micrort could not prepare them, `reason` says why): their scratch/persistent buffers are not counted. */
  standIns: StandIn[];
  inPlacePairs: InPlacePair[];
  rows: PlanRow[];
  plans: Map<string, MemoryPlan>;
  /** Whether the model carries an offline plan (OfflineMemoryAllocation metadata). */
  offlineBuffers: number;
  /** What the schedule did (name `normal` without one). */
  schedule: ScheduleReport;
}

/** Options of {@link analyzePlan}. */
export interface PlanOptions {
  /** Builds the resolver (kernels) to allocate with; stand-ins are added for ops it cannot serve. */
  resolver: () => OpResolver;
  planners: readonly string[];
  inPlace: boolean;
  /** Time budget of search planners, ms (default: the planner's). */
  timeBudgetMs?: number;
  /** The execution schedule (default normal). */
  schedule?: ScheduleOptions;
  /** Extra interpreter options the kernels need (ops-wasm's arena backing). */
  interpreterOptions?: Partial<InterpreterOptions>;
  /** Plan nodes micrort cannot prepare with stand-ins (default true); false fails with micrort's error (`--strict`). */
  standIns?: boolean;
}

/** Allocates `model` once and re-plans its buffers with each planner. */
export function analyzePlan(model: ModelDef, options: PlanOptions): PlanAnalysis {
  const { value: interp, standIns } = allocateWithStandIns(
    options.resolver,
    (resolver) =>
      new MicroInterpreter(model, resolver, {
        planner: createPlanner('greedy'),
        arena: 'auto',
        inPlace: options.inPlace,
        ...(options.schedule ? { schedule: createSchedule(options.schedule) } : {}),
        ...(options.interpreterOptions ?? {}),
      }).allocateTensors(),
    { standIns: options.standIns ?? true },
  );
  const committed = interp.memoryPlan();
  const requirements = committed.requirements;
  const nodes = interp.nodes();
  const stepOps = nodes.map((n) => n.op);
  const tailBytes = interp.arenaUsage().tailBytes;
  const bound = lowerBoundAt(requirements);
  const planOptions = { alignment: ARENA_ALIGNMENT, ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}) };
  const schedule = scheduleReport(interp);
  const withPairs = options.inPlace || schedule.inPlace !== null;
  const plain = withPairs && committed.inPlacePairs.length > 0 ? requirements.map(({ inPlaceOf: _drop, ...r }) => r) : null;
  const rows: PlanRow[] = [];
  const plans = new Map<string, MemoryPlan>();
  for (const name of options.planners) {
    const planner = createPlanner(name);
    const report = planReport(requirements, planner, planOptions);
    plans.set(name, report.plan);
    const row: PlanRow = {
      name,
      headBytes: report.headBytes,
      totalBytes: report.headBytes + tailBytes,
      lowerBoundBytes: report.lowerBoundBytes,
      ratio: report.ratio,
      planMs: report.planMs,
    };
    if (withPairs) row.headBytesWithoutInPlace = plain ? createPlanner(name).plan(plain, planOptions).headBytes : report.headBytes;
    if (planner instanceof OptimalPlanner) row.provenMinimal = planner.lastSearch?.provenOptimal ?? false;
    rows.push(row);
  }
  return {
    requirements,
    tailBytes,
    lowerBoundBytes: bound.bytes,
    peakStep: bound.step,
    peakOp: stepOps[bound.step] ?? '',
    stepOps,
    standIns,
    inPlacePairs: committed.inPlacePairs,
    rows,
    plans,
    offlineBuffers: requirements.filter((r) => r.offlineOffset !== undefined && r.offlineOffset >= 0).length,
    schedule,
    ...(withPairs ? { lowerBoundBytesWithoutInPlace: plain ? lowerBoundAt(plain).bytes : bound.bytes } : {}),
  };
}

/** The planner whose plan `--svg`/`--embed` use: the one asked for, or with `all` the smallest head (first on ties). */
export function chosenRow(rows: readonly PlanRow[]): PlanRow {
  return rows.reduce((best, r) => (r.headBytes < best.headBytes ? r : best), rows[0]!);
}

/** The ParsedArgs without `--planner` and `--schedule`, for runtimeChoice (which would reject `all`). */
function withoutPlanner(args: ParsedArgs): ParsedArgs {
  return { positional: args.positional, flags: new Map([...args.flags].filter(([k]) => k !== 'planner' && k !== 'schedule')) };
}

/**
 * TFLM's head bytes for a model in the conformance layout (`<name>/model.tflite` beside a
 * `tflm_figures.json`), or null.
 */
export function tflmHeadBytes(path: string | undefined): number | null {
  if (!path) return null;
  const file = join(dirname(path), '..', 'tflm_figures.json');
  if (!existsSync(file)) return null;
  try {
    const figures = JSON.parse(readFileSync(file, 'utf8')) as { models?: Record<string, { head_bytes?: number }> };
    return figures.models?.[basename(dirname(path))]?.head_bytes ?? null;
  } catch {
    return null;
  }
}

/** One schedule's figures in `plan --schedule …`. */
export interface ScheduleRow {
  name: string;
  /** The chosen planner's head (smallest of the planners asked for) and that planner. */
  headBytes: number;
  planner: string;
  /** This schedule's lower bound, and the head over the normal schedule's lower bound. */
  lowerBoundBytes: number;
  ratioToNormalBound: number;
  tailBytes: number;
  totalBytes: number;
  /** Patch schedules: extra multiply-accumulates of the tiles, and the model's. */
  extraMacs: number;
  modelMacs: number;
  /** Nodes running their in-place variant (in-place schedules). */
  inPlaceNodes: number;
  summary: string;
}

function scheduleRow(a: PlanAnalysis, normalBound: number): ScheduleRow {
  const chosen = chosenRow(a.rows);
  const r = a.schedule;
  const summary = [patchSummary(r), inPlaceSummary(r)].filter((x): x is string => x !== null).join('; ') || '-';
  return {
    name: r.name,
    headBytes: chosen.headBytes,
    planner: chosen.name,
    lowerBoundBytes: a.lowerBoundBytes,
    ratioToNormalBound: chosen.headBytes / normalBound,
    tailBytes: a.tailBytes,
    totalBytes: chosen.totalBytes,
    extraMacs: r.patch?.macs.extra ?? 0,
    modelMacs: r.patch?.macs.model ?? 0,
    inPlaceNodes: r.inPlace?.length ?? 0,
    summary,
  };
}

/**
 * `micrort plan [model] [--planner NAME|all] [--ops reference|simd] [--in-place] [--schedule NAME|all]
 * [--recompute-budget PERCENT] [--svg FILE] [--embed OUT.tflite] [--json]`
 */
export const planCommand = defineCommand({
  name: 'plan',
  summary: "compare the memory planners' arena heads with the lower bound; draw or embed a plan",
  description:
    "Lays out a model's arena head with each memory planner (the buffers of a real allocation, scratch\n" +
    'included) and prints head bytes, total arena, the lower bound, their ratio and the planning time.\n' +
    '--schedule NAME|all plans the buffers of that execution schedule (all: one row per schedule) beside\n' +
    "the normal schedule's lower bound, TFLM's head (conformance models) and the extra MACs of patches.",
  arguments: [MODEL_ARGUMENT],
  options: [
    choice('planner', 'the planner to report, or all', ['all', ...PLANNER_NAMES], 'all'),
    OPS_OPTION,
    SIMD_MODE_OPTION,
    IN_PLACE_OPTION,
    choice('schedule', 'execution schedule to plan, or all to compare them', ['all', ...SCHEDULE_NAMES], 'normal'),
    RECOMPUTE_BUDGET_OPTION,
    flag('strict', 'fail when micrort cannot prepare a node, instead of planning it with a stand-in'),
    text(
      'svg',
      'FILE',
      'draw the plan (the named planner, or the smallest head; with --schedule all the best schedule) as an SVG picture',
      { default: 'no picture' },
    ),
    text('embed', 'OUT.tflite', 'write the model with that plan as OfflineMemoryAllocation metadata (run it with --planner offline)', {
      default: 'not written',
    }),
    JSON_OPTION,
  ],
  run: planAction,
});

function planAction(args: ParsedArgs, out: Out): number {
  const path = args.positional[0];
  const svgFile = flagString(args, 'svg');
  const embedFile = flagString(args, 'embed');
  if (svgFile !== undefined) checkOutputFile('--svg', svgFile);
  if (embedFile !== undefined) checkOutputFile('--embed', embedFile);
  // A file that still cannot be written (the checks above passed) does not throw the finished analysis
  // away: the report is printed without it, then the UsageError ends the command.
  let writeError: UsageError | null = null;
  const write = (option: string, file: string, data: string | Uint8Array): boolean => {
    try {
      writeOutputFile(option, file, data);
      return true;
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      writeError ??= e;
      return false;
    }
  };
  const done = (): number => {
    if (writeError) throw writeError;
    return 0;
  };
  const { model, label: fileLabel } = loadModelArg(path);
  // `person_detect/model.tflite` rather than a bare `model.tflite` when the folder names the model.
  const parent = path ? basename(dirname(path)) : '';
  const label = path && parent && parent !== '.' ? `${parent}/${fileLabel}` : fileLabel;
  const which = flagString(args, 'planner') ?? 'all';
  const planners = which === 'all' ? [...PLANNER_NAMES] : [createPlanner(which).name];
  const scheduleFlag = flagString(args, 'schedule') ?? 'normal';
  const scheduleNames: string[] = scheduleFlag === 'all' ? [...SCHEDULE_NAMES] : [scheduleFlag];
  const choice = runtimeChoice(withoutPlanner(args));
  const inPlace = args.flags.has('in-place');
  // A resolver per analysis (stand-ins are added to it), composed the one way every runtime is.
  const runtime = () => composeOps(choice.ops, { mode: choice.simdMode, counters: choice.counters });
  const resolver = () => runtime().resolver;
  const kernelOptions = runtime().interpreterOptions;
  const standIns = !args.flags.has('strict');
  const analyses = scheduleNames.map((name) =>
    analyzePlan(model, {
      resolver,
      standIns,
      planners,
      inPlace,
      interpreterOptions: kernelOptions,
      ...(name !== 'normal' ? { schedule: scheduleChoice(args, name) } : {}),
    }),
  );
  const normal = scheduleNames.includes('normal')
    ? analyses[scheduleNames.indexOf('normal')]!
    : analyzePlan(model, { resolver, standIns, planners: ['greedy'], inPlace: false, interpreterOptions: kernelOptions });
  const normalBound = normal.lowerBoundBytes;
  const tflmHead = tflmHeadBytes(path);
  const scheduleRows = analyses.map((a) => scheduleRow(a, normalBound));
  // The analysis pictured and embedded: the only one, or with --schedule all the smallest head.
  const best = analyses.reduce(
    (b, a, i) => (scheduleRows[i]!.headBytes < scheduleRows[analyses.indexOf(b)]!.headBytes ? a : b),
    analyses[0]!,
  );
  const a = best;
  const chosen = chosenRow(a.rows);
  const schedName = a.schedule.name;
  const svgWritten = svgFile ? write('--svg', svgFile, planPicture(a, chosen, label, inPlace, normalBound, tflmHead)) : false;
  if (embedFile && a.schedule.patch?.grid)
    throw new UsageError(
      `--embed writes offsets of the model's tensors; the ${schedName} schedule plans tile buffers the model does not have (embed a normal or inplace plan)`,
      {
        option: '--embed',
        value: embedFile,
        accepted: 'a normal or inplace schedule',
      },
    );
  const embed = embedFile
    ? embedPlan(model, a, chosen, embedFile, write, choice, inPlace, schedName === 'inplace' ? scheduleChoice(args, 'inplace') : undefined)
    : null;

  if (args.flags.has('json')) {
    out.log(
      JSON.stringify(
        {
          model: label,
          ops: choice.ops,
          inPlace,
          schedule: schedName,
          tailBytes: a.tailBytes,
          lowerBoundBytes: a.lowerBoundBytes,
          ...(a.lowerBoundBytesWithoutInPlace !== undefined ? { lowerBoundBytesWithoutInPlace: a.lowerBoundBytesWithoutInPlace } : {}),
          normalLowerBoundBytes: normalBound,
          tflmHeadBytes: tflmHead,
          peak: { step: a.peakStep, op: a.peakOp },
          buffers: {
            tensors: a.requirements.filter((r) => r.kind === 'tensor').length,
            scratch: a.requirements.filter((r) => r.kind === 'scratch').length,
          },
          ...(a.standIns.length ? { standIns: a.standIns } : {}),
          ...(inPlace || a.schedule.inPlace ? { inPlacePairs: a.inPlacePairs } : {}),
          planners: a.rows,
          ...(schedName !== 'normal' ? { scheduleReport: a.schedule } : {}),
          ...(scheduleFlag === 'all' ? { schedules: scheduleRows } : {}),
          ...(svgFile && svgWritten
            ? { svg: { file: svgFile, planner: chosen.name, ...(schedName !== 'normal' ? { schedule: schedName } : {}) } }
            : {}),
          ...(embed?.written ? { embed } : {}),
        },
        null,
        2,
      ),
    );
    return done();
  }
  if (scheduleFlag === 'all') {
    printSchedules(out, label, choice.ops, scheduleRows, normal, tflmHead);
    if (svgWritten) out.log(`plan picture (${schedName}, ${chosen.name}) → ${svgFile}`);
    return done();
  }
  const tensors = a.requirements.filter((r) => r.kind === 'tensor').length;
  out.log(
    `model: ${label}  (ops: ${choice.ops}${schedName !== 'normal' ? `, schedule: ${schedName}` : ''}; ${a.requirements.length} buffers: ${tensors} tensors, ${a.requirements.length - tensors} scratch; ` +
      `tail ${formatBytes(a.tailBytes)})`,
  );
  out.log(`lower bound: ${formatBytes(a.lowerBoundBytes)}, live at step ${a.peakStep} (${a.peakOp})`);
  const withPairs = a.lowerBoundBytesWithoutInPlace !== undefined;
  const header = ['planner', 'head', 'total arena', 'lower bound', 'ratio', 'plan ms'];
  if (withPairs) header.push('head w/o in-place');
  printTable(
    out,
    header,
    a.rows.map((r) => {
      const cells = [
        r.name,
        formatBytes(r.headBytes),
        formatBytes(r.totalBytes),
        formatBytes(r.lowerBoundBytes),
        r.ratio.toFixed(3),
        r.planMs.toFixed(2),
      ];
      if (withPairs) cells.push(formatBytes(r.headBytesWithoutInPlace ?? r.headBytes));
      return cells;
    }),
  );
  for (const r of a.rows) {
    if (r.provenMinimal === undefined) continue;
    out.log(
      r.headBytes === r.lowerBoundBytes
        ? `${r.name}: reaches the lower bound (minimal)`
        : `${r.name}: ${formatBytes(r.headBytes - r.lowerBoundBytes)} above the lower bound; ${r.provenMinimal ? 'proven minimal (the bound is not reachable)' : 'not proven minimal within the search budget'}`,
    );
  }
  if (planners.includes('offline') && a.offlineBuffers === 0)
    out.log('offline: the model has no OfflineMemoryAllocation metadata, so every buffer is planned online (as greedy)');
  if (withPairs) {
    const overwrites = a.inPlacePairs.filter((p) => p.overwrite).length;
    out.log(
      `in place: ${a.inPlacePairs.length} output${a.inPlacePairs.length === 1 ? '' : 's'} share${a.inPlacePairs.length === 1 ? 's' : ''} the memory of a dying input` +
        (overwrites ? ` (${overwrites} written over it by an in-place variant)` : '') +
        (a.inPlacePairs.length
          ? ` (${a.inPlacePairs.map((p) => `t${p.output}←t${p.input} ${a.stepOps[p.step]} ${formatBytes(p.bytes)}`).join(', ')})`
          : ''),
    );
    const bestRow = chosenRow(a.rows);
    const bestPlain = Math.min(...a.rows.map((r) => r.headBytesWithoutInPlace ?? r.headBytes));
    out.log(
      `in place: lower bound ${formatBytes(a.lowerBoundBytesWithoutInPlace ?? a.lowerBoundBytes)} → ${formatBytes(a.lowerBoundBytes)}, ` +
        `smallest head ${formatBytes(bestPlain)} → ${formatBytes(bestRow.headBytes)} (saves ${formatBytes(bestPlain - bestRow.headBytes)})`,
    );
  }
  if (schedName !== 'normal') {
    const row = scheduleRows[0]!;
    const patch = patchSummary(a.schedule);
    if (patch) out.log(`patch: ${patch}`);
    out.log(
      `schedule ${schedName}: head ${formatBytes(row.headBytes)} (${row.planner}) = ${row.ratioToNormalBound.toFixed(3)}x the normal schedule's lower bound ${formatBytes(normalBound)}` +
        (tflmHead !== null ? `, ${(row.headBytes / tflmHead).toFixed(3)}x TFLM's head ${formatBytes(tflmHead)}` : ''),
    );
  } else if (tflmHead !== null) {
    out.log(`TFLM head: ${formatBytes(tflmHead)}`);
  }
  for (const s of a.standIns)
    out.log(
      `note: ${s.subgraph ? `subgraph ${s.subgraph} ` : ''}node ${s.node} ${s.op} is planned with a stand-in (micrort cannot prepare it: ${s.reason}); ` +
        'its tensors are planned at their shapes in the file, its own scratch and persistent buffers are not included (--strict refuses)',
    );
  if (svgWritten) out.log(`plan picture (${chosen.name}) → ${svgFile}`);
  if (embed?.written)
    out.log(
      `embedded the ${embed.planner} plan (${embed.tensorOffsets} tensor offsets) → ${embed.file}; ` +
        (embed.reproduced
          ? `checked: --planner offline reproduces it (head ${formatBytes(embed.offlineHeadBytes)})`
          : `warning: --planner offline gives head ${formatBytes(embed.offlineHeadBytes)} instead of ${formatBytes(embed.headBytes)}`) +
        (a.inPlacePairs.length
          ? `; the plan shares in-place pairs: run it with ${schedName === 'inplace' ? '--schedule inplace' : '--in-place'}`
          : ''),
    );
  return done();
}

/** `plan --schedule all`: one row per schedule beside the normal lower bound and TFLM's head. */
function printSchedules(
  out: Out,
  label: string,
  ops: string,
  rows: readonly ScheduleRow[],
  normal: PlanAnalysis,
  tflmHead: number | null,
): void {
  out.log(`model: ${label}  (ops: ${ops})`);
  out.log(
    `normal schedule: lower bound ${formatBytes(normal.lowerBoundBytes)}, live at step ${normal.peakStep} (${normal.peakOp})` +
      (tflmHead !== null ? `; TFLM head ${formatBytes(tflmHead)}` : ''),
  );
  printTable(
    out,
    [
      'schedule',
      'head',
      'planner',
      'lower bound',
      'x normal bound',
      ...(tflmHead !== null ? ['x TFLM head'] : []),
      'total arena',
      'extra MACs',
    ],
    rows.map((r) => [
      r.name,
      formatBytes(r.headBytes),
      r.planner,
      formatBytes(r.lowerBoundBytes),
      r.ratioToNormalBound.toFixed(3),
      ...(tflmHead !== null ? [(r.headBytes / tflmHead).toFixed(3)] : []),
      formatBytes(r.totalBytes),
      r.extraMacs > 0 ? formatMacs(r.extraMacs, r.modelMacs) : '0',
    ]),
  );
  for (const r of rows) if (r.name !== 'normal') out.log(`${r.name}: ${r.summary}`);
}

/** The SVG of a plan, with a patch stage's tile steps and buffers marked and the reference levels. */
function planPicture(
  a: PlanAnalysis,
  chosen: PlanRow,
  label: string,
  inPlace: boolean,
  normalBound: number,
  tflmHead: number | null,
): string {
  const r = a.schedule;
  const patch = r.patch?.grid ? r.patch : null;
  const marks: { bytes: number; label: string }[] = [];
  if (r.name !== 'normal') marks.push({ bytes: normalBound, label: 'normal schedule lower bound' });
  if (tflmHead !== null && tflmHead !== normalBound) marks.push({ bytes: tflmHead, label: 'TFLM head' });
  const scheduled = r.name !== 'normal' ? ` (schedule ${r.name})` : inPlace ? ' (in place)' : '';
  return renderPlanSvg(a.requirements, a.plans.get(chosen.name)!, {
    title: `${label}: ${chosen.name} plan${scheduled}, head ${formatBytes(chosen.headBytes)}, lower bound ${formatBytes(a.lowerBoundBytes)}`,
    lowerBound: a.lowerBoundBytes,
    stepLabels: a.stepOps,
    ...(patch
      ? {
          bands: [
            { from: patch.planRange![0], to: patch.planRange![1], label: `one tile, × ${patch.grid!.rows * patch.grid!.cols} tiles` },
          ],
          tileBuffers: new Set(patch.buffers.map((b) => b.tensor)),
        }
      : {}),
    ...(marks.length ? { marks } : {}),
  });
}

/** What `--embed` wrote and whether the offline planner reproduces the plan from the written file. */
export interface EmbedResult {
  file: string;
  planner: string;
  tensorOffsets: number;
  headBytes: number;
  offlineHeadBytes: number;
  reproduced: boolean;
  /** Whether the file could be written. */
  written: boolean;
}

/**
 * Writes the model with the chosen plan as OfflineMemoryAllocation metadata, then loads the written file
 * and allocates it with the offline planner to check that every tensor lands where the plan put it.
 */
function embedPlan(
  model: ModelDef,
  a: PlanAnalysis,
  row: PlanRow,
  file: string,
  write: (option: string, file: string, data: Uint8Array) => boolean,
  choice: ReturnType<typeof runtimeChoice>,
  inPlace: boolean,
  schedule?: ScheduleOptions,
): EmbedResult {
  const plan = a.plans.get(row.name)!;
  const bytes = writeModel(withOfflinePlan(model, a.requirements, plan));
  const written = write('--embed', file, bytes);
  const reloaded = loadModel(bytes);
  const runtime = () => composeOps(choice.ops, { mode: choice.simdMode, counters: choice.counters });
  const { value: interp } = allocateWithStandIns(
    () => runtime().resolver,
    (resolver) =>
      new MicroInterpreter(reloaded, resolver, {
        planner: createPlanner('offline'),
        arena: 'auto',
        inPlace,
        ...(schedule ? { schedule: createSchedule(schedule) } : {}),
        ...runtime().interpreterOptions,
      }).allocateTensors(),
    { standIns: a.standIns.length > 0 },
  );
  const replanned = interp.memoryPlan();
  const where = new Map<number, number>();
  replanned.requirements.forEach((r, i) => r.kind === 'tensor' && where.set(r.id, replanned.plan.offsets[i]!));
  let same = replanned.plan.headBytes <= plan.headBytes;
  a.requirements.forEach((r, i) => {
    if (r.kind === 'tensor' && where.get(r.id) !== plan.offsets[i]) same = false;
  });
  return {
    file,
    planner: row.name,
    tensorOffsets: a.requirements.filter((r) => r.kind === 'tensor').length,
    headBytes: plan.headBytes,
    offlineHeadBytes: replanned.plan.headBytes,
    reproduced: same,
    written,
  };
}
