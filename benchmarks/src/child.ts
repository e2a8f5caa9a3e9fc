/** Runs one model in its own process ({@link ./bench-model.ts}) and collects its results. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ModelResult, RuntimeResult } from './harness.js';
import type { BenchModel } from './models.js';
import type { RuntimeAdapter } from './runtime.js';
import { runtimeKey } from './runtimes/index.js';
import type { TimingOptions } from './timing.js';

const SCRIPT = fileURLToPath(new URL('./bench-model.js', import.meta.url));

/** Options of {@link benchInChild}. */
export interface ChildOptions {
  timing?: Partial<TimingOptions>;
  /** Kill the process after this long (default 20 min). */
  timeoutMs?: number;
  onStart?: (runtime: string) => void;
  onResult?: (r: RuntimeResult) => void;
  /** Node flags for the process (a runtime group's, e.g. --experimental-wasm-relaxed-simd). */
  nodeFlags?: readonly string[];
  /** Report each runtime's first outputs (base64), for comparisons across processes. */
  keepOutputs?: boolean;
  /** Time the process's runtimes interleaved (default true; see harness.ts's `BenchOptions.interleave`). */
  interleave?: boolean;
}

/**
 * Benches `model` on `runtimes` in a new Node process. A runtime that was running when the process died
 * (a crash in a peer's WASM, a timeout) is reported as refused with the exit status and the last line
 * the process wrote on stderr; the runtimes that lost their results with it (the process times them
 * together at the end) are benched again in a new process without it.
 */
export async function benchInChild(
  model: BenchModel,
  runtimes: readonly RuntimeAdapter[],
  options: ChildOptions = {},
  retries = 2,
): Promise<ModelResult> {
  const result = await runChild(model, runtimes, options);
  const lost = runtimes.filter((rt) => result.runtimes.find((r) => r.runtime === rt.id)?.error?.startsWith(LOST));
  if (lost.length === 0 || lost.length === runtimes.length || retries === 0) return result;
  const again = await benchInChild(model, lost, options, retries - 1);
  result.runtimes = result.runtimes.map((r) => again.runtimes.find((a) => a.runtime === r.runtime) ?? r);
  result.reference = result.runtimes.find((r) => r.status === 'ok')?.runtime ?? null;
  result.inputSource ||= again.inputSource;
  return result;
}

/** The start of the error of a runtime whose result the process took with it. */
const LOST = 'not reported: the process ended';

function runChild(model: BenchModel, runtimes: readonly RuntimeAdapter[], options: ChildOptions): Promise<ModelResult> {
  return new Promise((resolve) => {
    const args = [
      ...(options.nodeFlags ?? []),
      SCRIPT,
      '--model',
      model.kind === 'file' ? model.description : model.name, // a .tflite file: its path
      '--runtimes',
      runtimes.map((r) => runtimeKey(r.id)).join(','),
      '--timing',
      JSON.stringify(options.timing ?? {}),
      ...(options.keepOutputs ? ['--keep-outputs'] : []),
      ...(options.interleave === false ? ['--sequential'] : []),
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const result: ModelResult = {
      model: model.name,
      kind: model.kind,
      description: model.description,
      inputSource: '',
      reference: null,
      runtimes: [],
    };
    let current: string | null = null;
    let fatal: string | null = null;
    let stderrTail = '';
    child.stderr.on('data', (d: Buffer) => {
      stderrTail = (stderrTail + d.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20 * 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const sp = line.indexOf(' ');
      const tag = line.slice(0, sp);
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(line.slice(sp + 1)) as Record<string, unknown>;
      } catch {
        return; // a peer's own console output
      }
      if (tag === 'MODEL') result.inputSource = String(data['inputSource']);
      else if (tag === 'START') {
        current = String(data['runtime']);
        options.onStart?.(current);
      } else if (tag === 'RESULT') {
        const r = data as unknown as RuntimeResult;
        result.runtimes.push(r);
        if (!result.reference && r.status === 'ok') result.reference = r.runtime;
        current = null;
        options.onResult?.(r);
      } else if (tag === 'FATAL') fatal = String(data['error']);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const lastErr = stderrTail.trim().split('\n').pop() ?? '';
      for (const rt of runtimes) {
        if (result.runtimes.some((r) => r.runtime === rt.id)) continue;
        const why =
          fatal ??
          (rt.id === current
            ? `the process ended (${signal ?? `exit code ${code}`}) while running it${lastErr ? `: ${lastErr.slice(0, 200)}` : ''}`
            : `${LOST} (${signal ?? `exit code ${code}`}) while ${current ?? 'no runtime'} ran`);
        result.runtimes.push({ runtime: rt.id, description: rt.description, status: 'refused', error: why });
      }
      const order = runtimes.map((r) => r.id);
      result.runtimes.sort((a, b) => order.indexOf(a.runtime) - order.indexOf(b.runtime));
      resolve(result);
    });
  });
}
