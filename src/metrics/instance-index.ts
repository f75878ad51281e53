/**
 * Numbers the instances (scenario, id) of a table in order of first appearance. An open-addressing
 * hash table over typed arrays: a lookup reads one slot and compares 32-bit hashes before any string,
 * and a table of a million instances is a few megabytes the garbage collector never walks. A Map of
 * strings cost about twice as long on 200,000 ids.
 */
export class InstanceIndex {
  /** Per instance: its scenario number and id. */
  readonly scenarioOf: number[] = [];
  readonly idOf: string[] = [];
  private readonly hashOf: number[] = [];
  /** Per slot: an instance + 1 (0: empty), and that instance's hash. */
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(1024);

  get size(): number {
    return this.idOf.length;
  }

  /** The number of (scenario, id), numbered next if new. */
  numberOf(scenario: number, id: string): number {
    const hash = hashOf(scenario, id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let found = this.slots[slot]; found !== 0; found = this.slots[slot]) {
      const instance = found - 1;
      if (this.hashes[slot] === hash && this.idOf[instance] === id && this.scenarioOf[instance] === scenario) return instance;
      slot = (slot + 1) & mask;
    }
    const instance = this.idOf.length;
    this.idOf.push(id);
    this.scenarioOf.push(scenario);
    this.hashOf.push(hash);
    this.slots[slot] = instance + 1;
    this.hashes[slot] = hash;
    if (2 * this.idOf.length > this.slots.length) this.grow();
    return instance;
  }

  /** Doubles the table, keeping it at most half full (short probe runs). */
  private grow(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.hashes = new Int32Array(size);
    for (let instance = 0; instance < this.idOf.length; instance++) {
      let slot = this.hashOf[instance] & (size - 1);
      while (this.slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      this.slots[slot] = instance + 1;
      this.hashes[slot] = this.hashOf[instance];
    }
  }
}

/** FNV-1a over the id's UTF-16 code units, seeded by the scenario, finished with a multiply-xorshift mix (the low bits pick the slot). */
function hashOf(scenario: number, id: string): number {
  let hash = Math.imul(0x811c9dc5 ^ scenario, 0x01000193);
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return hash ^ (hash >>> 13);
}
