import { expect } from 'chai';
import { matchesEtag } from '../../../platform/edge/preconditions.js';
import type { StoredObject } from '../../../platform/store/objects.js';
import { lastModifiedOf, notModified } from '../../../router/conditional.js';

const object: StoredObject = {
  body: Buffer.from('<p>page</p>'),
  contentType: 'text/html; charset=utf-8',
  cacheControl: 'public, max-age=60',
  etag: '"abc"',
  lastModified: new Date('2026-11-26T10:00:00.750Z'),
};

describe('conditional GET on a page host (router/conditional.ts)', () => {
  it('sends Last-Modified as an HTTP date, whole seconds, and none for an answer made in code', () => {
    expect(lastModifiedOf(object)).to.equal('Thu, 26 Nov 2026 10:00:00 GMT');
    expect(lastModifiedOf({ ...object, lastModified: undefined })).to.equal(undefined);
  });

  it('matches If-None-Match by one tag, a list, a weak tag or *', () => {
    expect(matchesEtag('"abc"', '"abc"')).to.equal(true);
    expect(matchesEtag('"x", W/"abc"', '"abc"')).to.equal(true);
    expect(matchesEtag('*', '"abc"')).to.equal(true);
    expect(matchesEtag('"abcd"', '"abc"')).to.equal(false);
    expect(matchesEtag(undefined, '"abc"')).to.equal(false);
  });

  it('answers 304 to an If-Modified-Since at or after Last-Modified (the fraction of a second dropped), not before', () => {
    expect(notModified({ 'if-modified-since': 'Thu, 26 Nov 2026 10:00:00 GMT' }, object)).to.equal(true);
    expect(notModified({ 'if-modified-since': 'Thu, 26 Nov 2026 11:00:00 GMT' }, object)).to.equal(true);
    expect(notModified({ 'if-modified-since': 'Thu, 26 Nov 2026 09:59:59 GMT' }, object)).to.equal(false);
  });

  it('ignores an If-Modified-Since that is not a date, or an object with no time', () => {
    expect(notModified({ 'if-modified-since': 'not a date' }, object)).to.equal(false);
    expect(notModified({ 'if-modified-since': '' }, object)).to.equal(false);
    const undated = { ...object, lastModified: undefined };
    expect(notModified({ 'if-modified-since': 'Thu, 26 Nov 2026 11:00:00 GMT' }, undated)).to.equal(false);
  });

  it('lets If-None-Match decide when both are sent', () => {
    const late = 'Thu, 26 Nov 2026 11:00:00 GMT';
    const early = 'Thu, 26 Nov 2026 09:00:00 GMT';
    expect(notModified({ 'if-none-match': '"other"', 'if-modified-since': late }, object)).to.equal(false);
    expect(notModified({ 'if-none-match': '"abc"', 'if-modified-since': early }, object)).to.equal(true);
  });
});
