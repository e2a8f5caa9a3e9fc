/**
 * Renders a memory plan as a standalone SVG: x = execution step, y = arena offset (0 at the bottom), one
 * rectangle per buffer spanning its lifetime and its bytes. Tensors are filled with a colour per id,
 * scratch buffers are hatched; every rectangle carries a `<title>` (hover text) with label, size, offset
 * and steps, and a text label where it fits. A dashed line marks the lower bound and a solid one the head.
 * For a patch schedule, the steps of one tile are shaded and named (`bands`), its tile buffers dotted
 * (`tileBuffers`), and reference levels such as the normal schedule's lower bound dotted (`marks`).
 */
import type { BufferRequirement, MemoryPlan } from '@micrort/core';
import { PlanShapeError } from './errors.js';
import { byteTicks, escapeXml, formatBytes, num, stepTicks } from './svg-util.js';

/** Options of {@link renderPlanSvg}. */
export interface PlanSvgOptions {
  /** Heading drawn above the chart (default: buffer count and head size). */
  title?: string;
  /** Lower bound in bytes, drawn as a dashed horizontal line (omit to leave it out). */
  lowerBound?: number;
  /** Total width in pixels (default 960). */
  width?: number;
  /** Height of the plot area in pixels (default 400). */
  plotHeight?: number;
  /** Prefix of the ids defined in the SVG, to keep several inline SVGs apart (default `mrt`). */
  idPrefix?: string;
  /**
   * A label per execution step (e.g. `CONV_2D` for the node run at that step). When given, the x axis
   * labels every step that has room with `step label` (rotated), and hover texts name the ops.
   */
  stepLabels?: readonly string[];
  /**
   * Step ranges to shade and name, e.g. the steps of one tile of a patch stage (`× 9 tiles`): the
   * buffers drawn there are the tile buffers every tile reuses.
   */
  bands?: readonly { from: number; to: number; label: string }[];
  /** Tensor ids to draw as tile buffers (dotted fill, own legend entry). */
  tileBuffers?: ReadonlySet<number>;
  /** Reference levels drawn as dotted lines with a label, e.g. the normal schedule's lower bound or TFLM's head. */
  marks?: readonly { bytes: number; label: string }[];
}

const MARGIN_LEFT = 84;
const MARGIN_RIGHT = 24;
const CHAR_WIDTH = 6;
const LABEL_MIN_HEIGHT = 12;

/** Display name of a buffer: its label, else `tensor 3` / `scratch 1`. */
function nameOf(b: BufferRequirement): string {
  return b.label ?? `${b.kind} ${b.id}`;
}

