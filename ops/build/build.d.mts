/** Types of build.mjs for the TypeScript that imports it (the tests' seed). */
export const DIST: string;
/** dist/seed/pglite.tar.gz, the migrated seed a build leaves. */
export const SEED_FILE: string;
/** Why dist/ must be built again, or null when it is up to date with the sources. */
export function staleReason(): string | null;
export function build(): Promise<{ ms: number }>;
