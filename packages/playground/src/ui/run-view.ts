/**
 * The Run tab: pick the planner and the inputs (seeded random, or an uploaded image resized and
 * quantized to an image-shaped input), run with the header's kernel package; outputs, arena and
 * timings, the per-op latency profile, and with emulated ops-simd the Cortex-M4/M7 cycle estimate.
 */
import { defaultPixelRange, type ImagePixels, type PixelRange } from '../engine/inputs.js';
import { fallbackLines, sharesText } from '../engine/served.js';
import type { InputSpec, RunResult } from '../engine/session.js';
import type { ModelSummary } from '../engine/summary.js';
import { barChart } from './charts.js';
import type { AppContext } from './context.js';
import { formatBytes, formatInt, formatMs, h, table } from './dom.js';
import { renderTensorValue } from './outputs-view.js';

/** Resizes an image file to width × height (canvas, bilinear) and returns its RGBA pixels. */
async function imagePixels(file: Blob, width: number, height: number): Promise<{ pixels: ImagePixels; preview: HTMLCanvasElement }> {
  const bitmap = await createImageBitmap(file);
  const canvas = h('canvas', { width, height, class: 'preview' });
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const data = ctx.getImageData(0, 0, width, height);
  return { pixels: { width, height, rgba: new Uint8Array(data.data.buffer.slice(0)) }, preview: canvas };
}

export class RunView {
  readonly element: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly results: HTMLElement;
  private summary: ModelSummary | null = null;
  private image: { pixels: ImagePixels; preview: HTMLCanvasElement; name: string } | null = null;
  private readonly planner = h('select', { 'data-testid': 'run-planner' }, h('option', { value: 'greedy' }, 'greedy'));
  private readonly seed = h('input', { type: 'number', value: '1', min: '0', step: '1', class: 'seed', 'data-testid': 'run-seed' });
  private readonly source = h(
    'select',
    { 'data-testid': 'run-source' },
    h('option', { value: 'seeded' }, 'random (seeded)'),
    h('option', { value: 'image' }, 'image'),
  );
  private readonly range = h(
    'select',
    { 'data-testid': 'run-range' },
    ...(['metadata', 'tensor', '0..1', '-1..1', '0..255'] as PixelRange[]).map((r) =>
      h('option', { value: r }, r === 'tensor' ? "the tensor's whole range" : r === 'metadata' ? "the model's normalization" : r),
    ),
  );
  private readonly imageInput = h('input', { type: 'file', accept: 'image/*', 'data-testid': 'run-image' });
  private readonly imageRow = h('span', { class: 'image-row' });
  private readonly runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run-button' }, 'Run');

  constructor(private readonly app: AppContext) {
    this.controls = h('div', { class: 'controls' });
    this.results = h(
      'div',
      { class: 'run-results', 'data-testid': 'run-results' },
      h('p', { class: 'hint' }, 'Open a model, then run it.'),
    );
    this.element = h('div', { class: 'run' }, this.controls, this.results);
    this.runButton.addEventListener('click', () => void this.run());
    this.source.addEventListener('change', () => this.updateControls());
    this.imageInput.addEventListener('change', () => void this.loadImage());
    this.planner.value = 'greedy';
  }

  /** The planners the worker offers (greedy stays the default). */
  setPlanners(names: readonly string[]): void {
    this.planner.replaceChildren(...names.map((p) => h('option', { value: p }, p)));
    this.planner.value = names.includes('greedy') ? 'greedy' : (names[0] ?? '');
  }

  /** A new model: resets the results and offers image input when input 0 is an image (any of its types, float32 included). */
  setModel(summary: ModelSummary): void {
    this.summary = summary;
    this.image = null;
    this.imageInput.value = '';
    const img = summary.imageInput;
    const imageOption = this.source.querySelector('option[value=image]')!;
    imageOption.toggleAttribute('disabled', !img);
    imageOption.setAttribute(
      'title',
      img ? `an image file, resized to ${img.width}×${img.height}` : 'input 0 is not an image (4-D, batch 1, 1 or 3 channels)',
    );
    if (!img) this.source.value = 'seeded';
    const norm = img?.normalization;
    const metaOption = this.range.querySelector('option[value=metadata]')!;
    metaOption.toggleAttribute('disabled', !norm);
    metaOption.textContent = norm
      ? `the model's normalization: (p − ${norm.mean.join('/')}) / ${norm.std.join('/')}`
      : "the model's normalization (none given)";
    const quantized = img ? img.type !== 'float32' : false;
    this.range.querySelector('option[value=tensor]')!.toggleAttribute('disabled', !quantized);
    if (img) this.range.value = defaultPixelRange(img.type, norm ?? null);
    this.results.replaceChildren(h('p', { class: 'hint' }, `Run ${summary.name} with the kernels picked above.`));
    this.updateControls();
  }

