import { InputError } from '../errors.js';
import { describeKey, instanceKey } from '../records/key.js';
import type { Provenance } from '../records/provenance.js';
import { GrowableColumn, int32 } from './columns.js';

/*
 * What each instance of a table answered (records' `provenance`), kept compactly: per instance and
 * hash, its first 64 bits as two 32-bit numbers and whether it was given (no string outlives its
 * record, no lookup a record). A table whose records carry no provenance has none of this (one property
 * read a record). Two runs' records of an instance are paired only when every hash both give is the
 * same (docs/record-format.md#provenance). 64 bits: two different questions agree by chance with
 * probability 2^-64, and making one agree on purpose takes about 2^64 hashes.
 */

const INPUT = 1;
const REFERENCES = 2;

/** Per instance: which hashes it has (INPUT | REFERENCES), and each one's first 64 bits; the suites' hashes the records name. */
export interface InstanceProvenance {
  given: Uint8Array;
  input: Int32Array;
  references: Int32Array;
  /** The distinct `suite_hash`es, in order of first appearance. */
  suites: string[];
  /** Per other table's provenance: this table's instances whose hashes differ from that table's (kept: a gate asks several times). */
  changedAgainst: WeakMap<InstanceProvenance, Int32Array>;
}

const uint8 = (size: number) => new Uint8Array(size);

/** Collects the records' provenance instance by instance, as the table builder adds them. */
export class ProvenanceBuilder {
  private readonly given = new GrowableColumn(uint8, 0);
  /** Two entries an instance: the hash's first and second 32 bits. */
  private readonly input = new GrowableColumn(int32, 0);
  private readonly references = new GrowableColumn(int32, 0);
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
    if (!this.keep(this.input, INPUT, instance, provenance.input_hash)) throw mismatch('input_hash');
    if (!this.keep(this.references, REFERENCES, instance, provenance.references_hash)) throw mismatch('references_hash');
    const suite = provenance.suite_hash;
    if (typeof suite === 'string' && suite !== this.suites.at(-1) && !this.suites.includes(suite)) this.suites.push(suite);
  }

  /** Sets the instance's hash in `column` (or checks it against the one set); false when it differs. */
  private keep(column: GrowableColumn<Int32Array>, flag: number, instance: number, hash: string | null | undefined): boolean {
    if (typeof hash !== 'string') return true;
    // The validator let only 64 hex digits through: each half parses to a 32-bit number.
    const high = parseInt(hash.slice(0, 8), 16) | 0;
    const low = parseInt(hash.slice(8, 16), 16) | 0;
    const given = this.given.get(instance);
    if (given & flag) return column.get(2 * instance) === high && column.get(2 * instance + 1) === low;
    this.given.set(instance, given | flag);
    column.set(2 * instance, high);
    column.set(2 * instance + 1, low);
    return true;
  }

  build(instanceCount: number): InstanceProvenance {
    return {
      given: this.given.trimmed(instanceCount),
      input: this.input.trimmed(2 * instanceCount),
      references: this.references.trimmed(2 * instanceCount),
      suites: this.suites,
      changedAgainst: new WeakMap(),
    };
  }
}

/** Whether one hash, given in both runs, differs. */
function differs(mine: InstanceProvenance, theirs: InstanceProvenance, flag: number, instance: number, other: number): boolean {
  if (!(mine.given[instance] & theirs.given[other] & flag)) return false;
  const [a, b] = flag === INPUT ? [mine.input, theirs.input] : [mine.references, theirs.references];
  return a[2 * instance] !== b[2 * other] || a[2 * instance + 1] !== b[2 * other + 1];
}

/**
 * The candidate's instances paired by id whose hashes differ from the baseline's, where both give one;
 * `idMatch` gives each candidate instance's number in the baseline (-1: none), asked for on the first call only.
 */
export function changedInstances(candidate: InstanceProvenance, baseline: InstanceProvenance, idMatch: () => Int32Array): Int32Array {
  let changed = candidate.changedAgainst.get(baseline);
  if (changed) return changed;
  const match = idMatch();
  const found: number[] = [];
  for (let instance = 0; instance < match.length; instance++) {
    const other = match[instance];
    if (other >= 0 && (differs(candidate, baseline, INPUT, instance, other) || differs(candidate, baseline, REFERENCES, instance, other))) {
      found.push(instance);
    }
  }
  candidate.changedAgainst.set(baseline, (changed = Int32Array.from(found)));
  return changed;
}

/** Whether an instance was verified: both runs give both hashes (then they are the same, or it is changed). */
export function verified(candidate: InstanceProvenance, baseline: InstanceProvenance, instance: number, other: number): boolean {
  return (candidate.given[instance] & baseline.given[other]) === (INPUT | REFERENCES);
}
