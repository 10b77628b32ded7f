/** A browser somewhere known: a User-Agent and an address the country database places, for the sessions' tests. */
import { Person } from './person.js';

export const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** An address the country database places in Germany. */
export const IN_GERMANY = '85.214.132.117';

/** A browser in Germany running Chrome on Linux. */
export class Traveller extends Person {
  override readonly address = IN_GERMANY;
  override userAgent = CHROME_LINUX;
}

/** Logs `at` in to the person's account with the password; answers the log-in's answer. */
export async function logIn(person: { email: string; password: string }, at: Person = new Person()) {
  await at.get('/login');
  return at.post('/login', { email: person.email, password: person.password });
}
