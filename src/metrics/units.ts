import { lookupMetric } from './registry.js';

/*
 * Numbers with their units, as every report shows them: a metric in [0, 1] (accuracy, ece, error_rate,
 * ...) as a percentage and its changes in points, latencies in ms, cost in $, tokens as tokens. A metric
 * evalgate does not know (imported from another tool) has no known unit: its numbers are plain.
 */

export type Unit = 'percent' | 'ms' | 'usd' | 'tokens' | 'plain';

/** The unit a metric's values are shown in. */
export function unitOf(metric: string): Unit {
  const definition = lookupMetric(metric);
  if (!definition) return 'plain';
  if (definition.name.endsWith('_ms')) return 'ms';
  if (definition.name.startsWith('cost_usd')) return 'usd';
  if (definition.name.startsWith('output_tokens')) return 'tokens';
  return definition.range[1] === 1 ? 'percent' : 'plain';
}

/** Below this a value is floating-point residue of a sum that is 0. */
const RESIDUE = 1e-12;

/** Three (or `significant`) significant digits, at least the units (1007, not 1.01e3), no trailing zeros, no exponent. */
function digits(value: number, significant = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude < RESIDUE) return '0';
  const whole = magnitude >= 10 ** significant;
  const text = whole ? value.toFixed(0) : magnitude >= 1e-4 ? value.toPrecision(significant) : value.toExponential(1);
  return text.includes('.') && !text.includes('e') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** "+3.1" / "-3.1" / "0": a change's sign always shown. */
function signed(value: number): string {
  const text = digits(value);
  return Math.abs(value) >= RESIDUE && value > 0 ? `+${text}` : text;
}

/**
 * A value in its unit: "80.5%", "489 ms", "$1.23", "12.5 tokens", "0.805"; to `significant` digits
 * (3: a limit the policy states is shown with 10, so that 0.7500001 is not "75%").
 */
export function valueText(metric: string, value: number, significant = 3): string {
  switch (unitOf(metric)) {
    case 'percent':
      return `${digits(value * 100, significant)}%`;
    case 'ms':
      return `${digits(value, significant)} ms`;
    case 'usd':
      return value < 0 ? `-$${digits(-value, significant)}` : `$${digits(value, significant)}`;
    case 'tokens':
      return `${digits(value, significant)} tokens`;
    default:
      return digits(value, significant);
  }
}

/** The unit of a difference: points for a percentage. */
function differenceUnit(metric: string, value: number): string {
  switch (unitOf(metric)) {
    case 'percent':
      return digits(Math.abs(value) * 100) === '1' ? ' pt' : ' pts'; // as the number is shown: 0.0100000001 is "1 pt"
    case 'ms':
      return ' ms';
    case 'tokens':
      return ' tokens';
    default:
      return '';
  }
}

/** The scale a difference is shown on: points for a percentage, else the metric's own. */
const scaled = (metric: string, value: number) => (unitOf(metric) === 'percent' ? value * 100 : value);

/** A difference, signed, in its unit: "+8.11 pts", "-182 ms", "+$0.12". */
export function changeText(metric: string, value: number): string {
  const number = signed(scaled(metric, value));
  if (unitOf(metric) === 'usd') return number.replace(/^([+-]?)/, '$1$$');
  return `${number}${differenceUnit(metric, value)}`;
}

/** An amount of worsening (a budget, a detectable change), unsigned, in its unit: "2 pts", "336 ms", "$0.50". */
export function amountText(metric: string, value: number): string {
  if (unitOf(metric) === 'usd') return `$${digits(Math.abs(value))}`;
  return `${digits(Math.abs(scaled(metric, value)))}${differenceUnit(metric, value)}`;
}

/** A change's 95% interval, signed, in its unit: "[+3.05, +11.3] pts" (without the unit after a change that says it). */
export function changeIntervalText(metric: string, [low, high]: readonly [number, number], withUnit = true): string {
  if (unitOf(metric) === 'usd') return `[${changeText(metric, low)}, ${changeText(metric, high)}]`;
  return `[${signed(scaled(metric, low))}, ${signed(scaled(metric, high))}]${withUnit ? differenceUnit(metric, 2) : ''}`;
}

/** A value's 95% interval in its unit's scale: "[77.3, 83.7]" for a percentage (the value beside it says %). */
export function valueIntervalText(metric: string, [low, high]: readonly [number, number]): string {
  return `[${digits(scaled(metric, low))}, ${digits(scaled(metric, high))}]`;
}
