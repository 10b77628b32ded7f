import { expect } from 'chai';
import { alertText, Person, signedUp } from '../helpers/person.js';

describe('dashboard notices (?notice=)', () => {
  it('shows no text that the address brings: an unknown notice shows nothing', async () => {
    const person = await signedUp();
    for (const path of [
      '/dashboard?notice=Your%20account%20is%20locked.%20Call%200800%20123',
      '/dashboard/keys?notice=%3Cb%3EPay%20here%3C%2Fb%3E',
      '/dashboard/account?notice=constructor',
    ]) {
      const page = await person.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.html, path).to.not.include('class="alert notice"');
      expect(page.html, path).to.not.match(/Call 0800|Pay here|constructor/);
    }
  });

  it('redirects with a notice id and shows its fixed text', async () => {
    const person = new Person();
    await person.get('/signup');
    const res = await person.post('/signup', {
      email: `notice-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'correct horse battery',
    });
    expect(res.location).to.equal('/dashboard?notice=welcome');
    const page = await person.get(res.location!);
    expect(alertText(page.html)).to.equal('Welcome! Your account is ready. Add your first page below.');
  });
});
