/* Numbers with their units live beside the metric registry (metrics/units.ts): the gate's reasons use them too. */
export * from '../metrics/units.js';
