export * from './model-def.js';
