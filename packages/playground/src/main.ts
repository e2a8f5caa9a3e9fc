/**
 * The micrort playground page: open a model (file, drag and drop, or a built-in), see its check
 * report, graph and memory plans, run it with each kernel package and compare them. Everything heavy
 * runs in a Web Worker (worker.ts); this file wires the header, the tabs and the views.
 */
import './styles.css';
import type { CheckReport } from './engine/check.js';
import type { KernelId } from './engine/kernels.js';
import { CORPUS_MODELS } from 'virtual:corpus-models';
import type { ModelSummary } from './engine/summary.js';
import type { KernelInfo } from './protocol.js';
import { RemoteError, WorkerClient } from './ui/client.js';
import { CompareView } from './ui/compare-view.js';
import type { AppContext } from './ui/context.js';
import { formatMs, h, shortBytes } from './ui/dom.js';
import { GraphView } from './ui/graph-view.js';
import { renderMemory } from './ui/memory-view.js';
import { renderCheck, renderHistogram, renderSummary } from './ui/model-view.js';
import { RunView } from './ui/run-view.js';

const TABS = ['model', 'graph', 'memory', 'run', 'compare'] as const;
type Tab = (typeof TABS)[number];

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const client = new WorkerClient(worker);

const root = document.getElementById('app')!;
const errorBanner = h('div', { class: 'error-banner', role: 'alert', 'data-testid': 'error', hidden: true });
const progressLabel = h('span', { class: 'progress-label', 'data-testid': 'progress' });
const progressBar = h('progress', { max: 1, value: 0, hidden: true });
const status = h('span', { class: 'status', 'data-testid': 'status' }, 'No model open.');
const fileInput = h('input', {
  type: 'file',
  accept: '.tflite,application/octet-stream',
  'data-testid': 'file-input',
  class: 'file-input',
});
/** The built-in models (app-kit's list, which the worker reports at setup: it makes them). */
const builtInGroup = h('optgroup', { label: 'built-in (made by the model writer)' });
let builtInModels: { name: string; label: string }[] = [];
const builtIn = h(
  'select',
  {
    'data-testid': 'builtin-select',
    title: 'built-in models (made by the model writer in the page) and real models shipped with the site',
  },
  h('option', { value: '' }, 'built-in or sample model…'),
  builtInGroup,
  CORPUS_MODELS.length
    ? h(
        'optgroup',
        { label: "real models (MediaPipe's npm packages)" },
        ...CORPUS_MODELS.map((m) => h('option', { value: `corpus:${m.name}` }, `${m.name} — ${m.description}, ${shortBytes(m.bytes)}`)),
      )
    : null,
);
const kernelSelect = h('select', { 'data-testid': 'kernel-select' });

let kernels: KernelInfo[] = [];
let summary: ModelSummary | null = null;
let check: CheckReport | null = null;
let generation = 0;

const app: AppContext = {
  client,
  kernel: () => (kernelSelect.value || 'reference') as KernelId,
  kernels: () => kernels.filter((k) => k.available),
  progress(label, done = 0, total = 0) {
    progressLabel.textContent = label ?? '';
    progressBar.hidden = label === null || total <= 0;
    if (total > 0) progressBar.value = done / total;
    document.body.classList.toggle('busy', label !== null);
  },
  showError(e, context) {
    const err = e as Error & { advice?: string };
    const name = e instanceof RemoteError || (err && err.name && err.name !== 'Error') ? err.name : 'Error';
    errorBanner.replaceChildren(
      h('div', { 'data-testid': 'error-message' }, h('strong', null, `${name}: `), err?.message ?? String(e)),
      context ? h('div', { class: 'context' }, context) : '',
      err?.advice ? h('div', { class: 'advice', 'data-testid': 'error-advice' }, err.advice) : '',
      h('button', { type: 'button', class: 'close', title: 'dismiss', onclick: () => app.clearError() }, '×'),
    );
    errorBanner.hidden = false;
  },
  clearError() {
    errorBanner.hidden = true;
    errorBanner.replaceChildren();
  },
};

// Tabs.
const panels = Object.fromEntries(TABS.map((t) => [t, h('section', { class: 'panel', 'data-panel': t, hidden: t !== 'model' })])) as Record<
  Tab,
  HTMLElement
