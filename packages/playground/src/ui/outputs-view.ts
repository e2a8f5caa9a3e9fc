/** Outputs of a run: top-k for classifier-shaped outputs, raw values otherwise; bytes downloadable. */
import { isClassifierShaped, realValues, storedValues, toBase64, topK, type TensorValue } from '../engine/outputs.js';
import { h, table } from './dom.js';

const RAW_SHOWN = 64;

function fmt(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(6)).toString();
}

/** One output tensor; `labels` name a classifier's classes (the model's TFLite metadata), when it has them. */
export function renderTensorValue(t: TensorValue, j: number, kind = 'output', labels?: readonly string[] | null): HTMLElement {
  const quantized = t.type !== 'float32' && !!t.scale;
  const blob = URL.createObjectURL(new Blob([t.bytes.slice().buffer], { type: 'application/octet-stream' }));
  const head = h(
    'p',
    { class: 'tensor-head' },
    h('strong', null, `${kind} ${j}`),
    ` ${t.name} — ${t.type}[${t.shape.join(',')}]`,
    quantized ? ` (scale ${Number(t.scale!.toPrecision(6))}, zero point ${t.zeroPoint ?? 0})` : '',
    ' · ',
    h('a', { href: blob, download: `${kind}_${j}.bin` }, `${kind}_${j}.bin`),
  );
  let body: HTMLElement;
  if (isClassifierShaped(t)) {
    const named = !!labels && labels.length > 0;
    body = h(
      'div',
      null,
      table(
        ['rank', 'class', ...(named ? ['label'] : []), quantized ? 'score (real)' : 'score', ...(quantized ? ['stored'] : [])],
        topK(t, 5).map((r, i) => [
          String(i + 1),
          String(r.index),
          ...(named ? [h('strong', { class: 'label' }, labels[r.index] ?? `(no label: the file has ${labels.length})`)] : []),
          fmt(r.score),
          ...(quantized ? [String(r.stored)] : []),
        ]),
        { class: 'topk small', 'data-testid': `${kind}-${j}-topk` },
      ),
      named || kind !== 'output'
        ? null
        : h('p', { class: 'muted small' }, 'Classes by index: the model names none (no label file in its TFLite metadata).'),
    );
  } else {
    const stored = storedValues(t);
    const real = quantized ? realValues(t) : null;
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    for (const v of real ?? stored) {
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
    }
    const shown = stored.slice(0, RAW_SHOWN).map((v, i) => (real ? `${v} (${fmt(real[i]!)})` : fmt(v)));
    body = h(
      'div',
      null,
      h(
        'p',
        { class: 'muted small' },
        `${stored.length} values${stored.length ? `; min ${fmt(min)}, max ${fmt(max)}, mean ${fmt(sum / stored.length)}${real ? ' (real values)' : ''}` : ''}`,
      ),
      h('pre', { class: 'raw' }, shown.join(', ') + (stored.length > RAW_SHOWN ? `, … (${stored.length - RAW_SHOWN} more)` : '')),
    );
  }
  return h('div', { class: 'tensor-value', 'data-testid': `${kind}-${j}`, 'data-bytes': toBase64(t.bytes) }, head, body);
}
