// The child process of tflite-oracle-isolated.ts: runs model files through TFLite's C library (the
// tfjs-tflite-node addon) one after another and writes one JSON line per case to stdout, synchronously,
// so that the parent knows how far it got when TFLite crashes the process.
//
//   node tflite-oracle-child.mjs <addon.node> <cases.json> <first index>
// cases.json: [{ "model": "<file>", "inputs": ["<file>", …] }, …]
// Line per case: {"i":n,"ok":true,"outputs":[{"dtype","shape","bytes"}…]} or {"i":n,"ok":false,"error":"…"}.
import { readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';

const [addonFile, casesFile, firstArg] = process.argv.slice(2);
const addon = createRequire(import.meta.url)(addonFile);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const bytesOf = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const line = (o) => writeSync(1, JSON.stringify(o) + '\n');

for (let i = Number(firstArg); i < cases.length; i++) {
  const c = cases[i];
  line({ i, start: true });
  try {
    const model = readFileSync(c.model);
    const interp = new addon.Interpreter(model.buffer.slice(model.byteOffset, model.byteOffset + model.byteLength), { threads: 1 });
    const ins = interp.getInputs();
    if (ins.length !== c.inputs.length) throw new Error(`the model has ${ins.length} inputs, the case gives ${c.inputs.length}`);
    ins.forEach((t, k) => {
      const dst = bytesOf(t.data());
      const src = readFileSync(c.inputs[k]);
      if (src.byteLength !== dst.byteLength)
        throw new Error(`input ${k} (${t.dataType} [${t.shape}]) takes ${dst.byteLength} bytes, got ${src.byteLength}`);
      dst.set(src);
    });
    if (!interp.infer()) throw new Error('infer() returned false');
    const outputs = interp
      .getOutputs()
      .map((t) => ({ dtype: t.dataType, shape: t.shape, bytes: Buffer.from(bytesOf(t.data())).toString('base64') }));
    line({ i, ok: true, outputs });
  } catch (e) {
    line({ i, ok: false, error: String(e && e.message ? e.message : e) });
  }
}
