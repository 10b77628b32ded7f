/**
 * PASSWORD_COST: scrypt's N for passwords set from now on. The suite's app runs at 10 (cheap);
 * here an app on the same database runs at the production default, 15, and the two read each
 * other's hashes.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.js';
import { app, swapApp } from '../helpers/hooks.js';
import { Person, signedUp } from '../helpers/person.js';

async function storedHash(email: string): Promise<string> {
  const rows = await app().services.db.query('SELECT password_hash FROM accounts WHERE email = $1', [email]);
  return rows[0].password_hash as string;
}

async function logsIn(email: string, password: string): Promise<boolean> {
  const person = new Person();
  await person.get('/login');
  return (await person.post('/login', { email, password })).status === 303;
}

describe('PASSWORD_COST', () => {
  let atDefault: TestApp;
  let suiteApp: TestApp;
  before(async function () {
    this.timeout(180_000);
    // Unset (an empty value is unset): the default.
    atDefault = await startApp({ db: app().services.db, env: { PASSWORD_COST: '' } });
  });
  after(async () => {
    await atDefault?.close();
  });
  const onDefault = () => {
    suiteApp = swapApp(atDefault);
  };
  const back = () => {
    if (suiteApp) swapApp(suiteApp);
  };
  afterEach(back);

  it('hashes a new password with scrypt at N = 2^15, r = 8, p = 1 by default', async () => {
    onDefault();
    const person = await signedUp();
    expect(await storedHash(person.email)).to.match(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  });

  it('hashes at N = 2^10 when set to 10, and logs in with a password hashed at 15', async () => {
    onDefault();
    const person = await signedUp();
    back();
    expect(app().services.config.passwordCost).to.equal(10);
    expect(await logsIn(person.email, person.password), 'the 2^15 hash verifies at cost 10').to.equal(true);
    expect(await logsIn(person.email, 'a wrong password')).to.equal(false);

    const cheap = await signedUp();
    expect(await storedHash(cheap.email)).to.match(/^scrypt\$1024\$8\$1\$/);
    onDefault();
    expect(await logsIn(cheap.email, cheap.password), 'the 2^10 hash verifies at cost 15').to.equal(true);
  });
});
