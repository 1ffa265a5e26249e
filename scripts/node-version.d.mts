export function minimumOf(range: string): [number, number, number];
export function olderThan(version: string, minimum: readonly number[]): boolean;
export function nodeVersionProblem(version: string, range: string): string | null;
