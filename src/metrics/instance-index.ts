/**
 * Numbers the instances (scenario, id) of a table in order of first appearance. An open-addressing
 * hash table over typed arrays, the ids kept as UTF-16 code units in one growing array: a lookup reads
 * one slot and compares 32-bit hashes before any text, and no id string read from a file outlives its
 * record (keeping 200,000 of them alive slowed JSON.parse and the garbage collector by about 0.1 s;
 * a Map of strings cost twice as long again). The ids are strings again only when asked for.
 */
export class InstanceIndex {
  /** Per instance: its scenario number, hash, and where its id's code units start and end in `text`. */
  private scenarios = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private starts = new Int32Array(1025);
  private text = new Uint16Array(16384);
  private count = 0;
  /** Per slot: an instance + 1 (0: empty). */
  private slots = new Int32Array(2048);

  get size(): number {
    return this.count;
  }

  /** The number of (scenario, id), numbered next if new. */
  numberOf(scenario: number, id: string): number {
    const hash = hashOf(scenario, id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let found = this.slots[slot]; found !== 0; found = this.slots[slot]) {
      const instance = found - 1;
      if (this.hashes[instance] === hash && this.scenarios[instance] === scenario && this.idIs(instance, id)) return instance;
      slot = (slot + 1) & mask;
    }
    return this.append(scenario, id, hash, slot);
  }

  /** The scenario number of each instance. */
  scenarioNumbers(): Int32Array {
    return this.scenarios.slice(0, this.count);
  }

  /** The id of each instance, as strings. */
  ids(): string[] {
    return Array.from({ length: this.count }, (_, instance) =>
      String.fromCharCode(...this.text.subarray(this.starts[instance], this.starts[instance + 1])),
    );
  }

  private idIs(instance: number, id: string): boolean {
    const start = this.starts[instance];
    if (this.starts[instance + 1] - start !== id.length) return false;
    for (let index = 0; index < id.length; index++) if (this.text[start + index] !== id.charCodeAt(index)) return false;
    return true;
  }

  private append(scenario: number, id: string, hash: number, slot: number): number {
    const instance = this.count++;
    if (this.count === this.scenarios.length) this.growInstances();
    let end = this.starts[instance];
    if (end + id.length > this.text.length) this.text = grown(this.text, Math.max(2 * this.text.length, end + id.length));
    for (let index = 0; index < id.length; index++) this.text[end++] = id.charCodeAt(index);
    this.starts[instance + 1] = end;
    this.scenarios[instance] = scenario;
    this.hashes[instance] = hash;
    this.slots[slot] = instance + 1;
    if (2 * this.count > this.slots.length) this.rehash();
    return instance;
  }

  private growInstances(): void {
    const size = 2 * this.scenarios.length;
    this.scenarios = grown(this.scenarios, size);
    this.hashes = grown(this.hashes, size);
    this.starts = grown(this.starts, size + 1);
  }

  /** Doubles the slots, keeping them at most half full (short probe runs). */
  private rehash(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    for (let instance = 0; instance < this.count; instance++) {
      let slot = this.hashes[instance] & (size - 1);
      while (this.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      this.slots[slot] = instance + 1;
    }
  }
}

function grown<T extends Int32Array | Uint16Array>(array: T, size: number): T {
  const larger = new (array.constructor as new (size: number) => T)(size);
  larger.set(array);
  return larger;
}

/** FNV-1a over the id's UTF-16 code units, seeded by the scenario, finished with a multiply-xorshift mix (the low bits pick the slot). */
function hashOf(scenario: number, id: string): number {
  let hash = Math.imul(0x811c9dc5 ^ scenario, 0x01000193);
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return hash ^ (hash >>> 13);
}
