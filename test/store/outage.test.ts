import { expect } from 'chai';
import { isOutage, writeRefusal } from '../../platform/store/outage.js';

describe('isOutage (platform/store/outage.ts)', () => {
  it('takes a refused or dropped connection, nested or not, for an outage', () => {
    expect(
      isOutage(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).to.equal(true);
    const both = Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {});
    expect(isOutage(both)).to.equal(true);
    expect(
      isOutage(new Error('wrapped', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })),
    ).to.equal(true);
    expect(isOutage(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isOutage(new Error('timeout exceeded when trying to connect'))).to.equal(true);
  });

  it("takes PostgreSQL's shutdown, start-up and connection SQLSTATEs for an outage", () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300']) {
      expect(isOutage(Object.assign(new Error('pg'), { code })), code).to.equal(true);
    }
  });

  it("takes the bucket's 5xx and the S3 client's time-outs for an outage, not its 4xx", () => {
    expect(isOutage(Object.assign(new Error('s3'), { $metadata: { httpStatusCode: 503 } }))).to.equal(true);
    expect(isOutage(Object.assign(new Error('slow'), { name: 'TimeoutError' }))).to.equal(true);
    expect(isOutage(Object.assign(new Error('denied'), { $metadata: { httpStatusCode: 403 } }))).to.equal(false);
  });

  it('does not take a bad statement, a unique violation or a bug for an outage', () => {
    expect(isOutage(Object.assign(new Error('dup'), { code: '23505' }))).to.equal(false);
    expect(isOutage(Object.assign(new Error('syntax'), { code: '42601' }))).to.equal(false);
    expect(isOutage(new TypeError('x is undefined'))).to.equal(false);
    expect(isOutage(undefined)).to.equal(false);
  });

  it("takes storage that refuses writes for an outage: Node's codes, PGlite's file system's, PostgreSQL's disk_full", () => {
    const node = Object.assign(new Error('full'), { code: 'ENOSPC', path: '/data/public/x.tmp' });
    expect(writeRefusal(node)).to.deep.equal({
      code: 'ENOSPC',
      reason: 'no space left on the device',
      path: '/data/public/x.tmp',
    });
    expect(writeRefusal({ name: 'ErrnoError', errno: 69 })?.code).to.equal('EROFS');
    expect(writeRefusal(Object.assign(new Error('could not extend file'), { code: '53100' }))?.code).to.equal('ENOSPC');
    expect(
      writeRefusal(new Error('wrapped', { cause: Object.assign(new Error('q'), { code: 'EDQUOT' }) }))?.code,
    ).to.equal('EDQUOT');
    for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM']) {
      expect(isOutage(Object.assign(new Error(code), { code })), code).to.equal(true);
    }
    expect(writeRefusal({ name: 'ErrnoError', errno: 44 })).to.equal(null);
    expect(writeRefusal(Object.assign(new Error('gone'), { code: 'ENOENT' }))).to.equal(null);
  });
});
