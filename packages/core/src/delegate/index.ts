export * from './delegate.js';
export * from './partition.js';
