/** How long a request's first answer is replayed for a retry with the same Idempotency-Key. */
export const IDEMPOTENCY_HOURS = 24;
