/**
 * The Memory tab: every planner's arena head against the lower bound, head/tail/persistent figures,
 * the arena `arena: 'auto'` chose, and the plan picture of the chosen planner (planners'
 * renderPlanSvg); hovering a buffer names its tensor, size, offset and lifetime.
 */
import { renderPlanSvg } from '@micrort/planners';
import type { PlanAnalysis, PlanBuffer, PlannerResult } from '../engine/plans.js';
import { formatBytes, formatMs, h, shortBytes, table } from './dom.js';

function signedBytes(d: number): string {
  if (d === 0) return '±0';
  return `${d > 0 ? '+' : '−'}${shortBytes(Math.abs(d))}`;
}

function note(r: PlannerResult, a: PlanAnalysis): string {
  if (r.error) return `${r.error.name}: ${r.error.message}`;
  if (r.name === 'optimal') return r.provenMinimal ? 'proven minimal' : 'best found within the time budget';
  if (r.name === 'offline')
    return a.offlineBuffers
      ? `${a.offlineBuffers} buffers placed by the model's offline plan`
      : 'the model has no offline plan: greedy for every buffer';
  if (r.name === 'greedy') return "TFLM's GreedyMemoryPlanner";
  if (r.name === 'linear') return "TFLM's LinearMemoryPlanner (no reuse)";
  if (r.name === 'bestfit') return "TFLite's best-fit arena";
  return '';
}

function hoverText(b: PlanBuffer, offset: number, a: PlanAnalysis): string {
  const op = (step: number) => `${a.stepOps[step] ?? '?'} #${a.stepNodes[step] ?? '?'}`;
  const life =
    b.firstUsed === b.lastUsed
      ? `step ${b.firstUsed} (${op(b.firstUsed)})`
      : `steps ${b.firstUsed}–${b.lastUsed} (${op(b.firstUsed)} → ${op(b.lastUsed)})`;
  return `${b.kind === 'tensor' ? `tensor #${b.id}` : `scratch #${b.id}`} ${b.label}: ${formatBytes(b.size)} at offset ${offset}, alive ${life}`;
}

/** Renders the analysis; `chosen` is the planner whose plan is drawn. */
export function renderMemory(a: PlanAnalysis, chosen = 'greedy'): HTMLElement {
  const greedy = a.planners.find((p) => p.name === 'greedy');
  const best = a.planners.filter((p) => !p.error).reduce<PlannerResult | null>((m, p) => (!m || p.headBytes < m.headBytes ? p : m), null);
  const picture = h('div', { class: 'plan-picture', 'data-testid': 'plan-picture' });
  const hover = h('p', { class: 'hover-info', 'data-testid': 'plan-hover' }, 'Hover a buffer to see its tensor and lifetime.');
  const draw = (name: string) => {
    const r = a.planners.find((p) => p.name === name && !p.error) ?? greedy;
    if (!r) return;
    picture.innerHTML = renderPlanSvg(
      a.buffers,
      { offsets: Int32Array.from(r.offsets), headBytes: r.headBytes },
      {
        title: `${r.name}: head ${shortBytes(r.headBytes)}, lower bound ${shortBytes(a.lowerBoundBytes)}`,
        lowerBound: a.lowerBoundBytes,
        stepLabels: a.stepOps,
        width: Math.max(760, Math.min(1400, 84 + 24 + a.stepOps.length * 14)),
        plotHeight: 360,
        idPrefix: `plan-${r.name}`,
      },
    );
    picture.querySelector('svg')?.setAttribute('data-planner', r.name);
    picture.onmouseover = (e) => {
      const g = (e.target as Element).closest('g.buffer');
      if (!g) return;
      const i = Number(g.getAttribute('data-index'));
      hover.textContent = hoverText(a.buffers[i]!, r.offsets[i]!, a);
    };
  };
  const rows = a.planners.map((r) => [
    h(
      'label',
      null,
      h('input', {
        type: 'radio',
        name: 'planner-pic',
        value: r.name,
        checked: r.name === chosen,
        disabled: !!r.error,
        onchange: () => draw(r.name),
      }),
      ` ${r.name}`,
    ),
    r.error ? '—' : formatBytes(r.headBytes),
    r.error ? '—' : formatBytes(r.arenaBytes),
    r.error ? '—' : `${signedBytes(r.headBytes - a.lowerBoundBytes)} (${(r.ratio * 100).toFixed(1)} %)`,
    r.error || !greedy ? '—' : signedBytes(r.headBytes - greedy.headBytes),
    r.error ? '—' : formatMs(r.planMs),
    h('span', { class: r.error ? 'err' : 'muted' }, note(r, a)),
  ]);
  const el = h(
    'div',
    { class: 'memory', 'data-testid': 'memory' },
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'lower bound'),
      h(
        'dd',
        { 'data-testid': 'lower-bound' },
        `${formatBytes(a.lowerBoundBytes)} — the most bytes alive at one step (step ${a.peakStep}, ${a.stepOps[a.peakStep] ?? '?'}); no plan of this schedule goes below it`,
      ),
      h('dt', null, 'head (greedy)'),
      h('dd', null, greedy ? formatBytes(greedy.headBytes) : '—', ' — activations and scratch buffers, placed by the planner'),
      h('dt', null, 'tail'),
      h(
        'dd',
        null,
        `${formatBytes(a.tailBytes)} — persistent: kernel op data ${formatBytes(a.persistentBufferBytes)}, variable tensors ${formatBytes(a.variableBufferBytes)}`,
      ),
      h('dt', null, "arena: 'auto'"),
      h(
        'dd',
        { 'data-testid': 'auto-arena' },
        `${formatBytes(a.autoArenaBytes)} — what the interpreter allocated with the greedy planner (head + tail)`,
      ),
      best && greedy ? h('dt', null, 'best planner') : null,
      best && greedy
        ? h(
            'dd',
            null,
            `${best.name}: ${formatBytes(best.headBytes)} head, ${signedBytes(best.headBytes - greedy.headBytes)} against greedy`,
          )
        : null,
      a.standIns.length ? h('dt', null, 'not counted') : null,
      a.standIns.length
        ? h(
            'dd',
            { class: 'err' },
            `nodes ${a.standIns.join(', ')} have no kernel: their tensors are planned from the graph, their own scratch and op data are unknown`,
          )
        : null,
    ),
    table(['planner', 'head', "arena ('auto')", 'vs lower bound', 'vs greedy', 'plan time', ''], rows, {
      class: 'planners',
      'data-testid': 'planner-table',
    }),
    hover,
    picture,
  );
  draw(a.planners.some((p) => p.name === chosen && !p.error) ? chosen : 'greedy');
  return el;
}
