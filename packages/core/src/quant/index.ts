export * from './fixed-point.js';
export * from './quantize-multiplier.js';
