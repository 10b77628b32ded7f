import { expect } from 'chai';
import { Person, signedUp } from '../helpers/person.js';

describe('the home page: /', () => {
  it('says what the service is, with sign-up, log-in and the entry points for agents', async () => {
    const res = await new Person().get('/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.html).to.include('One page for all your links');
    for (const href of ['/signup', '/login', '/llms.txt', '/docs', '/openapi.json'])
      expect(res.html, href).to.include(`href="${href}"`);
    expect(res.html).to.include('<code>/mcp</code>');
    expect(res.html).to.include('http://yourname.pages.test/');
  });

  it('offers a logged-in person their pages instead of the sign-up', async () => {
    const person = await signedUp();
    const res = await person.get('/');
    expect(res.html).to.include('Go to your pages').and.not.include('href="/signup"');
  });
});
