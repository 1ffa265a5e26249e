// A module that is fetched the first time something needs it (KaTeX, the highlighter),
// so that it stays out of the first load of every page. Components read it with
// useLazyModule and re-render once it has arrived.
import { useEffect, useSyncExternalStore } from "react";

export type LazyModule<T> = {
  /** The module, once loaded. */
  get(): T | null;
  /** Starts loading (once) and resolves with the module. */
  load(): Promise<T>;
  subscribe(listener: () => void): () => void;
};

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    load() {
      pending ??= importer().then(
        (loaded) => {
          value = loaded;
          listeners.forEach((listener) => listener());
          return loaded;
        },
        (error: unknown) => {
          // A failed chunk load (offline, new deployment) may succeed on the next need.
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The module when loaded, else null; starts loading it while `wanted`. Content stays plain if loading fails. */
export function useLazyModule<T>(module: LazyModule<T>, wanted: boolean): T | null {
  const value = useSyncExternalStore(module.subscribe, module.get, module.get);
  useEffect(() => {
    if (wanted && !value) module.load().catch(() => undefined);
  }, [module, wanted, value]);
  return wanted ? value : null;
}