>;
const tabButtons = TABS.map((t) =>
  h(
    'button',
    { type: 'button', class: `tab${t === 'model' ? ' active' : ''}`, 'data-tab': t, onclick: () => showTab(t) },
    t[0]!.toUpperCase() + t.slice(1),
  ),
);
function showTab(t: Tab): void {
  for (const b of tabButtons) b.classList.toggle('active', b.dataset['tab'] === t);
  for (const [k, p] of Object.entries(panels)) p.hidden = k !== t;
  if (t === 'graph') requestAnimationFrame(() => graphView.refit());
}

const summaryHost = h('div', { 'data-testid': 'summary-host' });
const histogramHost = h('div', { 'data-testid': 'histogram-host' });
const welcome = h(
  'div',
  { class: 'welcome' },
  h('h2', null, 'Try micrort on your model'),
  h(
    'p',
    null,
    'Drop a .tflite file anywhere on this page, choose one with the button above, or pick a built-in model. Nothing leaves your machine: the model is loaded, checked, planned and run in this page by the same packages the micrort CLI uses.',
  ),
);
summaryHost.append(welcome);
const checkHost = h('div', { 'data-testid': 'check-host' });
const graphView = new GraphView();
const memoryHost = h(
  'div',
  { 'data-testid': 'memory-host' },
  h('p', { class: 'hint' }, 'Open a model to see how each planner lays out its arena.'),
);
const runView = new RunView(app);
const compareView = new CompareView(app, runView);
panels.model.append(summaryHost, checkHost, histogramHost);
panels.graph.append(graphView.element);
panels.memory.append(memoryHost);
panels.run.append(runView.element);
panels.compare.append(compareView.element);

root.append(
  h(
    'header',
    null,
    h('h1', null, 'micrort ', h('span', { class: 'muted' }, 'playground')),
    h(
      'div',
      { class: 'pickers' },
      h('label', { class: 'button' }, 'Open .tflite…', fileInput),
      builtIn,
      h('label', null, 'kernels ', kernelSelect),
    ),
    h('div', { class: 'progress-row' }, status, progressBar, progressLabel),
  ),
  errorBanner,
  h('nav', { class: 'tabs' }, ...tabButtons),
  ...Object.values(panels),
);

const kernelLabel = () => kernels.find((k) => k.id === app.kernel())?.label ?? app.kernel();

/** Check and memory plans for the current model and kernel package (the graph does not change). */
async function analyse(gen: number, checked?: () => void): Promise<void> {
  delete root.dataset['checkReady'];
  delete root.dataset['plansReady'];
  app.progress('checking every node', 0, 1);
  checkHost.replaceChildren(h('p', { class: 'hint' }, 'Checking…'));
  try {
    check = await client.call('check', { kernel: app.kernel() });
    if (gen !== generation) return;
    checkHost.replaceChildren(renderCheck(check, kernelLabel()));
    graphView.setCheck(check);
    checked?.();
  } catch (e) {
    if (gen !== generation) return;
    checkHost.replaceChildren();
    app.showError(e);
  }
  root.dataset['checkReady'] = summary?.name ?? '';
  memoryHost.replaceChildren(h('p', { class: 'hint' }, 'Planning…'));
  try {
    const plans = await client.call(
      'plans',
      { kernel: app.kernel() },
      (l, d, t) => gen === generation && app.progress(`memory: ${l}`, d, t),
    );
    if (gen !== generation) return;
    memoryHost.replaceChildren(renderMemory(plans));
  } catch (e) {
    if (gen !== generation) return;
    const err = e as Error & { advice?: string };
    memoryHost.replaceChildren(
      h(
        'p',
        { class: 'err', 'data-testid': 'memory-error' },
        `The memory plan needs an allocation, which failed: ${err.name}: ${err.message}`,
        err.advice ? h('div', { class: 'advice' }, err.advice) : null,
      ),
    );
  }
  root.dataset['plansReady'] = summary?.name ?? '';
  app.progress(null);
}

