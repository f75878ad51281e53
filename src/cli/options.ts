import { InvalidArgumentError } from 'commander';
import type { MissingBaseline } from '../gate/not-compared.js';
import type { Shard } from '../runner/work-items.js';

/** Parsers of option values shared by the commands. */

/** --shard i/n */
export function shardOption(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new InvalidArgumentError(`expected i/n with 1 <= i <= n, got "${text}"`);
  return { index, count };
}

/** An option that may be given several times. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function integerOption(minimum: number, maximum: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < minimum || value > maximum) {
      throw new InvalidArgumentError(`expected an integer from ${minimum} to ${maximum}, got "${text}"`);
    }
    return value;
  };
}

/** A share: a fraction from 0 to 1 ("0.1") or a percentage ("10%"); returns the fraction. */
export function shareOption(text: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(text.trim());
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new InvalidArgumentError(`expected a fraction from 0 to 1 or a percentage such as 10%, got "${text}"`);
  }
  return value;
}

/** --missing-baseline: what a regression budget ends as without a baseline. */
export function missingBaselineOption(text: string): MissingBaseline {
  if (text !== 'skip' && text !== 'inconclusive') throw new InvalidArgumentError(`expected skip or inconclusive, got "${text}"`);
  return text;
}
