import {
  MicroInterpreter,
  OpResolver,
  type Delegate,
  type DelegateOptions,
  type InterpreterOptions,
  type MemoryPlanner,
  type ModelDef,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { registerReferenceOps } from '@micrort/ops-reference';
import { UsageError, flagString, type ParsedArgs } from './args.js';

/** Kernel sets the CLI can compose. */
export const OPS_CHOICES = ['reference'] as const;

/** What the flags asked for. */
export interface RuntimeChoice {
  ops: string;
  planner: MemoryPlanner;
  arena: number | 'auto';
  delegates: Delegate[];
  delegateOptions: DelegateOptions;
}

/** Reads --ops, --planner, --arena from the flags. */
export function runtimeChoice(args: ParsedArgs): RuntimeChoice {
  const ops = flagString(args, 'ops') ?? 'reference';
  if (!(OPS_CHOICES as readonly string[]).includes(ops)) throw new UsageError(`--ops must be one of ${OPS_CHOICES.join(', ')}, got ${ops}`);
  const planner = createPlanner(flagString(args, 'planner') ?? 'greedy');
  const arenaFlag = flagString(args, 'arena') ?? 'auto';
  let arena: number | 'auto' = 'auto';
  if (arenaFlag !== 'auto') {
    const n = Number(arenaFlag);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--arena must be a positive number of bytes or auto, got ${arenaFlag}`);
    arena = n;
  }
  return { ops, planner, arena, delegates: [], delegateOptions: {} };
}

/** The resolver for an --ops choice. */
export function buildResolver(ops: string): OpResolver {
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  if (ops !== 'reference') throw new UsageError(`unknown --ops ${ops}`);
  return resolver;
}

/** A MicroInterpreter for the model and choice. */
export function buildInterpreter(model: ModelDef, choice: RuntimeChoice, extra: Partial<InterpreterOptions> = {}): MicroInterpreter {
  return new MicroInterpreter(model, buildResolver(choice.ops), {
    planner: choice.planner,
    arena: choice.arena,
    ...(choice.delegates.length ? { delegates: choice.delegates, delegateOptions: choice.delegateOptions } : {}),
    ...extra,
  });
}