  private updateControls(): void {
    const lay = this.summary?.imageInput ?? null;
    const img = this.source.value === 'image' && lay;
    this.imageRow.replaceChildren(
      ...(img
        ? [
            h('label', null, 'image ', this.imageInput),
            h('label', null, 'pixels map to ', this.range),
            h('span', { class: 'muted' }, ` → ${lay.width}×${lay.height}×${lay.channels} ${lay.layout.toUpperCase()} ${lay.type}`),
            ...(this.image ? [this.image.preview] : []),
          ]
        : []),
    );
    this.controls.replaceChildren(
      h('label', null, 'planner ', this.planner),
      h('label', null, 'inputs ', this.source),
      h('label', { class: img ? 'muted' : '' }, img ? 'seed (other inputs) ' : 'seed ', this.seed),
      this.imageRow,
      this.runButton,
    );
  }

  private async loadImage(): Promise<void> {
    const file = this.imageInput.files?.[0];
    const lay = this.summary?.imageInput;
    if (!file || !lay) return;
    try {
      const { pixels, preview } = await imagePixels(file, lay.width, lay.height);
      this.image = { pixels, preview, name: file.name };
      this.updateControls();
    } catch (e) {
      this.app.showError(
        new Error(`could not read the image ${file.name}: ${(e as Error).message}`),
        'Choose a PNG, JPEG, GIF, WebP or BMP file (anything this browser shows), or switch the inputs to random.',
      );
    }
  }

  /** The input spec the controls describe. */
  inputSpec(): InputSpec {
    const seed = Math.max(0, Math.floor(Number(this.seed.value) || 0));
    if (this.source.value === 'image') {
      if (!this.image) throw new Error('no image chosen: choose an image file beside "pixels map to" (or switch the inputs to random)');
      return { kind: 'image', pixels: this.image.pixels, range: this.range.value as PixelRange, seed };
    }
    return { kind: 'seeded', seed };
  }

  async run(): Promise<void> {
    if (!this.summary) return;
    this.app.clearError();
    this.runButton.disabled = true;
    try {
      const input = this.inputSpec();
      const result = await this.app.client.call('run', { kernel: this.app.kernel(), planner: this.planner.value, input }, (l, d, t) =>
        this.app.progress(`run: ${l}`, d, t),
      );
      this.show(result);
    } catch (e) {
      this.app.showError(e);
      this.results.replaceChildren(h('p', { class: 'err' }, 'The run failed; see the message above.'));
    } finally {
      this.runButton.disabled = false;
      this.app.progress(null);
    }
  }

