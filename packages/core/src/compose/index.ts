export * from './kernel-package.js';
export * from './compose-runtime.js';
