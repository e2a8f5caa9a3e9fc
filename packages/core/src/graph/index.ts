export { MicroInterpreterGraph, Subgraph, type NodeFailure, type NodeResolution } from './micro-graph.js';
export {
  markModelLifetimes,
  type LifetimeStep,
  type LifetimeSubgraph,
  type ModelLifetimes,
  type SubgraphLifetimes,
} from './allocation-info.js';
export { invokedSubgraphs } from './control-flow.js';
export {
  MicroResourceVariables,
  DEFAULT_RESOURCE_VARIABLE_SLOTS,
  RESOURCE_VARIABLES_HEADER_BYTES,
  RESOURCE_VARIABLE_SLOT_BYTES,
} from './resource-variables.js';
