import { InputError } from '../errors.js';
import { describeKey, instanceKey } from '../records/key.js';
import type { Provenance } from '../records/provenance.js';
import { GrowableColumn, int32 } from './columns.js';

/*
 * What each instance of a table answered (records' `provenance`), kept compactly: one interned number
 * per instance and hash (-1: not given), the hashes' texts once each. A table whose records carry no
 * provenance has none of this (one property read a record). Two runs' records of an instance are
 * paired only when every hash both give is the same (docs/record-format.md#provenance).
 */

const NONE = -1;

/** Per instance, its input and references hashes as numbers into `hashes`; the suites' hashes the records name. */
export interface InstanceProvenance {
  hashes: string[];
  inputOf: Int32Array;
  referencesOf: Int32Array;
  /** The distinct `suite_hash`es, in order of first appearance. */
  suites: string[];
  /** Per other table's provenance: this table's instances whose hashes differ from that table's (kept: a gate asks several times). */
  changedAgainst: WeakMap<InstanceProvenance, Int32Array>;
}

/** Collects the records' provenance instance by instance, as the table builder adds them. */
export class ProvenanceBuilder {
  private readonly numbers = new Map<string, number>();
  private readonly hashes: string[] = [];
  private readonly inputOf = new GrowableColumn(int32, NONE);
  private readonly referencesOf = new GrowableColumn(int32, NONE);
  private readonly suites: string[] = [];

  /** `name` stands for the file in errors. */
  constructor(private readonly name: string) {}

  /** Keeps a record's provenance for its instance; a record of the instance that said otherwise is an error at `line`. */
  add(instance: number, provenance: Provenance, line: number, scenario: string, id: string): void {
    const mismatch = (field: string) =>
      new InputError(
        this.name,
        line,
        `"provenance.${field}" differs from an earlier record of ${describeKey(instanceKey(scenario, id))}: every record of an instance carries its instance's provenance`,
      );
    if (!this.keep(this.inputOf, instance, provenance.input_hash)) throw mismatch('input_hash');
    if (!this.keep(this.referencesOf, instance, provenance.references_hash)) throw mismatch('references_hash');
    const suite = provenance.suite_hash;
    if (typeof suite === 'string' && suite !== this.suites.at(-1) && !this.suites.includes(suite)) this.suites.push(suite);
  }

  /** Sets the instance's hash in `column` (or checks it against the one set); false when it differs. */
  private keep(column: GrowableColumn<Int32Array>, instance: number, hash: string | null | undefined): boolean {
    if (typeof hash !== 'string') return true;
    let number = this.numbers.get(hash);
    if (number === undefined) {
      number = this.hashes.push(hash) - 1;
      this.numbers.set(hash, number);
    }
    const known = column.get(instance);
    if (known === NONE) column.set(instance, number);
    return known === NONE || known === number;
  }

  build(instanceCount: number): InstanceProvenance {
    return {
      hashes: this.hashes,
      inputOf: this.inputOf.trimmed(instanceCount),
      referencesOf: this.referencesOf.trimmed(instanceCount),
      suites: this.suites,
      changedAgainst: new WeakMap(),
    };
  }
}

/** Each of `from`'s hash numbers as `to`'s number of the same text (-1: `to` has no such hash). */
function translated(from: InstanceProvenance, to: InstanceProvenance): Int32Array {
  const numberIn = new Map(to.hashes.map((hash, number) => [hash, number]));
  return Int32Array.from(from.hashes, (hash) => numberIn.get(hash) ?? NONE);
}

/**
 * The candidate's instances paired by id whose hashes differ from the baseline's, where both give one;
 * `idMatch` gives each candidate instance's number in the baseline (-1: none), asked for on the first call only.
 */
export function changedInstances(candidate: InstanceProvenance, baseline: InstanceProvenance, idMatch: () => Int32Array): Int32Array {
  let changed = candidate.changedAgainst.get(baseline);
  if (changed) return changed;
  const match = idMatch();
  const inBaseline = translated(candidate, baseline);
  const differs = (mine: number, theirs: number) => mine !== NONE && theirs !== NONE && inBaseline[mine] !== theirs;
  const found: number[] = [];
  for (let instance = 0; instance < match.length; instance++) {
    const other = match[instance];
    if (other < 0) continue;
    const input = differs(candidate.inputOf[instance], baseline.inputOf[other]);
    if (input || differs(candidate.referencesOf[instance], baseline.referencesOf[other])) found.push(instance);
  }
  candidate.changedAgainst.set(baseline, (changed = Int32Array.from(found)));
  return changed;
}

/** Whether an instance was verified: both runs give both hashes (then they are the same, or it is changed). */
export function verified(candidate: InstanceProvenance, baseline: InstanceProvenance, instance: number, other: number): boolean {
  return (
    candidate.inputOf[instance] !== NONE &&
    candidate.referencesOf[instance] !== NONE &&
    baseline.inputOf[other] !== NONE &&
    baseline.referencesOf[other] !== NONE
  );
}
