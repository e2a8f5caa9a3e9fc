export * from './tokens.js';
export * from './compose.js';
