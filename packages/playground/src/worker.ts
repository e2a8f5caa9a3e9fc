/**
 * The page's Web Worker: it holds the model session and does everything that takes time (loading,
 * checking, layout, planning, running), so the page stays responsive.
 */
import { errorOf } from './engine/check.js';
import { kernelAvailability } from './engine/kernels.js';
import { BUILT_IN_MODELS, builtInModel } from '@micrort/app-kit';
import { PLANNER_NAMES } from '@micrort/planners';
import { PlaygroundSession } from './engine/session.js';
import type { Method, Methods, Request, Response } from './protocol.js';

const session = new PlaygroundSession();
const scope = self as unknown as { postMessage(m: Response): void; onmessage: ((e: MessageEvent<Request>) => void) | null };

type Handler<M extends Method> = (
  args: Methods[M]['args'],
  progress: (label: string, done: number, total: number) => void,
) => Methods[M]['result'] | Promise<Methods[M]['result']>;

const handlers: { [M in Method]: Handler<M> } = {
  setup: async () => ({
    kernels: await kernelAvailability(),
    planners: [...PLANNER_NAMES],
    models: BUILT_IN_MODELS.map((m) => ({ name: m.name, label: `${m.label} (${m.ops})` })),
  }),
  open: ({ bytes, name }) => session.open(bytes, name),
  openBuiltIn: ({ name }) => {
    const m = builtInModel(name);
    if (!m) throw new RangeError(`no built-in model "${name}" (built-ins: ${BUILT_IN_MODELS.map((x) => x.name).join(', ')})`);
    return session.open(m.build(), name);
  },
  check: ({ kernel }) => session.check(kernel),
  graph: () => session.graph(),
  plans: ({ kernel }, progress) => session.plans(kernel, progress),
  run: (args, progress) => session.run(args, progress),
  compare: ({ input, kernels }, progress) => session.compare(input, kernels ? { kernels } : {}, progress),
};

scope.onmessage = async (e) => {
  const { id, method, args } = e.data;
  const progress = (label: string, done: number, total: number) => scope.postMessage({ id, type: 'progress', label, done, total });
  try {
    const handler = handlers[method] as Handler<Method>;
    if (!handler) throw new RangeError(`unknown method ${String(method)}`);
    const value = await handler(args as never, progress);
    scope.postMessage({ id, type: 'result', value });
  } catch (err) {
    scope.postMessage({ id, type: 'error', error: errorOf(err) });
  }
};
