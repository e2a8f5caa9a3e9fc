import {
  builtinOperatorName,
  checkModel,
  opDisplayName,
  tensorTypeName,
  type CheckReport,
  type ComposedRuntime,
  type MicroInterpreter,
  type ModelDef,
  type NodeCheck,
} from '@micrort/core';
import type { ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { MODEL_ARGUMENT, loadModelArg } from '../model-arg.js';
import { JSON_OPTION } from '../options.js';
import {
  ARENA_OPTION,
  OPS_OPTION,
  PLANNER_OPTION,
  buildInterpreter,
  composeChoice,
  runtimeChoice,
  type RuntimeChoice,
} from '../runtime.js';
import { printServed, servedCheckReport, servedReport } from '../served.js';
import { printTable, type Out } from '../print.js';
import { DELEGATE_OPTIONS, delegateReport, printPartitions } from '../delegate-flags.js';

/** `micrort inspect [model] [--ops NAME] [--json]`: operators, tensors, providers, unsupported ops. */
export const inspectCommand = defineCommand({
  name: 'inspect',
  summary: 'list operators, tensors, the provider serving each node and unsupported ops',
  description:
    "Lists a model's operators and tensors, the provider that serves each node, and the ops no kernel\n" +
    'serves. Exit code 1 when an op is unsupported or allocation fails.',
  arguments: [MODEL_ARGUMENT],
  options: [OPS_OPTION, PLANNER_OPTION, ARENA_OPTION, JSON_OPTION, ...DELEGATE_OPTIONS],
  run: inspectAction,
});

function inspectAction(args: ParsedArgs, out: Out): number {
  const { model, label } = loadModelArg(args.positional[0]);
  const choice = runtimeChoice(args);
  const runtime = composeChoice(choice);
  try {
    return inspectWith(model, label, choice, runtime, args.flags.has('json'), out);
  } finally {
    runtime.dispose();
  }
}

function inspectWith(model: ModelDef, label: string, choice: RuntimeChoice, runtime: ComposedRuntime, json: boolean, out: Out): number {
  const sg = model.subgraphs[0]!;
  const unsupported: { node: number; op: string; version: number }[] = [];
  sg.operators.forEach((op, i) => {
    const c = model.operatorCodes[op.opcodeIndex]!;
    if (!runtime.resolver.has(c.builtinCode, c.version, c.customCode))
      unsupported.push({ node: i, op: opDisplayName(c.builtinCode, c.customCode), version: c.version });
  });
  // Providers are chosen per node during allocation (a plugin may decline a variant), so allocate when possible.
  let providers: Map<number, { provider: string; kernel: string | null }> | null = null;
  let allocationError: string | null = null;
  let interp: MicroInterpreter | null = null;
  if (unsupported.length === 0) {
    try {
      interp = buildInterpreter(runtime, model, choice).allocateTensors();
      // a delegate node stands for the original nodes it replaced
      providers = new Map(
        interp.nodes().flatMap((n) =>
          (n.delegate ? n.delegate.nodes : [n.index]).map(
            (i) =>
              [
                i,
                {
                  provider: n.absorbedInto !== undefined ? `${n.provider} (absorbed into node ${n.absorbedInto})` : n.provider,
                  kernel: n.kernel,
                },
              ] as const,
          ),
        ),
      );
    } catch (e) {
      interp = null;
      allocationError = `${(e as Error).name}: ${(e as Error).message}`;
    }
  }
  // Allocation failed or was not tried: what the check finds for each node (one failing node leaves the others' providers known).
  let checked: CheckReport | null = null;
  if (!providers) {
    const { delegates: _delegates, ...kernelOptions } = runtime.interpreterOptions;
    checked = checkModel(model, runtime.resolver, kernelOptions);
    providers = checkedProviders(checked);
  }
  const served = interp ? servedReport(runtime, interp, model) : servedCheckReport(runtime, checked!, model);
  const report = {
    ...inspectReport(model, label, providers, unsupported, allocationError),
    served,
    ...(runtime.delegates.length ? { delegates: delegateReport(runtime.delegates), partitions: interp?.partitions() ?? [] } : {}),
  };
  if (json) {
    out.log(JSON.stringify(report, null, 2));
    return unsupported.length || allocationError ? 1 : 0;
  }
  out.log(`model: ${label}  (schema version ${model.version}${model.description ? `, "${model.description}"` : ''})`);
  out.log(
    `subgraphs: ${model.subgraphs.map((s, i) => `#${i} "${s.name}" ${s.operators.length} ops, ${s.tensors.length} tensors`).join('; ')}` +
      (model.subgraphs.length > 1 ? '  (subgraph 0 runs; IF/WHILE/CALL_ONCE run the others; micrort check lists every node)' : ''),
  );
  if (model.metadata.length) out.log(`metadata: ${model.metadata.map((m) => m.name).join(', ')}`);
  out.log('');
  out.log('operators (subgraph 0):');
  printTable(
    out,
    ['node', 'op', 'v', 'inputs', 'outputs', 'provider'],
    report.operators.map((o) => [String(o.index), o.op, String(o.version), o.inputs.join(','), o.outputs.join(','), o.provider]),
  );
  out.log('');
  out.log('tensors (subgraph 0):');
  printTable(
    out,
    ['idx', 'name', 'dtype', 'shape', 'kind', 'quantization'],
    report.tensors.map((t) => [
      String(t.index),
      t.name.length > 48 ? `${t.name.slice(0, 45)}...` : t.name,
      t.dtype,
      `[${t.shape.join(',')}]`,
      t.kind,
      t.quantization,
    ]),
  );
  if (unsupported.length) {
    out.log('');
    out.log(`UNSUPPORTED (${unsupported.length} nodes): ${unsupported.map((u) => `node ${u.node} ${u.op} v${u.version}`).join('; ')}`);
  }
  out.log('');
  printServed(out, served);
  if (interp && runtime.delegates.length) {
    out.log('');
    printPartitions(out, interp, runtime.delegates);
  }
  if (allocationError) out.log(`\nallocation failed: ${allocationError}`);
  return unsupported.length || allocationError ? 1 : 0;
}

/** The provider of each node of subgraph 0 as `checkModel` found it, or what keeps the node from running. */
function checkedProviders(report: CheckReport): Map<number, { provider: string; kernel: string | null }> {
  const label = (n: NodeCheck): string => {
    switch (n.status) {
      case 'ok':
        return n.absorbedInto !== undefined ? `${n.provider ?? '?'} (absorbed into node ${n.absorbedInto})` : (n.provider ?? '?');
      case 'prepare-failed':
        return `${n.provider ?? '?'} (${n.error?.phase ?? 'prepare'} failed)`;
      case 'declined':
        return 'DECLINED';
      case 'no-provider':
        return 'UNSUPPORTED';
      default:
        return 'not prepared';
    }
  };
  return new Map(report.nodes.filter((n) => n.subgraph === 0).map((n) => [n.index, { provider: label(n), kernel: n.kernel ?? null }]));
}

function inspectReport(
  model: ModelDef,
  label: string,
  providers: Map<number, { provider: string; kernel: string | null }> | null,
  unsupported: { node: number; op: string; version: number }[],
  allocationError: string | null,
) {
  const sg = model.subgraphs[0]!;
  const inputs = new Set(sg.inputs);
  const outputs = new Set(sg.outputs);
  return {
    model: label,
    version: model.version,
    subgraphs: model.subgraphs.map((s, i) => ({ index: i, name: s.name, operators: s.operators.length, tensors: s.tensors.length })),
    metadata: model.metadata.map((m) => m.name),
    operators: sg.operators.map((op, i) => {
      const c = model.operatorCodes[op.opcodeIndex]!;
      const p = providers?.get(i);
      const isUnsupported = unsupported.some((u) => u.node === i);
      return {
        index: i,
        op: opDisplayName(c.builtinCode, c.customCode),
        builtin: builtinOperatorName(c.builtinCode),
        version: c.version,
        inputs: Array.from(op.inputs),
        outputs: Array.from(op.outputs),
        provider: isUnsupported ? 'UNSUPPORTED' : (p?.provider ?? '?'),
        kernel: p?.kernel ?? null,
      };
    }),
    tensors: sg.tensors.map((t, i) => {
      const q = t.quantization;
      const hasData = (model.buffers[t.buffer]?.data.byteLength ?? 0) > 0;
      const kind = inputs.has(i) ? 'input' : outputs.has(i) ? 'output' : t.isVariable ? 'variable' : hasData ? 'constant' : 'activation';
      let quant = '';
      if (q && q.scale.length === 1) quant = `scale ${q.scale[0]} zp ${q.zeroPoint[0]}`;
      else if (q && q.scale.length > 1) quant = `per-channel ×${q.scale.length} (dim ${q.quantizedDimension})`;
      return { index: i, name: t.name, dtype: tensorTypeName(t.type), shape: Array.from(t.shape), kind, quantization: quant };
    }),
    unsupported,
    allocationError,
  };
}
