/**
 * `micrort deploy`: what a TFLM (tflite-micro) build of a model needs — the smallest kTensorArenaSize and
 * the arena_used_bytes() TFLM will report (64-bit host and 32-bit Cortex-M), the MicroMutableOpResolver
 * header, what TFLM will refuse, and optionally the model with an offline memory plan (see
 * @micrort/deploy and docs/deploy.md).
 */
import { basename, dirname, join } from 'node:path';
import { deployTflm, deploySummary, modelIdentifier, type DeployReport } from '@micrort/deploy';
import { PLANNER_NAMES } from '@micrort/planners';
import { flagInt, flagString, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { BUILT_IN_MODELS, MODEL_ARGUMENT, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, choice, flag, int, text } from '../options.js';
import { checkOutputDir, makeOutputDir, writeOutputFile } from '../output-files.js';
import type { Out } from '../print.js';

/** Planners whose plan can be embedded (`offline` replays an embedded plan, it makes none). */
const EMBED_PLANNERS = PLANNER_NAMES.filter((p) => p !== 'offline');

/** The files `--out` writes. */
export interface DeployFiles {
  header: string;
  summary: string;
  json: string;
  model?: string;
}

/** The report as JSON: everything but the model bytes and the header text (they go to files). */
function reportJson(r: DeployReport, files: DeployFiles | null): unknown {
  const { resolver, offlinePlan, ...rest } = r;
  return {
    ...rest,
    resolver: { count: resolver.count, entries: resolver.entries, missing: resolver.missing },
    offlinePlan: offlinePlan
      ? {
          planner: offlinePlan.planner,
          tensorOffsets: offlinePlan.tensorOffsets,
          modelBytes: offlinePlan.model.byteLength,
          targets: offlinePlan.targets,
        }
      : null,
    ...(files ? { files } : {}),
  };
}

/** `micrort deploy [model] [--target tflm] [--word 64|32] [--planner NAME] [--embed] [--out DIR] [--json]` */
export const deployCommand = defineCommand({
  name: 'deploy',
  summary: 'TFLM arena size (exact, 64/32-bit), op resolver header, offline plan',
  description:
    'For a plain TFLM MicroInterpreter (tflite-micro reference kernels): the smallest kTensorArenaSize with\n' +
    "which AllocateTensors and Invoke succeed (prepare's temporary allocations included) and the\n" +
    'arena_used_bytes() TFLM then reports, for a 64-bit host (LP64) and a 32-bit Cortex-M (ARM EABI):\n' +
    "micrort's planned head plus TFLM's tail as TFLM lays it out. Also the MicroMutableOpResolver<N>\n" +
    'header, what TFLM will refuse, and with --planner or --embed the model with that offline plan\n' +
    '(OfflineMemoryAllocation metadata) and the arena TFLM needs with it.',
  arguments: [MODEL_ARGUMENT],
  options: [
    choice('target', 'the runtime to deploy to', ['tflm'], 'tflm'),
    choice('word', 'word size of the headline figures (both are always computed)', ['64', '32'], '64', 'BITS'),
    choice('planner', 'plan the head with this planner and embed the plan in the model (TFLM plans with greedy)', EMBED_PLANNERS, 'greedy'),
    flag('embed', 'write the model with the offline plan even for greedy'),
    text('out', 'DIR', 'write the resolver header, the summary, the JSON report and the offline-plan model into DIR', {
      default: 'nothing written',
    }),
    choice(
      'enum-bytes',
      "sizeof(enum) of the 32-bit target: 1 is arm-none-eabi-gcc's default (short enums), 4 is -fno-short-enums",
      ['1', '4'],
      '1',
      'N',
    ),
    int('resource-variables', 'slots of the MicroResourceVariables the application creates (models with VAR_HANDLE)', 64, 1),
    flag('strict', 'fail when micrort cannot prepare a node yet, instead of planning it with a stand-in'),
    JSON_OPTION,
  ],
  notes:
    'Examples:\n' +
    '  micrort deploy model.tflite --out build/           # header, summary.txt, deploy.json in build/\n' +
    '  micrort deploy model.tflite --planner optimal --out build/ --json\n' +
    '  micrort deploy model.tflite --word 32              # headline figures for the MCU\n' +
    'Figures follow TFLM at commit 90b983c2 (see docs/deploy.md for the 32-bit assumptions). Exit code 1 when TFLM\n' +
    'will refuse the model (an op or type it lacks); the figures and files are still produced.',
  run: deployAction,
});

function deployAction(args: ParsedArgs, out: Out): number {
  const path = args.positional[0];
  const outDir = flagString(args, 'out');
  if (outDir !== undefined) checkOutputDir('--out', outDir);
  const { bytes, label: fileLabel } = loadModelArg(path);
  // `person_detect/model.tflite` rather than a bare `model.tflite` when the folder names the model.
  const parent = path ? basename(dirname(path)) : '';
  const label = path && parent && parent !== '.' && !BUILT_IN_MODELS[path] ? `${parent}/${fileLabel}` : fileLabel;
  const planner = flagString(args, 'planner') ?? 'greedy';
  const embed = args.flags.has('embed');
  // The model's name for file names and the header's include guard: `kws` for models/kws.tflite,
  // `person_detect` for person_detect/model.tflite (never the folder of a file with a name of its own).
  const stem = modelIdentifier(path && !BUILT_IN_MODELS[path] ? path : (path ?? 'demo'));
  const report = deployTflm(bytes, {
    modelLabel: label,
    modelName: stem,
    planner,
    embed,
    word: flagString(args, 'word') === '32' ? 32 : 64,
    enumBytes32: flagString(args, 'enum-bytes') === '4' ? 4 : 1,
    resourceVariableSlots: flagInt(args, 'resource-variables', 64),
    standIns: !args.flags.has('strict'),
  });
  let files: DeployFiles | null = null;
  if (outDir) {
    makeOutputDir('--out', outDir);
    files = { header: join(outDir, `${stem}_op_resolver.h`), summary: join(outDir, 'summary.txt'), json: join(outDir, 'deploy.json') };
    writeOutputFile('--out', files.header, report.resolver.header);
    if (report.offlinePlan) {
      files.model = join(outDir, `${stem}.${report.offlinePlan.planner}-plan.tflite`);
      writeOutputFile('--out', files.model, report.offlinePlan.model);
    }
    writeOutputFile('--out', files.summary, `${deploySummary(report)}\n`);
    writeOutputFile('--out', files.json, `${JSON.stringify(reportJson(report, files), null, 2)}\n`);
  }
  if (args.flags.has('json')) {
    out.log(JSON.stringify(reportJson(report, files), null, 2));
    return report.refusals.some((f) => f.severity === 'error') ? 1 : 0;
  }
  out.log(deploySummary(report));
  if (files) out.log(`wrote ${[files.header, files.summary, files.json, ...(files.model ? [files.model] : [])].join(', ')}`);
  else
    out.log(
      `(--out DIR writes the resolver header, this summary, the JSON report${report.offlinePlan ? ' and the model with the offline plan' : ''})`,
    );
  return report.refusals.some((f) => f.severity === 'error') ? 1 : 0;
}
