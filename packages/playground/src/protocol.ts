/**
 * Messages between the page and its Web Worker. The page sends `{ id, method, args }`; the worker
 * answers with any number of `progress` messages and then one `result` or `error` for that id.
 */
import type { CheckReport, PageError } from './engine/check.js';
import type { GraphLayout } from './engine/graph.js';
import type { KernelId } from './engine/kernels.js';
import type { PlanAnalysis } from './engine/plans.js';
import type { CompareRow, InputSpec, RunOptions, RunResult } from './engine/session.js';
import type { ModelSummary } from './engine/summary.js';

/** A kernel package and whether it can run here. */
export interface KernelInfo {
  id: KernelId;
  label: string;
  description: string;
  available: boolean;
  reason?: string;
  detail?: string;
}

/** Methods of the worker: arguments and result. */
export interface Methods {
  /** The kernel packages (each loaded once to see whether it runs here), the planner names and the built-in models. */
  setup: { args: Record<string, never>; result: { kernels: KernelInfo[]; planners: string[]; models: { name: string; label: string }[] } };
  open: { args: { bytes: Uint8Array; name: string }; result: ModelSummary };
  openBuiltIn: { args: { name: string }; result: ModelSummary };
  check: { args: { kernel: KernelId }; result: CheckReport };
  graph: { args: Record<string, never>; result: GraphLayout };
  plans: { args: { kernel: KernelId }; result: PlanAnalysis };
  run: { args: RunOptions; result: RunResult };
  compare: { args: { input: InputSpec; kernels?: KernelId[] }; result: CompareRow[] };
}

export type Method = keyof Methods;

export interface Request<M extends Method = Method> {
  id: number;
  method: M;
  args: Methods[M]['args'];
}

export type Response =
  | { id: number; type: 'progress'; label: string; done: number; total: number }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; error: PageError };
