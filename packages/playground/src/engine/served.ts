/**
 * What ran where, in words the page shows: each kernel package's share of the nodes and MACs (app-kit's
 * `packageShares` / `servedLines`, as the CLI prints them), so a package that served no node (ops-simd
 * on a uint8 model) never reads as the one that ran.
 */
import { servedLines, type PackageShare } from '@micrort/app-kit';

/** `ops-wasm 6 of 8 nodes (99.9% of MACs), ops-reference 2 of 8 (0.1% of MACs)`; '' when nothing was composed. */
export function sharesText(shares: readonly PackageShare[]): string {
  return (servedLines(shares)[0] ?? '').replace(/^served: /, '');
}

/** For each package in front that did not serve every node: what fell back where, and why (`ops-wasm: every node fell back to …`). */
export function fallbackLines(shares: readonly PackageShare[]): string[] {
  return servedLines(shares).slice(1);
}

/**
 * The check's headline: `All 5 nodes run with ops-reference.` when one package served every node, else
 * `All 8 nodes run: ops-wasm 6 of 8 nodes (99.9% of MACs), ops-reference 2 of 8 (0.1% of MACs).`; when
 * nodes cannot run, how many, with `kernel`, and who serves the rest.
 */
export function checkHeadline(
  r: { ok: boolean; nodeCount: number; failingCount: number; subgraphs: number; served: readonly PackageShare[] },
  kernel: string,
): string {
  const where = r.subgraphs > 1 ? ` (${r.subgraphs} subgraphs)` : '';
  const serving = r.served.filter((s) => s.nodes > 0 || s.front);
  const only = serving.length === 1 && serving[0]!.nodes === r.nodeCount ? serving[0]!.package : null;
  const shares = sharesText(r.served);
  if (r.ok) return only ? `All ${r.nodeCount} nodes${where} run with ${only}.` : `All ${r.nodeCount} nodes${where} run: ${shares}.`;
  return `${r.failingCount} of ${r.nodeCount} nodes${where} cannot run with ${kernel}${shares ? `; the others: ${shares}` : ''}.`;
}