/** Renders `plan` of `buffers` as an SVG document string. */
export function renderPlanSvg(buffers: readonly BufferRequirement[], plan: MemoryPlan, options: PlanSvgOptions = {}): string {
  const n = buffers.length;
  if (plan.offsets.length !== n) throw new PlanShapeError('plan offset count', n, plan.offsets.length);
  const width = Math.max(320, options.width ?? 960);
  const plotH = Math.max(80, options.plotHeight ?? 400);
  const id = options.idPrefix ?? 'mrt';
  const lb = options.lowerBound;
  const top = 44;
  const plotW = width - MARGIN_LEFT - MARGIN_RIGHT;
  const stepLabels = options.stepLabels;
  const longestLabel = stepLabels ? stepLabels.reduce((m, l) => Math.max(m, l.length), 0) + 4 : 0;
  // Rotated step labels need room below the axis: about 0.6 of their width at font size 9, rotated 45 degrees.
  const labelRoom = stepLabels ? Math.min(140, Math.ceil(longestLabel * CHAR_WIDTH * 0.6)) : 0;
  const height = top + plotH + 84 + labelRoom;

  let s0 = n > 0 ? Infinity : 0;
  let s1 = n > 0 ? -Infinity : 0;
  for (const b of buffers) {
    if (b.firstUsed < s0) s0 = b.firstUsed;
    if (b.lastUsed > s1) s1 = b.lastUsed;
  }
  const cellW = plotW / (s1 - s0 + 1);
  const marks = options.marks ?? [];
  const tiles = options.tileBuffers;
  const yTicks = byteTicks(Math.max(plan.headBytes, lb ?? 0, 1, ...marks.map((m) => m.bytes)));
  const yTop = yTicks[yTicks.length - 1]!;
  const x = (step: number): number => MARGIN_LEFT + (step - s0) * cellW;
  const y = (offset: number): number => top + plotH - (offset / yTop) * plotH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="sans-serif" font-size="11">`,
  );
  out.push(
    `<defs><pattern id="${id}-scratch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">` +
      `<rect width="6" height="6" fill="#ffe3bf"/><line x1="0" y1="0" x2="0" y2="6" stroke="#c06000" stroke-width="2"/>` +
      `</pattern>` +
      `<pattern id="${id}-tile" patternUnits="userSpaceOnUse" width="5" height="5">` +
      `<rect width="5" height="5" fill="#d6f0d8"/><circle cx="2.5" cy="2.5" r="1" fill="#2e7d32"/>` +
      `</pattern></defs>`,
  );
  const title =
    options.title ??
    `memory plan: ${n} buffer${n === 1 ? '' : 's'}, head ${formatBytes(plan.headBytes)}` +
      (lb !== undefined ? `, lower bound ${formatBytes(lb)}` : '');
  // About 0.55 em per character: shrink a long title to the width rather than clip it.
  const titleSize = Math.max(9, Math.min(15, Math.floor((width - 16) / (title.length * 0.55))));
  out.push(`<text class="title" x="${num(width / 2)}" y="24" text-anchor="middle" font-size="${titleSize}">${escapeXml(title)}</text>`);
  out.push(`<rect class="plot-area" x="${MARGIN_LEFT}" y="${top}" width="${num(plotW)}" height="${plotH}" fill="#fafafa" stroke="#ddd"/>`);

  // Bands (e.g. one tile's steps of a patch stage), behind the buffers.
  for (const band of options.bands ?? []) {
    const bx = x(band.from);
    const bw = (band.to - band.from + 1) * cellW;
    out.push(
      `<g class="band"><rect x="${num(bx)}" y="${top}" width="${num(bw)}" height="${plotH}" fill="#e8f5e9" stroke="#81c784" stroke-dasharray="3 3"/>` +
        `<text x="${num(bx + bw / 2)}" y="${top + 12}" text-anchor="middle" fill="#2e7d32">${escapeXml(band.label)}</text></g>`,
    );
  }

  // Buffers.
  out.push('<g class="buffers">');
  for (let i = 0; i < n; i++) {
    const b = buffers[i]!;
    const off = plan.offsets[i]!;
    const rx = x(b.firstUsed);
    const rw = (b.lastUsed - b.firstUsed + 1) * cellW;
    const ry = y(off + b.size);
    const rh = Math.max(1, y(off) - ry);
    const name = nameOf(b);
    const scratch = b.kind === 'scratch';
    const tile = !scratch && tiles?.has(b.id) === true;
    const fill = scratch ? `url(#${id}-scratch)` : tile ? `url(#${id}-tile)` : `hsl(${(b.id * 47) % 360},55%,72%)`;
    const stroke = scratch ? '#c06000' : tile ? '#2e7d32' : '#34495e';
    const ops = stepLabels
      ? ` (${stepLabels[b.firstUsed] ?? '?'}${b.lastUsed > b.firstUsed ? ` → ${stepLabels[b.lastUsed] ?? '?'}` : ''})`
      : '';
    const hover =
      `${name} (${b.kind} ${b.id}): ${b.size} bytes at offset ${off}, steps ${b.firstUsed}..${b.lastUsed}${ops}` +
      (b.offlineOffset !== undefined && b.offlineOffset >= 0 ? ' (offline)' : '');
    out.push(`<g class="buffer ${b.kind}${tile ? ' tile' : ''}" data-index="${i}"><title>${escapeXml(hover)}</title>`);
    out.push(
      `<rect x="${num(rx)}" y="${num(ry)}" width="${num(rw)}" height="${num(rh)}" fill="${fill}" stroke="${stroke}" stroke-width="0.75"/>`,
    );
    const text = [name, String(b.id)].find((t) => t.length * CHAR_WIDTH + 4 <= rw);
    if (text !== undefined && rh >= LABEL_MIN_HEIGHT) {
      out.push(
        `<text x="${num(rx + rw / 2)}" y="${num(ry + rh / 2 + 4)}" text-anchor="middle" font-size="10" fill="#111">${escapeXml(text)}</text>`,
      );
    }
    out.push('</g>');
  }
  out.push('</g>');

  // Head and lower-bound lines.
  const x0 = MARGIN_LEFT;
  const x1 = MARGIN_LEFT + plotW;
  const yHead = y(plan.headBytes);
  out.push(
    `<g class="head"><line x1="${x0}" y1="${num(yHead)}" x2="${num(x1)}" y2="${num(yHead)}" stroke="#333" stroke-width="1"/>` +
      `<text x="${num(x1 - 4)}" y="${num(yHead - 4)}" text-anchor="end">head ${escapeXml(formatBytes(plan.headBytes))}</text></g>`,
  );
  if (lb !== undefined) {
    const yLb = y(lb);
    out.push(
      `<g class="lower-bound"><line x1="${x0}" y1="${num(yLb)}" x2="${num(x1)}" y2="${num(yLb)}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/>` +
        `<text x="${x0 + 4}" y="${num(yLb - 4)}" fill="#c0392b">lower bound ${escapeXml(formatBytes(lb))}</text></g>`,
    );
  }

  for (const m of marks) {
    const ym = y(m.bytes);
    out.push(
      `<g class="mark"><line x1="${x0}" y1="${num(ym)}" x2="${num(x1)}" y2="${num(ym)}" stroke="#7f8c8d" stroke-width="1" stroke-dasharray="2 3"/>` +
        `<text x="${num(x1 - 4)}" y="${num(ym - 4)}" text-anchor="end" fill="#555">${escapeXml(`${m.label} ${formatBytes(m.bytes)}`)}</text></g>`,
    );
  }

  // Axes.
  const yAxis = top + plotH;
  out.push(`<g class="axis x-axis"><line x1="${x0}" y1="${yAxis}" x2="${num(x1)}" y2="${yAxis}" stroke="#333"/>`);
  if (stepLabels) {
    // Every step when the cells are wide enough for a rotated line of text, else every k-th.
    const every = Math.max(1, Math.ceil(12 / cellW));
    for (let step = s0; step <= s1; step += every) {
      const cx = x(step) + cellW / 2;
      const text = `${step} ${stepLabels[step] ?? ''}`.trimEnd();
      out.push(
        `<line x1="${num(cx)}" y1="${yAxis}" x2="${num(cx)}" y2="${yAxis + 5}" stroke="#333"/>` +
          `<text x="${num(cx + 3)}" y="${yAxis + 10}" text-anchor="end" font-size="9" transform="rotate(-45 ${num(cx + 3)} ${yAxis + 10})">${escapeXml(text)}</text>`,
      );
    }
  } else {
    for (const step of stepTicks(s0, s1)) {
      const cx = x(step) + cellW / 2;
      out.push(
        `<line x1="${num(cx)}" y1="${yAxis}" x2="${num(cx)}" y2="${yAxis + 5}" stroke="#333"/>` +
          `<text x="${num(cx)}" y="${yAxis + 17}" text-anchor="middle">${step}</text>`,
      );
    }
  }
  const axisTitle = stepLabels ? 'execution step (node op)' : 'execution step';
  out.push(`<text x="${num(x0 + plotW / 2)}" y="${yAxis + 34 + labelRoom}" text-anchor="middle">${axisTitle}</text></g>`);
  out.push(`<g class="axis y-axis"><line x1="${x0}" y1="${top}" x2="${x0}" y2="${yAxis}" stroke="#333"/>`);
  for (const v of yTicks) {
    const ty = y(v);
    out.push(
      `<line x1="${x0 - 5}" y1="${num(ty)}" x2="${x0}" y2="${num(ty)}" stroke="#333"/>` +
        `<text x="${x0 - 8}" y="${num(ty + 4)}" text-anchor="end">${escapeXml(formatBytes(v))}</text>`,
    );
  }
  out.push(`<text transform="translate(16 ${num(top + plotH / 2)}) rotate(-90)" text-anchor="middle">arena offset</text></g>`);

  // Legend.
  const ly = height - 22;
  out.push(
    `<g class="legend" transform="translate(${x0} ${ly})">` +
      `<rect x="0" y="-9" width="14" height="10" fill="hsl(200,55%,72%)" stroke="#34495e"/><text x="20" y="0">tensor</text>` +
      `<rect x="80" y="-9" width="14" height="10" fill="url(#${id}-scratch)" stroke="#c06000"/><text x="100" y="0">scratch</text>` +
      `<line x1="170" y1="-4" x2="200" y2="-4" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/><text x="206" y="0">lower bound</text>` +
      `<line x1="290" y1="-4" x2="320" y2="-4" stroke="#333"/><text x="326" y="0">head</text>` +
      (tiles?.size
        ? `<rect x="380" y="-9" width="14" height="10" fill="url(#${id}-tile)" stroke="#2e7d32"/><text x="400" y="0">tile buffer (reused by every tile)</text>`
        : '') +
      `</g>`,
  );
  out.push('</svg>');
  return out.join('\n');
}
