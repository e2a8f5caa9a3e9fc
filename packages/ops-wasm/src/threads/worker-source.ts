/**
 * The source of an ops-wasm worker, as a string: Node runs it with `new Worker(source, { eval: true })`,
 * a browser from a Blob URL, so no file has to be found next to the bundle. It receives the compiled
 * module and the control block once, then one shared memory per interpreter (`attach`), instantiates the
 * module over each, and runs the chunks of the jobs the main thread publishes (control.ts): it spins
 * briefly for the next job, then sleeps with Atomics.waitAsync (its event loop stays free for `attach`
 * messages), or, where waitAsync is missing, with short Atomics.wait slices between event-loop turns.
 */
import { C, Fn, NO_CHUNK } from './control.js';

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
function chunk(x, fn, k, chunks) {
  const total = Atomics.load(ctrl, ${C.Total}), align = Atomics.load(ctrl, ${C.Align});
  const a0 = Atomics.load(ctrl, ${C.Args}), a1 = Atomics.load(ctrl, ${C.Args + 1});
  const a2 = Atomics.load(ctrl, ${C.Args + 2}), a3 = Atomics.load(ctrl, ${C.Args + 3});
  const [e0, e1] = range(k, chunks, total, align);
  if (e0 >= e1) return;
  switch (fn) {
    case ${Fn.Conv}: x.qs8_conv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Dwconv}: x.qs8_dwconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Add}: x.qs8_add_range(a0, a1, a2, a3, e0, e1); break;
    case ${Fn.F32Conv}: x.f32_conv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.F32Dwconv}: x.f32_dwconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.HybridEpilogue}: x.hybrid_epilogue(a0, a1, e0, e1); break;
    case ${Fn.F32Tconv}: x.f32_tconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Bmm8}: x.qs8_bmm_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Bmm16}: x.qs16_bmm_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Tconv8}: x.qs8_tconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Tconv16}: x.qs16_tconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Conv16}: x.qs16_conv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.Dwconv16}: x.qs16_dwconv_run(a0, a1, a2, e0, e1, index); break;
    case ${Fn.TestThrow}: throw new Error('test: a chunk threw in worker ' + index);
    case ${Fn.TestDie}: port.die(); for (;;) {}
    default: throw new Error('unknown job function ' + fn);
  }
}
// The job whose tag Next carries now: its parameters were stored before Next took the tag. Chunks are
// claimed by compareExchange on a value with that tag, so a claim never lands in a later job (whose
// parameters may differ from the ones read here); the job cannot change while a claimed chunk runs.
function work() {
  const tag = Atomics.load(ctrl, ${C.Next}) >>> 16;
  const fn = Atomics.load(ctrl, ${C.Fn});
  const chunks = Atomics.load(ctrl, ${C.Chunks});
  const x = instances.get(Atomics.load(ctrl, ${C.Instance}));
  if (!x && fn < ${Fn.TestThrow}) return; // not attached yet: the others take the chunks
  for (;;) {
    const v = Atomics.load(ctrl, ${C.Next});
    const k = v & ${NO_CHUNK};
    if (v >>> 16 !== tag || k >= chunks) return;
    if (Atomics.compareExchange(ctrl, ${C.Next}, v, v + 1) !== v) continue;
    Atomics.store(ctrl, ${C.Busy} + index, 1);
    try {
      chunk(x, fn, k, chunks);
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
