import type { Node, Registration } from '../kernel/api.js';
import type { Delegate } from '../delegate/delegate.js';
import type { DeclinedProvider } from '../interpreter/check-report.js';

/** A node of a subgraph (TfLiteNode): a model operator or a delegate node. */
export class NodeImpl implements Node {
  userData: unknown = undefined;
  delegate?: unknown;
  readonly temporaries = new Int32Array(0);
  constructor(
    readonly index: number,
    readonly inputs: Int32Array,
    readonly outputs: Int32Array,
    readonly intermediates: Int32Array,
    readonly builtinData: Node['builtinData'],
    readonly customInitialData: Uint8Array | null,
  ) {}
}

/** Buffer-handle hooks of a delegate node (only when its delegate defines any). */
export interface DelegateSync {
  delegate: Delegate;
  /** Non-constant inputs: `copyToBufferHandle` before the node runs. */
  toHandles: Int32Array;
  /** Outputs: `copyFromBufferHandle` after the node runs. */
  fromHandles: Int32Array;
}

/** A node with its registration and what inspection and planning need to know about it. */
export interface PlanEntry {
  node: NodeImpl;
  /** The registration serving the node; null while unresolved (or when no provider takes it). */
  registration: Registration | null;
  op: string;
  version: number;
  /** Providers asked before the chosen one that declined the node. */
  declinedBy: string[];
  /** The same, with each kernel and its reason (set when the node is resolved). */
  declined?: DeclinedProvider[];
  /** Whether `init` ran (so `free` must run). */
  initialized: boolean;
  /**
   * Evaluated during prepare (its inputs are constants or shapes, interpreter/folding.ts): its outputs
   * are constants, it reads and writes nothing on the timeline and does not run at invoke.
   */
  folded?: boolean;
  /**
   * Set when a later node's kernel absorbed this PAD (`context.absorbPad`, interpreter/pad-absorption.ts):
   * that node's index. Like a folded node, it reads and writes nothing on the timeline and does not run.
   */
  absorbedInto?: number;
  /**
   * Subgraphs this node's kernel may invoke (IF: then, else; WHILE: cond, body; CALL_ONCE: init), in
   * the order TFLM plans them. Empty for other nodes.
   */
  invokes: Int32Array;
  delegate?: { name: string; nodes: number[] };
  /** Delegate nodes: tensors internal to the subset. */
  internalTensors?: number[];
  /** Delegate nodes: whether internal tensors are planned in the arena (the delegate asked). */
  keepInternal?: boolean;
  /** Delegate nodes whose delegate has buffer-handle hooks. */
  sync?: DelegateSync | null;
}

/**
 * Whether `entry` runs at invoke: not folded during prepare and not absorbed into a later node. An entry
 * that does not run also reads and writes nothing on the planning timeline.
 */
export function runsAtInvoke(entry: PlanEntry): boolean {
  return !entry.folded && entry.absorbedInto === undefined;
}
