import type { CheckReport, NodeCheck } from './interpreter/check-report.js';
import { nodeLabel, summarizeFailures } from './interpreter/check-report.js';

/**
 * Typed errors. Every error micrort throws on bad input is a `MicrortError`; each subclass carries the
 * numbers and names a user needs to act (indices, sizes, phases), both in its message and as fields.
 */
export class MicrortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Where in the model file a problem was found. */
export interface ModelErrorLocation {
  /** FlatBuffers table (e.g. `Tensor`, `Operator`, `SubGraph`). */
  table?: string;
  /** Field of that table (e.g. `buffer`, `inputs`). */
  field?: string;
  /** Index of the table instance in its vector, or of the element in a vector field. */
  index?: number;
  /** Byte offset in the file, when known. */
  offset?: number;
  /** Path such as `subgraphs[0].tensors[12]`. */
  path?: string;
}

/** A malformed or unsupported model file. Thrown by the verifier and loader, never a crash. */
export class ModelError extends MicrortError {
  readonly location: ModelErrorLocation;
  constructor(message: string, location: ModelErrorLocation = {}) {
    const where = [
      location.path,
      location.table && `table ${location.table}`,
      location.field && `field ${location.field}`,
      location.index !== undefined ? `index ${location.index}` : undefined,
      location.offset !== undefined ? `byte offset ${location.offset}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    super(where ? `${message} (${where})` : message);
    this.location = location;
  }
}

/** The arena cannot hold what the model needs. */
export class ArenaTooSmallError extends MicrortError {
  constructor(
    /** What was being allocated (e.g. `persistent buffer for node 3 (CONV_2D)`, `planned head`). */
    readonly what: string,
    readonly requestedBytes: number,
    readonly availableBytes: number,
    readonly arenaBytes: number,
    /** The arena size that would fit the whole model, when it could be determined (else undefined). */
    readonly requiredArenaBytes?: number,
  ) {
    const missing = requestedBytes - availableBytes;
    super(
      `arena too small: ${what} requested ${requestedBytes} bytes, ${availableBytes} available, ${missing} missing` +
        ` (arena is ${arenaBytes} bytes` +
        (requiredArenaBytes !== undefined ? `; an arena of ${requiredArenaBytes} bytes would fit this model, or use arena: 'auto')` : ')'),
    );
  }
  get missingBytes(): number {
    return this.requestedBytes - this.availableBytes;
  }
}

/** A context callback was called in a phase where it is not allowed. */
export class PhaseError extends MicrortError {
  constructor(
    readonly callback: string,
    readonly phase: string,
    readonly allowedPhases: readonly string[],
    hint = '',
  ) {
    super(`${callback}() is not allowed in phase ${phase}; allowed in: ${allowedPhases.join(', ')}${hint ? `. ${hint}` : ''}`);
  }
}

/**
 * A kernel refused a node (unsupported type/shape/options) or failed. Kernels throw it with the node's
 * op and index; the framework adds the subgraph (nodes of subgraphs other than 0) and, when
 * `allocateTensors()` found several nodes that cannot run, the full `report` (see `checkModel`).
 */
export class KernelError extends MicrortError {
  /** Every node's outcome, when this error comes from allocateTensors() (see `checkModel`). */
  report?: CheckReport;
  constructor(
    readonly op: string,
    readonly nodeIndex: number,
    readonly detail: string,
    /** Subgraph of the node (0 unless the framework says otherwise). */
    readonly subgraph: number = 0,
  ) {
    super(`${op} (${nodeLabel(subgraph, nodeIndex)}): ${detail}`);
  }
}

/**
 * A kernel asked for a shape the framework cannot give a tensor (`context.resizeTensor`,
 * `declareShapeBound`, `setActualShape`): a constant or variable whose shape would change, a tensor that
 * is not the node's output, dims that are not non-negative integers, a data-dependent shape over its
 * bound — or, with `shapes: 'file'`, a computed shape that differs from the file's. Names the tensor
 * and both shapes.
 */
export class TensorResizeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    /** The tensor's index in its subgraph. */
    readonly tensor: number,
    /** Its dims before the call. */
    readonly dims: readonly number[],
    /** The dims asked for. */
    readonly requested: readonly number[],
    detail: string,
    subgraph = 0,
  ) {
    super(op, nodeIndex, detail, subgraph);
  }
}

/**
 * A control-flow kernel's `resizeSubgraphInput` that cannot hold: the called subgraph `calledSubgraph`
 * is planned once per allocation, so all its callers must agree on each input's shape. Thrown when
 * another caller (or call site) already asked for other dims for input `input` (tensor `tensor`), or
 * when the subgraph prepared before this caller (it precedes the caller in the model, or an earlier
 * caller prepared it) at other dims. Names the subgraph, the tensor and both shapes.
 */
export class SubgraphShapeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    /** The subgraph whose input was to be resized. */
    readonly calledSubgraph: number,
    /** Position among its inputs. */
    readonly input: number,
    /** The tensor's index in the called subgraph. */
    readonly tensor: number,
    /** The dims it already has (or another caller asked for). */
    readonly dims: readonly number[],
    /** The dims this caller asked for. */
    readonly requested: readonly number[],
    detail: string,
    subgraph = 0,
  ) {
    super(op, nodeIndex, detail, subgraph);
  }
}

/**
 * A node reads a tensor whose shape depends on data (its producer declared an upper bound) and its
 * kernel does not read input shapes at invoke (`Registration.dynamicInputShapes`). Names the tensor and
 * its bound.
 */
export class DataDependentShapeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    readonly tensor: number,
    readonly upperBound: readonly number[],
    detail: string,
    subgraph = 0,
  ) {
    super(op, nodeIndex, detail, subgraph);
  }
}

/**
 * Some nodes of the model have no provider that takes them. Its message is one line (counts per op,
 * the first node and why); `report` lists every node's outcome — missing ops, providers' decline
 * reasons and prepare errors — as `checkModel()` does. `op`, `version` and `nodeIndex` name the first
 * node that cannot run.
 */
export class UnsupportedOpError extends MicrortError {
  /** Every node's outcome (see `checkModel`), when known. */
  report?: CheckReport;
  constructor(
    readonly op: string,
    readonly version: number,
    readonly nodeIndex: number,
    detail = '',
    report?: CheckReport,
    /** Subgraph of the first node that cannot run. */
    readonly subgraph: number = 0,
  ) {
    super(
      report
        ? `unsupported model: ${summarizeFailures(report)}`
        : `no kernel registered for ${op} version ${version} (${nodeLabel(subgraph, nodeIndex)})${detail ? `: ${detail}` : ''}`,
    );
    if (report) this.report = report;
  }

  /** The nodes that cannot run (empty when the error carries no report). */
  get failures(): NodeCheck[] {
    return this.report?.nodes.filter((n) => n.status !== 'ok') ?? [];
  }
}

/** Misuse of the op-resolver registry (duplicate registration without override, bad key). */
export class ResolverError extends MicrortError {}

/** The interpreter was used out of order (invoke before allocateTensors, use after dispose, ...). */
export class InterpreterStateError extends MicrortError {}

/** Bad runtime input: wrong byte length, wrong dtype, index out of range. */
export class InputError extends MicrortError {}

/** A memory planner could not produce a valid plan (overlapping offline offsets, ...). */
export class PlannerError extends MicrortError {}

/** A delegate misbehaved or partitioning failed. */
export class DelegateError extends MicrortError {}

/**
 * The model needs more arena than the interpreter's `maxArenaBytes` allows (an oversized or hostile model,
 * e.g. one whose shapes claim a 2 GB tensor). Thrown before the memory is allocated.
 */
export class ArenaLimitError extends MicrortError {
  constructor(
    /** What was being allocated (e.g. `variable tensor 3 (state)`, `planned head`). */
    readonly what: string,
    readonly requestedBytes: number,
    /** The arena size the model would need with this allocation (at least). */
    readonly requiredBytes: number,
    readonly limitBytes: number,
  ) {
    super(
      `arena limit exceeded: ${what} requested ${requestedBytes} bytes, bringing the arena to at least ${requiredBytes} bytes,` +
        ` over the limit of ${limitBytes} bytes (raise the interpreter option maxArenaBytes to allow it)`,
    );
  }
}

/** Serialized strings do not fit the bytes planned for their STRING tensor (see kernel/strings.ts). */
export class StringCapacityError extends MicrortError {
  constructor(
    /** The tensor (or what is written). */
    readonly what: string,
    readonly requiredBytes: number,
    readonly capacityBytes: number,
  ) {
    super(`${what}: the strings need ${requiredBytes} bytes, ${capacityBytes} were planned`);
  }
}

/**
 * A STRING tensor the model computes has no size bound: its producer could not bound it in prepare
 * (nothing allocates in invoke, so every string tensor is planned at an upper bound). Names the tensor.
 */
export class UnboundedStringError extends MicrortError {
  constructor(
    readonly tensorIndex: number,
    readonly tensorName: string,
    readonly subgraph: number,
  ) {
    super(
      `string tensor ${tensorIndex} (${tensorName || 'unnamed'}${subgraph ? `, subgraph ${subgraph}` : ''}) has no size bound: ` +
        'the kernel that produces it set none in prepare, and its contents are only known at invoke',
    );
  }
}
