/**
 * The source of an ops-wasm worker, as a string: Node runs it with `new Worker(source, { eval: true })`,
 * a browser from a Blob URL, so no file has to be found next to the bundle. It receives the compiled
 * module and the control block once, then one shared memory per interpreter (`attach`), instantiates the
 * module over each, and runs the chunks of the jobs the main thread publishes (control.ts): it spins
 * briefly for the next job, then sleeps with Atomics.waitAsync (its event loop stays free for `attach`
 * messages), or, where waitAsync is missing, with short Atomics.wait slices between event-loop turns.
 */
import { C, Fn } from './control.js';

/** The worker's JavaScript. */
export function workerSource(): string {
  return `'use strict';
const port = typeof self !== 'undefined' && typeof self.postMessage === 'function'
  ? { on: (f) => { self.onmessage = (e) => f(e.data); }, post: (m) => self.postMessage(m), die: () => self.close() }
  : (() => { const wt = require('node:worker_threads'); return { on: (f) => wt.parentPort.on('message', f), post: (m) => wt.parentPort.postMessage(m), die: () => process.exit(1) }; })();
let ctrl = null, module = null, index = 0;
const instances = new Map();
const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();
let last = 0;
function range(k, chunks, total, align) {
  const units = Math.ceil(total / align);
  const e0 = Math.floor((k * units) / chunks) * align;
  const e1 = Math.min(total, Math.floor(((k + 1) * units) / chunks) * align);
  return [e0, e1];
}
function chunk(x, fn, k) {
  const chunks = ctrl[${C.Chunks}], total = ctrl[${C.Total}], align = ctrl[${C.Align}];
  const a0 = ctrl[${C.Args}], a1 = ctrl[${C.Args + 1}], a2 = ctrl[${C.Args + 2}], a3 = ctrl[${C.Args + 3}];
  const [e0, e1] = range(k, chunks, total, align);
  if (e0 >= e1) return;
  switch (fn) {
    case ${Fn.Conv}: x.qs8_conv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Dwconv}: x.qs8_dwconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Add}: x.qs8_add_range(a0, a1, a2, a3, e0, e1); break;
    case ${Fn.F32Conv}: x.f32_conv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.F32Dwconv}: x.f32_dwconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.TestThrow}: throw new Error('test: a chunk threw in worker ' + index);
    case ${Fn.TestDie}: port.die(); for (;;) {}
    default: throw new Error('unknown job function ' + fn);
  }
}
function work() {
  const x = instances.get(ctrl[${C.Instance}]);
  if (!x && ctrl[${C.Fn}] < ${Fn.TestThrow}) return; // not attached yet: the others take the chunks
  for (;;) {
    const k = Atomics.add(ctrl, ${C.Next}, 1);
    const chunks = ctrl[${C.Chunks}];
    if (k >= chunks) return;
    Atomics.store(ctrl, ${C.Busy} + index, 1);
    try {
      chunk(x, ctrl[${C.Fn}], k);
    } catch (e) {
      if (Atomics.compareExchange(ctrl, ${C.Error}, 0, 1 + index) === 0) {
        const text = String((e && e.message) || e).slice(0, ${C.ErrorTextLength});
        for (let i = 0; i < ${C.ErrorTextLength}; i++) ctrl[${C.ErrorText} + i] = i < text.length ? text.charCodeAt(i) : 0;
      }
    }
    Atomics.store(ctrl, ${C.Busy} + index, 0);
    Atomics.add(ctrl, ${C.WorkerChunks}, 1);
    if (Atomics.add(ctrl, ${C.Done}, 1) + 1 >= chunks) Atomics.notify(ctrl, ${C.Done});
  }
}
function loop() {
  for (;;) {
    if (ctrl[${C.Stop}]) { port.die(); return; }
    let seq = Atomics.load(ctrl, ${C.Seq});
    if (seq === last) {
      const until = now() + ctrl[${C.SpinUs}] / 1000;
      for (let i = 0; (seq = Atomics.load(ctrl, ${C.Seq})) === last; i++) if ((i & 255) === 0 && now() > until) break;
    }
    if (seq === last) {
      if (typeof Atomics.waitAsync === 'function') {
        const w = Atomics.waitAsync(ctrl, ${C.Seq}, last);
        if (w.async) { w.value.then(loop); return; }
        continue;
      }
      Atomics.wait(ctrl, ${C.Seq}, last, 2);
      setTimeout(loop, 0);
      return;
    }
    last = seq;
    work();
  }
}
port.on((m) => {
  if (m.type === 'init') {
    ctrl = new Int32Array(m.control);
    module = m.module;
    index = m.index;
    last = Atomics.load(ctrl, ${C.Seq});
    port.post({ type: 'ready', index });
    loop();
  } else if (m.type === 'attach') {
    const instance = new WebAssembly.Instance(module, { env: { memory: m.memory } });
    instances.set(m.id, instance.exports);
  } else if (m.type === 'detach') {
    instances.delete(m.id);
  }
});
`;
}
