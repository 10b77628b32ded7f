import { expect } from 'chai';
import { campaignOf, DIRECT, inAppSite, siteOf } from '../../../../core/rules/referrers.js';

describe('where views come from (core/rules/referrers.ts)', () => {
  it('names a host by its site: mobile and link-shim prefixes dropped, case and a final dot ignored', () => {
    expect(siteOf('l.instagram.com')).to.equal('instagram.com');
    expect(siteOf('WWW.Example.COM.')).to.equal('example.com');
    expect(siteOf('m.facebook.com')).to.equal('facebook.com');
    expect(siteOf('www.m.example.org')).to.equal('example.org');
    expect(siteOf('out.example.net')).to.equal('example.net');
    // A prefix that is the whole name but for the top level stays.
    expect(siteOf('m.me')).to.equal('m.me');
    expect(siteOf('blog.example.com')).to.equal('blog.example.com');
  });

  it('names short-link and old hosts for their network', () => {
    expect(siteOf('t.co')).to.equal('x.com');
    expect(siteOf('www.twitter.com')).to.equal('x.com');
    expect(siteOf('youtu.be')).to.equal('youtube.com');
    expect(siteOf('old.reddit.com')).to.equal('reddit.com');
    expect(siteOf('www.threads.net')).to.equal('threads.com');
  });

  it('takes every Google country site as google.com', () => {
    expect(siteOf('www.google.co.uk')).to.equal('google.com');
    expect(siteOf('google.de')).to.equal('google.com');
    expect(siteOf('mail.google.com')).to.equal('mail.google.com');
    expect(siteOf('google.com-shop.example')).to.equal('google.com-shop.example');
  });

  it('cuts a long host to 100 characters', () => {
    expect(siteOf(`${'a'.repeat(120)}.com`)).to.have.length(100);
  });

  it('knows in-app browsers by their User-Agent token', () => {
    expect(inAppSite('Mozilla/5.0 (iPhone) Instagram 300.0')).to.equal('instagram.com');
    expect(inAppSite('Mozilla/5.0 [FBAN/FBIOS;FBAV/400]')).to.equal('facebook.com');
    expect(inAppSite('Mozilla/5.0 musical_ly_30')).to.equal('tiktok.com');
    expect(inAppSite('Mozilla/5.0 Safari/605.1.15')).to.equal(null);
    expect(DIRECT).to.equal('direct');
  });

  it('joins the UTM source, medium and campaign given, cleaned and cut to 40 characters each', () => {
    expect(campaignOf(new URLSearchParams('utm_source=news&utm_medium=email&utm_campaign=spring'))).to.equal(
      'news / email / spring',
    );
    expect(campaignOf(new URLSearchParams('utm_campaign=spring&utm_source=ig'))).to.equal('ig / spring');
    expect(campaignOf(new URLSearchParams('utm_source=%20a%00b%1F%20'))).to.equal('ab');
    expect(campaignOf(new URLSearchParams(`utm_source=${'x'.repeat(50)}`))).to.equal('x'.repeat(40));
    expect(campaignOf(new URLSearchParams('utm_source=&utm_term=x'))).to.equal(null);
    expect(campaignOf(new URLSearchParams(''))).to.equal(null);
  });
});
