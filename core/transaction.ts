import type { Queryable } from '../platform/store/db.js';

/** Runs a command's writes in one database transaction; an edge may wrap it (idempotency keys do). */
export type Transaction<R> = (work: (tx: Queryable) => Promise<R>) => Promise<R>;
