export * from './kernel-harness.js';
