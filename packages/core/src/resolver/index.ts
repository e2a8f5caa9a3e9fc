export * from './op-resolver.js';
