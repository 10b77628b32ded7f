import { expect } from 'chai';
import { isOutage } from '../../store/outage.js';

describe('isOutage (store/outage.ts)', () => {
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
});
