/**
 * Waiting for what a test sets off but cannot await (a job scheduled after a publish, a worker's
 * poll, an answer kept for a second): asked again and again until it holds, never a fixed sleep.
 */

/** Waits (polling every `every` ms) until `done()` holds, for `ms` at most; returns whether it did. */
export async function until(done: () => boolean | Promise<boolean>, ms: number, every = 25): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, every));
  }
  return done();
}

/**
 * What `read()` gives once `done` holds of it, polling for `ms` at most; after that, the last
 * value read, for the test's own assertion to show.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  let value!: T;
  await until(async () => {
    value = await read();
    return done(value);
  }, ms);
  return value;
}
