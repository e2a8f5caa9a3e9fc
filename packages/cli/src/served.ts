/**
 * `served: ops-wasm 0 of 66 nodes …`: which kernel package served each node and why the package in
 * front declined the rest (app-kit's summary), as run, bench, check and inspect print it.
 */
import type { CheckReport, ComposedRuntime, MicroInterpreter, ModelDef } from '@micrort/core';
import { packageShares, servedLines, servedNodesOfCheck, servedNodesOfInterpreter, type PackageShare } from '@micrort/app-kit';
import type { Out } from './print.js';

/** Each composed package's share of an allocated interpreter's nodes (and MACs), for `--json` and {@link printServed}. */
export function servedReport(runtime: ComposedRuntime, interp: MicroInterpreter, model: ModelDef): PackageShare[] {
  return packageShares(runtime.packages, servedNodesOfInterpreter(interp, model));
}

/** The same for a `checkModel()` report (a node that cannot run is served by none). */
export function servedCheckReport(runtime: ComposedRuntime, report: CheckReport, model: ModelDef): PackageShare[] {
  return packageShares(runtime.packages, servedNodesOfCheck(report, model, runtime.packages));
}

/** Prints the summary lines. */
export function printServed(out: Out, shares: readonly PackageShare[]): void {
  for (const line of servedLines(shares)) out.log(line);
}
