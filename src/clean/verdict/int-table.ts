/** A new table's slots; it doubles when three quarters full. */
const FIRST_SLOTS = 16;

/** 32-bit integers to positive ones in typed arrays (open addressing): outside V8's heap, no garbage, unlike a Map. */
export class IntTable {
  private keys = new Int32Array(FIRST_SLOTS);
  private values = new Uint32Array(FIRST_SLOTS);
  private count = 0;
  private shift = 32 - Math.log2(FIRST_SLOTS);

  get size(): number {
    return this.count;
  }

  get(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = slotOf(key, this.shift); ; slot = (slot + 1) & mask) {
      const value = this.values[slot] as number;
      if (value === 0 || this.keys[slot] === key) return value;
    }
  }

  set(key: number, value: number): void {
    if ((this.count + 1) * 4 > this.keys.length * 3) this.grow();
    if (this.put(this.keys, this.values, key, value)) this.count++;
  }

  private put(keys: Int32Array, values: Uint32Array, key: number, value: number): boolean {
    const mask = keys.length - 1;
    let slot = slotOf(key, this.shift);
    while (values[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
    const added = values[slot] === 0;
    keys[slot] = key;
    values[slot] = value;
    return added;
  }

  private grow(): void {
    const keys = new Int32Array(this.keys.length * 2);
    const values = new Uint32Array(this.keys.length * 2);
    this.shift--;
    for (let slot = 0; slot < this.keys.length; slot++) {
      const value = this.values[slot] as number;
      if (value !== 0) this.put(keys, values, this.keys[slot] as number, value);
    }
    this.keys = keys;
    this.values = values;
  }
}

/** Fibonacci hashing: keys with the same low bits (times a whole second apart) spread as consecutive ones do. */
function slotOf(key: number, shift: number): number {
  return Math.imul(key, 0x9e3779b1) >>> shift;
}