  private show(r: RunResult): void {
    const info = this.app.kernels().find((k) => k.id === r.kernel);
    const byOp = new Map<string, number>();
    for (const n of r.nodes) if (n.ms !== null) byOp.set(n.op, (byOp.get(n.op) ?? 0) + n.ms);
    const timedNodes = r.nodes.filter((n) => n.ms !== null);
    const els: (HTMLElement | null)[] = [
      h(
        'dl',
        { class: 'facts', 'data-testid': 'run-facts' },
        h('dt', null, 'kernels'),
        h('dd', null, `${info?.label ?? r.kernel}${r.detail ? ` (${r.detail})` : ''}`),
        h('dt', null, 'served'),
        h(
          'dd',
          { 'data-testid': 'run-served' },
          sharesText(r.served),
          ...fallbackLines(r.served).map((l) => h('div', { class: 'served-notes' }, l)),
        ),
        h('dt', null, 'arena'),
        h(
          'dd',
          { 'data-testid': 'run-arena' },
          `${formatBytes(r.arena.arenaBytes)} (arena: 'auto' with ${r.planner}: head ${formatBytes(r.arena.headBytes)} + tail ${formatBytes(r.arena.tailBytes)})`,
        ),
        h('dt', null, 'invoke'),
        h(
          'dd',
          { 'data-testid': 'run-time' },
          `first ${formatMs(r.firstInvokeMs)}, then ${formatMs(r.meanInvokeMs)} on average over ${r.invokes} invoke${r.invokes === 1 ? '' : 's'}`,
        ),
        r.partitions ? h('dt', null, 'delegated') : null,
        r.partitions ? h('dd', null, r.partitions.map((p) => `[${p.join(', ')}]`).join(' ')) : null,
      ),
      h('h3', null, 'Outputs'),
      h(
        'div',
        { class: 'outputs', 'data-testid': 'outputs' },
        ...r.outputs.map((o, j) => renderTensorValue(o, j, 'output', this.summary?.outputLabels[j])),
      ),
      h('details', null, h('summary', null, 'Inputs used'), ...r.inputs.map((t, i) => renderTensorValue(t, i, 'input'))),
      h('h3', null, 'Latency by op'),
      h(
        'p',
        { class: 'muted small' },
        `Milliseconds per invoke, averaged over ${r.invokes} invoke${r.invokes === 1 ? '' : 's'} (browser timers are coarse: single ops under ~0.1 ms are estimates).`,
        r.untimedMs > 0.005 ? ` Not attributed to a node: ${formatMs(r.untimedMs)} (the interpreter loop).` : '',
      ),
      barChart(
        [...byOp].sort((a, b) => b[1] - a[1]).map(([op, ms]) => ({ label: op, value: ms })),
        formatMs,
        { 'data-testid': 'latency-by-op' },
      ),
      h(
        'details',
        { open: timedNodes.length <= 40 },
        h('summary', null, `Latency per node (${timedNodes.length} nodes, execution order)`),
        barChart(
          timedNodes.map((n) => ({
            label: `#${n.index} ${n.op}`,
            value: n.ms!,
            title: `node ${n.index} ${n.op} — ${n.provider} (${n.kernel}): ${formatMs(n.ms!)}`,
            kind: /simd/.test(n.provider) ? 'simd' : /wasm/.test(n.provider) ? 'wasm' : '',
          })),
          formatMs,
          { 'data-testid': 'latency-by-node' },
        ),
      ),
    ];
    if (r.cycles) {
      const rows = r.nodes.filter((n) => n.cyclesM4 !== null && n.cyclesM4 !== undefined);
      els.push(
        h('h3', null, 'Cortex-M cycle estimate'),
        h(
          'p',
          { 'data-testid': 'cycles-total' },
          `Cortex-M4: ${formatInt(r.cycles.m4)} cycles per invoke, Cortex-M7: ${formatInt(r.cycles.m7)}, over the ${r.cycles.estimatedNodes} of ${r.nodes.length} nodes ops-simd served (emulated DSP instruction counts × each core's costs, no flash wait states).`,
        ),
        barChart(
          rows.map((n) => ({
            label: `#${n.index} ${n.op}`,
            value: n.cyclesM4!,
            title: `${n.cmsisKernel ?? ''}: M4 ${formatInt(n.cyclesM4!)}, M7 ${formatInt(n.cyclesM7 ?? 0)} cycles`,
            kind: 'cycles',
          })),
          (v) => `${formatInt(v)} cyc`,
          { 'data-testid': 'cycles-by-node' },
        ),
        table(
          ['node', 'op', 'CMSIS-NN kernel', 'M4 cycles', 'M7 cycles'],
          rows.map((n) => [String(n.index), n.op, n.cmsisKernel ?? '', formatInt(n.cyclesM4!), formatInt(n.cyclesM7 ?? 0)]),
          { class: 'small' },
        ),
      );
      const missing = r.nodes.filter((n) => n.cyclesM4 === null);
      if (missing.length)
        els.push(
          h(
            'p',
            { class: 'muted small' },
            `Not estimated (served by ops-reference): ${missing.map((n) => `#${n.index} ${n.op}`).join(', ')}.`,
          ),
        );
    } else if (r.kernel !== 'simd-emulated') {
      els.push(
        h('p', { class: 'muted small' }, 'Pick "ops-simd (emulated, Cortex-M cycles)" above for the Cortex-M4/M7 cycle estimate per op.'),
      );
    }
    this.results.replaceChildren(...els.filter((e): e is HTMLElement => e !== null));
  }
}
