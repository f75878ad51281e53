import { grown } from './columns.js';

/**
 * Numbers the instances (scenario, id) of a table in order of first appearance. An open-addressing
 * hash table over typed arrays, the ids kept as UTF-16 code units in one growing array: a lookup reads
 * one slot and compares 32-bit hashes before any text, and no id string read from a file outlives its
 * record (keeping 200,000 of them alive slowed JSON.parse and the garbage collector by about 0.1 s;
 * a Map of strings cost twice as long again). The ids are strings again only when asked for.
 *
 * Ids come from files a pull request can write, so the hash is seeded at random per process (ids
 * made to collide under one seed do not under another) and a run of more than MAX_PROBES occupied
 * slots hands the numbering over to a Map, whose hashing V8 seeds itself. The numbers do not depend
 * on the seed: they follow first appearance.
 */

/** Occupied slots looked at before the table gives up on its hash (at most half full: runs are short). */
const MAX_PROBES = 64;

/** Code units made room for per expected instance (expect): ids like `bil-0000001`. */
const EXPECTED_ID_UNITS = 12;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class InstanceIndex {
  /** Per instance: its scenario number, hash, and where its id's code units start and end in `text`. */
  private scenarios = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private starts = new Int32Array(1025);
  private text = new Uint16Array(16384);
  private count = 0;
  /** Per slot: an instance + 1 (0: empty). */
  private slots = new Int32Array(2048);
  /** Once a probe run was too long: scenario NUL id -> instance, for every instance. */
  private byKey: Map<string, number> | undefined;

  /** `seed`: the hash's; random unless a test needs one. */
  constructor(private readonly seed: number = crypto.getRandomValues(new Uint32Array(1))[0]) {}

  get size(): number {
    return this.count;
  }

  /**
   * Makes room for about `instances` instances at once (a guess: more still fit), instead of doubling
   * and copying the arrays, and rehashing the slots, as they come.
   */
  expect(instances: number): void {
    if (instances <= this.scenarios.length) return;
    this.scenarios = grown(this.scenarios, instances + 1);
    this.hashes = grown(this.hashes, this.scenarios.length);
    this.starts = grown(this.starts, this.scenarios.length + 1);
    this.text = grown(this.text, Math.max(this.text.length, EXPECTED_ID_UNITS * instances));
    let slots = this.slots.length;
    while (slots < 2 * instances) slots *= 2;
    if (slots > this.slots.length) this.rehashInto(slots);
  }

  /** Whether ids collided so much that a Map numbers them now. */
  get collided(): boolean {
    return this.byKey !== undefined;
  }

  /** The number of (scenario, id), numbered next if new. */
  numberOf(scenario: number, id: string): number {
    if (this.byKey) return this.numberByKey(scenario, id);
    const hash = this.hashOf(scenario, id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let probes = 0, found = this.slots[slot]; found !== 0; found = this.slots[slot], probes++) {
      if (probes === MAX_PROBES) {
        this.byKey = new Map(this.ids().map((known, instance) => [keyOf(this.scenarios[instance], known), instance]));
        return this.numberByKey(scenario, id);
      }
      const instance = found - 1;
      if (this.hashes[instance] === hash && this.scenarios[instance] === scenario && this.idIs(instance, id)) return instance;
      slot = (slot + 1) & mask;
    }
    const instance = this.append(scenario, id, hash);
    this.slots[slot] = instance + 1;
    if (2 * this.count > this.slots.length) this.rehash();
    return instance;
  }

  /** The scenario number of each instance. */
  scenarioNumbers(): Int32Array {
    return this.scenarios.slice(0, this.count);
  }

  /** One instance's scenario number. */
  scenarioOf(instance: number): number {
    return this.scenarios[instance];
  }

  /** The id of each instance, as strings. */
  ids(): string[] {
    return Array.from({ length: this.count }, (_, instance) => this.idOf(instance));
  }

  /** One instance's id. */
  idOf(instance: number): string {
    return String.fromCharCode(...this.text.subarray(this.starts[instance], this.starts[instance + 1]));
  }

  /**
   * The number here of each instance of `other` (-1: none), `scenarioHere` giving this index's number
   * of each of other's scenarios (-1: none). Ids are compared as code units: no string is made.
   */
  numbersOf(other: InstanceIndex, scenarioHere: Int32Array): Int32Array {
    const numbers = new Int32Array(other.count).fill(-1);
    for (let instance = 0; instance < other.count; instance++) {
      const scenario = scenarioHere[other.scenarios[instance]];
      if (scenario >= 0) numbers[instance] = this.find(scenario, other.text, other.starts[instance], other.starts[instance + 1]);
    }
    return numbers;
  }

  /** The number of (scenario, the id in text[start..end)), or -1. */
  private find(scenario: number, text: Uint16Array, start: number, end: number): number {
    if (this.byKey) return this.byKey.get(keyOf(scenario, String.fromCharCode(...text.subarray(start, end)))) ?? -1;
    let hash = Math.imul(FNV_OFFSET ^ this.seed ^ scenario, FNV_PRIME);
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ text[index], FNV_PRIME);
    hash = finish(hash);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask, found = this.slots[slot]; found !== 0; slot = (slot + 1) & mask, found = this.slots[slot]) {
      const instance = found - 1;
      if (this.hashes[instance] === hash && this.scenarios[instance] === scenario && this.unitsAre(instance, text, start, end)) {
        return instance;
      }
    }
    return -1;
  }

  private unitsAre(instance: number, text: Uint16Array, start: number, end: number): boolean {
    const from = this.starts[instance];
    if (this.starts[instance + 1] - from !== end - start) return false;
    for (let index = start; index < end; index++) if (this.text[from + index - start] !== text[index]) return false;
    return true;
  }

  private numberByKey(scenario: number, id: string): number {
    const key = keyOf(scenario, id);
    const known = this.byKey!.get(key);
    if (known !== undefined) return known;
    const instance = this.append(scenario, id, 0);
    this.byKey!.set(key, instance);
    return instance;
  }

  private idIs(instance: number, id: string): boolean {
    const start = this.starts[instance];
    if (this.starts[instance + 1] - start !== id.length) return false;
    for (let index = 0; index < id.length; index++) if (this.text[start + index] !== id.charCodeAt(index)) return false;
    return true;
  }

  /** Keeps a new instance's scenario, hash and id; its number. */
  private append(scenario: number, id: string, hash: number): number {
    const instance = this.count++;
    if (this.count === this.scenarios.length) {
      this.scenarios = grown(this.scenarios, 2 * this.scenarios.length);
      this.hashes = grown(this.hashes, this.scenarios.length);
      this.starts = grown(this.starts, this.scenarios.length + 1);
    }
    let end = this.starts[instance];
    if (end + id.length > this.text.length) this.text = grown(this.text, Math.max(2 * this.text.length, end + id.length));
    for (let index = 0; index < id.length; index++) this.text[end++] = id.charCodeAt(index);
    this.starts[instance + 1] = end;
    this.scenarios[instance] = scenario;
    this.hashes[instance] = hash;
    return instance;
  }

  /** Doubles the slots, keeping them at most half full (short probe runs). */
  private rehash(): void {
    this.rehashInto(this.slots.length * 2);
  }

  /** The slots remade with `size` of them (a power of 2). */
  private rehashInto(size: number): void {
    this.slots = new Int32Array(size);
    for (let instance = 0; instance < this.count; instance++) {
      let slot = this.hashes[instance] & (size - 1);
      while (this.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      this.slots[slot] = instance + 1;
    }
  }

  /** FNV-1a over the id's UTF-16 code units, from a seeded start, finished with a multiply-xorshift mix (the low bits pick the slot). */
  private hashOf(scenario: number, id: string): number {
    let hash = Math.imul(FNV_OFFSET ^ this.seed ^ scenario, FNV_PRIME);
    for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), FNV_PRIME);
    return finish(hash);
  }
}

/** The hash's last mix (the low bits pick the slot). */
function finish(hash: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return mixed ^ (mixed >>> 13);
}

function keyOf(scenario: number, id: string): string {
  return `${scenario}\u0000${id}`;
}
