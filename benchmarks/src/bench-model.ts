/**
 * The per-model process: `node bench-model.js --model NAME [--runtimes k1,k2] [--timing JSON]
 * [--keep-outputs] [--sequential]` benches one model on the runtimes and prints one line per event on
 * stdout, `TAG {json}`: `MODEL` (input source), `START` (a runtime begins), `RESULT` (a runtime's result,
 * as soon as known: a refusal at once, timings after the interleaved timing). The parent
 * ({@link ./child.ts}) reads them; a runtime that crashes the process loses only itself (the parent
 * benches the others again without it).
 */
import { parseArgs } from 'node:util';
import { benchModel } from './harness.js';
import { findModel } from './models.js';
import { selectRuntimes } from './runtimes/index.js';
import type { TimingOptions } from './timing.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    runtimes: { type: 'string', default: '' },
    timing: { type: 'string', default: '{}' },
    'keep-outputs': { type: 'boolean', default: false },
    sequential: { type: 'boolean', default: false },
  },
});
const emit = (tag: string, data: unknown) => process.stdout.write(`${tag} ${JSON.stringify(data)}\n`);
try {
  if (!values.model) throw new Error('--model NAME is required');
  const model = findModel(values.model);
  const runtimes = selectRuntimes(values.runtimes.split(',').filter(Boolean));
  await benchModel(model, runtimes, {
    timing: JSON.parse(values.timing) as Partial<TimingOptions>,
    keepOutputs: values['keep-outputs'],
    interleave: !values.sequential,
    onLoaded: (meta) => emit('MODEL', { model: model.name, kind: model.kind, description: model.description, ...meta }),
    onStart: (runtime) => emit('START', { runtime }),
    onResult: (r) => emit('RESULT', r),
  });
} catch (e) {
  emit('FATAL', { error: String((e as Error)?.message ?? e) });
}
// Peers may leave handles (WASM threads, timers) open: the process ends here.
process.exit(0);
