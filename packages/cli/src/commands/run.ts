import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  InputError,
  MicroProfiler,
  TensorType,
  tensorTypeName,
  type ComposedRuntime,
  type MicroInterpreter,
  type ModelDef,
  type NodeProfile,
  type Tensor,
} from '@micrort/core';
import { SplitMix64, fillRandom, formatTopEntry, isClassifierShape, readAnnotations, topK, type TopEntry } from '@micrort/app-kit';
import { scheduleReport } from '@micrort/schedules';
import { flagInt, flagString, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { MODEL_ARGUMENT, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, int, text } from '../options.js';
import {
  ARENA_OPTION,
  IN_PLACE_OPTION,
  OPS_OPTION,
  PLANNER_OPTION,
  RECOMPUTE_BUDGET_OPTION,
  SCHEDULE_OPTION,
  SIMD_MODE_OPTION,
  THREADS_OPTION,
  buildInterpreter,
  composeChoice,
  runtimeChoice,
  type RuntimeChoice,
} from '../runtime.js';
import { printServed, servedReport } from '../served.js';
import { checkOutputDir, makeOutputDir, writeOutputFile } from '../output-files.js';
import { scheduleSummary } from '../schedule-summary.js';
import { CYCLE_OPTIONS, cycleOptions, cycleReport, printCycleReport } from '../simd-cycles.js';
import { formatBytes, printTable, type Out } from '../print.js';
import { DELEGATE_OPTIONS, delegateLabel, delegateReport, printPartitions } from '../delegate-flags.js';

/** `micrort run [model] [--inputs DIR] [--outputs DIR] [--ops NAME] [--planner NAME] [--arena BYTES|auto] [--seed N] [--json] ...` */
export const runCommand = defineCommand({
  name: 'run',
  summary: 'run one inference and print the outputs, the arena and the kernel of every node',
  description:
    'Runs one inference of a model (the built-in demo model when none is given) and prints the outputs,\n' +
    'the arena it used and the provider and kernel of every node.',
  arguments: [MODEL_ARGUMENT],
  options: [
    text('inputs', 'DIR', 'read input i from DIR/input_<i>.bin (raw little-endian bytes)', {
      default: 'random inputs (splitmix64, --seed)',
    }),
    text('outputs', 'DIR', 'write output j to DIR/output_<j>.bin', { default: 'not written' }),
    OPS_OPTION,
    SIMD_MODE_OPTION,
    THREADS_OPTION,
    PLANNER_OPTION,
    ARENA_OPTION,
    int('seed', 'seed of the random inputs', 1),
    int('profile', "after the first invoke, run N more with the per-node profiler and print each node's mean time", 'no profile', 1),
    IN_PLACE_OPTION,
    SCHEDULE_OPTION,
    RECOMPUTE_BUDGET_OPTION,
    JSON_OPTION,
    ...CYCLE_OPTIONS,
    ...DELEGATE_OPTIONS,
  ],
  run: runAction,
});

function runAction(args: ParsedArgs, out: Out): number {
  const outputsDir = flagString(args, 'outputs');
  if (outputsDir !== undefined) checkOutputDir('--outputs', outputsDir);
  const { model, label, bytes } = loadModelArg(args.positional[0]);
  const choice = runtimeChoice(args);
  const runtime = composeChoice(choice);
  try {
    return runWith(args, model, label, bytes, choice, runtime, out);
  } finally {
    runtime.dispose();
  }
}

function runWith(
  args: ParsedArgs,
  model: ModelDef,
  label: string,
  bytes: Uint8Array,
  choice: RuntimeChoice,
  runtime: ComposedRuntime,
  out: Out,
): number {
  const cycleOpts = cycleOptions(args);
  const profileRuns = args.flags.has('profile') ? flagInt(args, 'profile', 10, 1) : 0;
  const profiler = profileRuns > 0 ? new MicroProfiler() : null;
  const interp = buildInterpreter(runtime, model, choice, profiler ? { profiler } : {}).allocateTensors();
  const served = servedReport(runtime, interp, model);
  const inputsDir = flagString(args, 'inputs');
  const seed = flagInt(args, 'seed', 1);
  const rng = new SplitMix64(seed);
  const inputs = [] as { index: number; name: string; dtype: string; shape: number[]; source: string }[];
  for (let i = 0; i < interp.inputsSize; i++) {
    const t = interp.input(i);
    let source = `random (splitmix64 seed ${seed})`;
    const file = inputsDir ? join(inputsDir, `input_${i}.bin`) : null;
    if (file && existsSync(file)) {
      const bytes = readFileSync(file);
      if (bytes.byteLength !== t.byteLength)
        throw new InputError(
          `${file}: input ${i} (${t.name}, ${tensorTypeName(t.type)}[${Array.from(t.dims).join(',')}]) needs ${t.byteLength} bytes, the file has ${bytes.byteLength}`,
        );
      t.bytes.set(bytes);
      source = file;
    } else {
      if (file) throw new InputError(`input file ${file} not found (input ${i} of ${interp.inputsSize})`);
      fillRandom(t, rng);
    }
    inputs.push({ index: i, name: t.name, dtype: tensorTypeName(t.type), shape: Array.from(t.dims), source });
  }
  // the profiled invokes get the same input bytes (the arena may reuse an input's memory after its last reader)
  const inputBytes = profiler ? Array.from({ length: interp.inputsSize }, (_, i) => Uint8Array.from(interp.input(i).bytes)) : [];
  const t0 = performance.now();
  interp.invoke();
  const invokeMs = performance.now() - t0;
  const outputsDir = flagString(args, 'outputs');
  if (outputsDir) makeOutputDir('--outputs', outputsDir);
  const annotations = readAnnotations(bytes, model);
  const outputs = [];
  for (let j = 0; j < interp.outputsSize; j++) {
    const t = interp.output(j);
    const file = outputsDir ? join(outputsDir, `output_${j}.bin`) : null;
    if (file) writeOutputFile('--outputs', file, t.bytes);
    const top = classScores(t, annotations.outputLabels[j] ?? null);
    outputs.push({ ...describeTensor(t), file, values: preview(t), ...(top ? { top } : {}) });
  }
  // after the first invoke's outputs are read: more invokes change a stateful model's outputs
  const profile = profiler ? profileNodes(interp, profiler, profileRuns, inputBytes) : null;
  const cycles = cycleOpts && choice.counters ? cycleReport(interp, choice.counters, cycleOpts) : null;
  const opsLabel = choice.ops === 'simd' ? `simd (${choice.simdMode})` : choice.ops;
  const report = {
    ...runReport(interp, label, opsLabel, inputs, outputs, invokeMs),
    ...(cycles ? { cycles } : {}),
    ...(profile ? { profile } : {}),
    served,
    ...(runtime.delegates.length ? { delegates: delegateReport(runtime.delegates) } : {}),
    ...(annotations.error ? { metadataError: annotations.error } : {}),
  };
  if (args.flags.has('json')) {
    out.log(JSON.stringify(report, null, 2));
    return 0;
  }
  const delegated = runtime.delegates.length ? `, delegate: ${delegateLabel(runtime.delegates)}` : '';
  out.log(`model: ${label}  (ops: ${opsLabel}${delegated}, planner: ${report.arena.planner})`);
  for (const o of outputs)
    out.log(
      `output ${o.index} ${o.name}: ${o.dtype}[${o.shape.join(',')}] = [${o.values.join(', ')}${o.elements > o.values.length ? ', …' : ''}]${o.file ? `  → ${o.file}` : ''}`,
    );
  outputs.forEach((o, j) => {
    if (!o.top) return;
    const named = o.top[0]?.label !== undefined;
    out.log(
      `top ${o.top.length} of output ${j} (${o.name})${named ? '' : ', classes by index (the model names none)'}: ${o.top.map(formatTopEntry).join(', ')}`,
    );
  });
  if (annotations.error) out.log(`metadata not read (${annotations.error}): classes shown by index`);
  out.log(
    `arena: ${formatBytes(report.arena.total)} used (head ${formatBytes(report.arena.head)} planned, tail ${formatBytes(report.arena.tail)} persistent), ` +
      `arena buffer ${formatBytes(report.arena.arenaBytes)}; first invoke ${invokeMs.toFixed(3)} ms`,
  );
  const schedule = scheduleSummary(report.schedule);
  if (schedule) out.log(schedule);
  printTable(
    out,
    ['node', 'op', 'provider', 'kernel'],
    report.ops.map((o) => [
      String(o.index),
      o.op,
      o.provider,
      o.absorbedInto !== undefined ? `${o.kernel}, absorbed into node ${o.absorbedInto} (does not run)` : o.kernel,
    ]),
  );
  printServed(out, served);
  printPartitions(out, interp, runtime.delegates);
  if (cycles) printCycleReport(out, cycles);
  if (profile) {
    out.log(`profile: mean of ${profile.invokes} invokes, ${profile.totalMs.toFixed(3)} ms per invoke`);
    printTable(
      out,
      ['node', 'op', 'mean ms', 'share'],
      profile.nodes.map((n) => [
        n.subgraph ? `${n.subgraph}:${n.nodeIndex}` : String(n.nodeIndex),
        n.tag,
        n.meanMs.toFixed(4),
        `${((100 * n.meanMs) / profile.totalMs).toFixed(1)}%`,
      ]),
    );
    if (profile.absorbed.length)
      out.log(
        `absorbed (not run, their time is in the node they feed): ${profile.absorbed.map((a) => `node ${a.nodeIndex} ${a.op} → node ${a.into}`).join(', ')}`,
      );
  }
  return 0;
}

/**
 * Runs `runs` more invokes under the profiler; per-node means (nodes of other subgraphs included). The
 * profiler keeps a bounded number of events (4096 by default), so its events are summed and cleared after
 * each invoke: a long profile of a large model would otherwise keep only its first invokes' events.
 * `dropped` counts the events of single invokes that did not fit. Each invoke starts from `inputs`, the
 * bytes the first invoke read (not timed).
 */
function profileNodes(interp: MicroInterpreter, profiler: MicroProfiler, runs: number, inputs: readonly Uint8Array[]) {
  const sums = new Map<string, NodeProfile>();
  let dropped = 0;
  let elapsed = 0;
  for (let r = 0; r < runs; r++) {
    inputs.forEach((bytes, i) => interp.input(i).bytes.set(bytes));
    profiler.clear();
    const t0 = performance.now();
    interp.invoke();
    elapsed += performance.now() - t0;
    dropped += profiler.dropped;
    for (const n of profiler.totalsByNode()) {
      const key = `${n.subgraph}/${n.nodeIndex}`;
      const s = sums.get(key);
      if (s) {
        s.count += n.count;
        s.totalMs += n.totalMs;
      } else sums.set(key, { ...n });
    }
  }
  // A node's mean is over the invokes (a node inside a WHILE body runs several times per invoke).
  const nodes: NodeProfile[] = [...sums.values()].map((n) => ({ ...n, meanMs: n.totalMs / runs }));
  const totalMs = nodes.filter((n) => n.subgraph === 0).reduce((sum, n) => sum + n.meanMs, 0);
  // PADs a convolution absorbed (context.absorbPad) never run: listed apart, not as nodes of 0 ms
  const absorbed = interp
    .nodes()
    .filter((n) => n.absorbedInto !== undefined)
    .map((n) => ({ nodeIndex: n.index, subgraph: n.subgraph, op: n.op, into: n.absorbedInto! }));
  return { invokes: runs, wallMs: elapsed / runs, totalMs, dropped, nodes, absorbed };
}

function describeTensor(t: Tensor) {
  return {
    index: t.index,
    name: t.name,
    dtype: tensorTypeName(t.type),
    shape: Array.from(t.dims),
    elements: t.elementCount,
    scale: t.quantization ? t.params.scale : null,
    zeroPoint: t.quantization ? t.params.zeroPoint : null,
  };
}

/**
 * The top 5 of a classifier-shaped output (`[N]` or `[1, N]`, numbers), as real values, labelled from
 * the model's metadata when it names the classes; null for other outputs.
 */
function classScores(t: Tensor, labels: string[] | null): TopEntry[] | null {
  if (!isClassifierShape(t.dims) || typeof t.data[0] === 'bigint' || t.type === TensorType.BOOL) return null;
  const data = t.data as ArrayLike<number>;
  const scale = t.quantization ? t.params.scale : 0;
  const zp = t.quantization ? t.params.zeroPoint : 0;
  const real = scale > 0 && t.type !== TensorType.FLOAT32 ? Float64Array.from(data, (q) => (q - zp) * scale) : data;
  return topK(real, 5, labels);
}

function preview(t: Tensor): (number | string)[] {
  const n = Math.min(8, t.elementCount);
  const out: (number | string)[] = [];
  for (let i = 0; i < n; i++) {
    const v = t.data[i]!;
    out.push(typeof v === 'bigint' ? v.toString() : v);
  }
  return out;
}

/** The JSON report of `run` (also used by tests and bench). */
export function runReport(interp: MicroInterpreter, label: string, ops: string, inputs: unknown[], outputs: unknown[], invokeMs: number) {
  const u = interp.arenaUsage();
  return {
    model: label,
    opsSet: ops,
    inputs,
    outputs,
    arena: {
      total: u.usedBytes,
      head: u.headBytes,
      tail: u.tailBytes,
      arenaBytes: u.arenaBytes,
      persistentBufferBytes: u.persistentBufferBytes,
      variableBufferBytes: u.variableBufferBytes,
      scratchBufferBytes: u.scratchBufferBytes,
      tempHighWaterBytes: u.tempHighWaterBytes,
      planner: u.planner,
      planMs: u.planMs,
    },
    ops: interp.nodes().map((n) => ({
      index: n.index,
      op: n.op,
      version: n.version,
      provider: n.provider,
      kernel: n.kernel,
      ...(n.delegate ? { delegate: n.delegate } : {}),
      ...(n.absorbedInto !== undefined ? { absorbedInto: n.absorbedInto } : {}),
    })),
    partitions: interp.partitions(),
    schedule: scheduleReport(interp),
    invokeMs,
  };
}
