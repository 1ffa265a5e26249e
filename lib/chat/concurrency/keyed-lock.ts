// An in-process mutex per key. The database re-checks every compaction under a row
// lock as well; this only keeps one server process from paying for the same summary
// twice.
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` now when nobody holds `key`; undefined (nothing run) when somebody does. */
  tryRun<T>(key: string, work: () => Promise<T>): Promise<T> | undefined {
    return this.tails.has(key) ? undefined : this.run(key, work);
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
