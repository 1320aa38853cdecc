/** A Map that keeps at most `max` entries, dropping the oldest first: a bound for the caches. */
export class FifoMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