/** Opens a model (bytes from a file, or a built-in by name). */
async function open(source: { bytes: Uint8Array; name: string } | { builtIn: string }, t0 = performance.now()): Promise<void> {
  const timings: Record<string, number> = {};
  const mark = (what: string) => (timings[what] = performance.now() - t0);
  const gen = ++generation;
  app.clearError();
  const name = 'builtIn' in source ? source.builtIn : source.name;
  app.progress(`opening ${name}`, 0, 1);
  let opened: ModelSummary;
  try {
    opened = 'builtIn' in source ? await client.call('openBuiltIn', { name: source.builtIn }) : await client.call('open', source);
  } catch (e) {
    // A bad file: the typed error is shown, the previous model (if any) stays open.
    app.showError(e, `${name} could not be opened${summary ? `; ${summary.name} stays open` : ''}.`);
    app.progress(null);
    root.dataset['openFailed'] = name;
    return;
  }
  if (gen !== generation) return;
  summary = opened;
  check = null;
  delete root.dataset['checkReady'];
  delete root.dataset['plansReady'];
  summaryHost.replaceChildren(renderSummary(opened));
  mark('summaryMs');
  histogramHost.replaceChildren(renderHistogram(opened));
  runView.setModel(opened);
  compareView.setModel(opened);
  status.textContent = `${opened.name}: ${opened.nodes.length} nodes`;
  try {
    app.progress('laying out the graph', 0, 1);
    const layout = await client.call('graph', {});
    if (gen !== generation) return;
    graphView.show(layout, opened);
    mark('graphMs');
  } catch (e) {
    app.showError(e);
  }
  await analyse(gen, () => mark('checkMs'));
  if (gen !== generation) return;
  mark('plansMs');
  status.textContent = `${opened.name}: ${opened.nodes.length} nodes — summary in ${formatMs(timings['summaryMs']!)}, checked, drawn and planned in ${formatMs(timings['plansMs']!)}`;
  root.dataset['modelReady'] = opened.name;
  // Read by the browser test (time to first interaction).
  (window as unknown as { __playgroundTimings?: Record<string, number> }).__playgroundTimings = timings;
}

async function openFile(file: File): Promise<void> {
  const t0 = performance.now();
  const bytes = new Uint8Array(await file.arrayBuffer());
  await open({ bytes, name: file.name }, t0);
}

fileInput.addEventListener('change', () => {
  const f = fileInput.files?.[0];
  if (f) void openFile(f);
  fileInput.value = '';
});
/** Fetches a real model shipped beside the page (corpus/<name>.tflite) and opens it. */
async function openCorpus(name: string): Promise<void> {
  const m = CORPUS_MODELS.find((c) => c.name === name);
  if (!m) return;
  const t0 = performance.now();
  app.progress(`fetching ${m.name}`, 0, 1);
  try {
    const res = await fetch(new URL(m.file, document.baseURI));
    if (!res.ok) throw new Error(`${m.file}: HTTP ${res.status}`);
    await open({ bytes: new Uint8Array(await res.arrayBuffer()), name: `${m.name}.tflite` }, t0);
  } catch (e) {
    app.showError(e, `${m.name} could not be fetched.`);
    app.progress(null);
  }
}

builtIn.addEventListener('change', () => {
  const v = builtIn.value;
  if (v.startsWith('corpus:')) void openCorpus(v.slice('corpus:'.length));
  else if (v) void open({ builtIn: v });
  builtIn.value = '';
});
kernelSelect.addEventListener('change', () => {
  if (summary) void analyse(++generation);
});
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dropping');
});
document.addEventListener('dragleave', (e) => {
  if (!e.relatedTarget) document.body.classList.remove('dropping');
});
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dropping');
  const f = e.dataTransfer?.files[0];
  if (f) void openFile(f);
});

// Which kernel packages run here (each is loaded once to find out), then the default model.
async function start(): Promise<void> {
  app.progress('loading the kernel packages', 0, 1);
  try {
    const setup = await client.call('setup', {});
    kernels = setup.kernels;
    builtInModels = setup.models;
    builtInGroup.replaceChildren(...builtInModels.map((m) => h('option', { value: m.name }, `${m.name} — ${m.label}`)));
    runView.setPlanners(setup.planners);
  } catch (e) {
    kernels = [{ id: 'reference', label: 'ops-reference', description: '', available: true }];
    app.showError(e);
  }
  kernelSelect.replaceChildren(
    ...kernels.map((k) =>
      h(
        'option',
        {
          value: k.id,
          disabled: !k.available,
          title: k.available ? `${k.description}${k.detail ? ` (${k.detail})` : ''}` : `unavailable: ${k.reason}`,
        },
        `${k.label}${k.available ? (k.detail ? ` (${k.detail})` : '') : ' — unavailable'}`,
      ),
    ),
  );
  kernelSelect.value = 'reference';
  app.progress(null);
  root.dataset['kernelsReady'] = kernels
    .filter((k) => k.available)
    .map((k) => k.id)
    .join(',');
  const wanted = new URLSearchParams(location.search).get('model');
  if (wanted && builtInModels.some((m) => m.name === wanted)) await open({ builtIn: wanted });
  else if (wanted && CORPUS_MODELS.some((m) => m.name === wanted)) await openCorpus(wanted);
}
void start();
