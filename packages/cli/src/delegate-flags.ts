/**
 * The delegate flags shared by run, inspect and bench:
 *
 *   --delegate none|gpu           add the gpu.js GPU delegate (@micrort/ops-gpu)
 *   --gpu-mode auto|MODE|all      its gpu.js mode (webgl2, webgl, headlessgl, webasm, cpu; default auto =
 *                                 the best available); `all` (bench only) times every available mode
 *   --max-partitions N            at most N delegated partitions (the largest are kept)
 *   --min-partition-size N        partitions with fewer nodes stay on the CPU
 *   --exclude-nodes 3,7           node indices never delegated
 */
import { withOptions, type ComposeEntry, type Delegate, type DelegateOptions, type MicroInterpreter } from '@micrort/core';
import { GPU_MODES, GpuDelegate, availableModes, resolveMode, type GpuMode } from '@micrort/ops-gpu';
import { appPackage, appPackageHelp, appPackageIds } from './app-packages.js';
import { UsageError, flagInt, flagString, parseChoiceFlag, type ParsedArgs } from './args.js';
import { choice, int, text, type OptionSpec } from './options.js';
import type { Out } from './print.js';

/** Delegates `--delegate` can add: `none`, and the `delegate` packages of app-kit's list. */
export const DELEGATE_CHOICES: readonly string[] = ['none', ...appPackageIds('delegate')];

/** The delegate options, to spread into a command's options (run, inspect, bench). */
export const DELEGATE_OPTIONS: readonly OptionSpec[] = [
  choice(
    'delegate',
    `add a delegate (${appPackageHelp('delegate')}); run and inspect print its partitions, bench times it beside the kernels alone`,
    DELEGATE_CHOICES,
    'none',
  ),
  text('gpu-mode', 'MODE', "the GPU delegate's gpu.js mode (with --delegate gpu; headlessgl needs a display: xvfb-run -a micrort ...)", {
    accepts: `auto, ${GPU_MODES.join(', ')}; bench also takes all`,
    default: 'auto (the best available); bench: all (every available mode)',
    check: (v) => void (v === 'all' ? v : parseMode(v)),
  }),
  int('max-partitions', 'delegate at most N partitions (the largest are kept)', 'no limit'),
  int('min-partition-size', 'partitions with fewer nodes stay on the CPU', 1),
  text('exclude-nodes', 'I,J,...', 'node indices never delegated', {
    accepts: 'comma-separated node indices',
    default: 'none',
    check: (v) => void parseNodeList(v),
  }),
];

/** Delegate packages (composed after the kernels) and partitioning options the flags ask for. */
export interface DelegateChoice {
  delegatePackages: ComposeEntry[];
  delegateOptions: DelegateOptions;
}

function delegateName(args: ParsedArgs): string {
  const d = flagString(args, 'delegate') ?? 'none';
  parseChoiceFlag('delegate', d, DELEGATE_CHOICES);
  if (d !== 'gpu' && args.flags.has('gpu-mode')) throw new UsageError('--gpu-mode applies to --delegate gpu only');
  return d;
}

/** The gpu modes a bench with `--delegate gpu` times: the one named, or every available one (default, `all`). */
export function benchGpuModes(args: ParsedArgs): GpuMode[] | null {
  if (delegateName(args) !== 'gpu') return null;
  const m = flagString(args, 'gpu-mode') ?? 'all';
  return m === 'all' ? availableModes() : [resolveMode(parseMode(m))];
}

function parseMode(m: string): GpuMode | 'auto' {
  if (m === 'auto' || (GPU_MODES as readonly string[]).includes(m)) return m as GpuMode | 'auto';
  throw new UsageError(`--gpu-mode must be auto, ${GPU_MODES.join(', ')} (or all, for bench); got ${m}`, {
    option: '--gpu-mode',
    value: m,
    accepted: `auto, ${GPU_MODES.join(', ')}, all (bench)`,
  });
}

/** `--exclude-nodes 3,7`: node indices. */
function parseNodeList(value: string): number[] {
  return value
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < 0)
        throw new UsageError(`--exclude-nodes takes node indices like 3,7; got ${value}`, {
          option: '--exclude-nodes',
          value,
          accepted: 'comma-separated node indices',
        });
      return n;
    });
}

/** Reads the delegate flags; `gpuMode` overrides `--gpu-mode` (bench uses it per mode). */
export function delegateChoice(args: ParsedArgs, gpuMode?: GpuMode): DelegateChoice {
  const delegateOptions: DelegateOptions = {};
  if (args.flags.has('max-partitions')) delegateOptions.maxPartitions = flagInt(args, 'max-partitions', 0);
  if (args.flags.has('min-partition-size')) delegateOptions.minPartitionSize = flagInt(args, 'min-partition-size', 1);
  const exclude = flagString(args, 'exclude-nodes');
  if (exclude !== undefined) delegateOptions.excludeNodes = parseNodeList(exclude);
  const name = delegateName(args);
  if (name === 'none') return { delegatePackages: [], delegateOptions };
  const pkg = appPackage(name, '--delegate');
  if (name !== 'gpu') return { delegatePackages: [pkg], delegateOptions };
  const flag = flagString(args, 'gpu-mode') ?? 'auto';
  if (!gpuMode && flag === 'all') throw new UsageError('--gpu-mode all is for bench; name one mode or auto');
  const mode = gpuMode ?? parseMode(flag);
  return { delegatePackages: [withOptions(pkg, { mode })], delegateOptions };
}

/** The label of a runtime's delegates (`gpu(headlessgl)`), or '' without any. */
export function delegateLabel(delegates: readonly Delegate[]): string {
  return delegates.map((d) => (d instanceof GpuDelegate ? `${d.name}(${d.mode})` : d.name)).join('+');
}

/** JSON-friendly description of the delegates: mode, and nodes left on the CPU with the reason. */
export function delegateReport(delegates: readonly Delegate[]) {
  return delegates.map((d) =>
    d instanceof GpuDelegate
      ? {
          name: d.name,
          mode: d.mode,
          notClaimed: d
            .decisions()
            .filter((x) => !x.claimed)
            .map(({ node, op, reason }) => ({ node, op, reason })),
        }
      : { name: d.name },
  );
}

/** Prints the delegated partitions and, for the GPU delegate, its mode and the nodes it left on the CPU. */
export function printPartitions(out: Out, interp: MicroInterpreter, delegates: readonly Delegate[]): void {
  if (!delegates.length) return;
  for (const d of delegateReport(delegates)) {
    const left = 'notClaimed' in d && d.notClaimed ? d.notClaimed : [];
    out.log(
      `delegate ${d.name}${'mode' in d ? `: gpu.js mode ${d.mode}` : ''}${left.length ? `; on the CPU: ${left.map((x) => `node ${x.node} ${x.op} (${x.reason})`).join('; ')}` : ''}`,
    );
  }
  for (const s of interp.skippedDelegates()) out.log(`delegate ${s.delegate} not applied: ${s.reason}`);
  const parts = interp.partitions();
  if (!parts.length) out.log('partitions: none (no node delegated)');
  for (const p of parts)
    out.log(
      `partition → node ${p.nodeIndex} [${p.delegate}]: nodes ${p.nodes.join(',')}; inputs ${p.inputTensors.join(',')}; outputs ${p.outputTensors.join(',')}; internal ${p.internalTensors.length ? p.internalTensors.join(',') : '-'}`,
    );
}
