import { expect } from 'chai';
import type { AppError } from '../../../../core/errors.js';
import { dateIn, rangeDates } from '../../../../core/rules/statsRange.js';

function refusal(f: () => unknown): { code: string; field: unknown } {
  try {
    f();
  } catch (err) {
    const e = err as AppError;
    return { code: e.code, field: e.fields.field };
  }
  throw new Error('not refused');
}

describe('the days a statistics request covers (core/rules/statsRange.ts)', () => {
  it('tells the date in a time zone', () => {
    const now = new Date('2026-03-14T23:30:00Z');
    expect(dateIn(now, 'UTC')).to.equal('2026-03-14');
    expect(dateIn(now, 'Asia/Tokyo')).to.equal('2026-03-15');
    expect(dateIn(new Date('2026-03-14T03:00:00Z'), 'America/New_York')).to.equal('2026-03-13');
  });

  it('covers the last 30 days up to today by default, oldest first', () => {
    const days = rangeDates('2026-03-14', {});
    expect(days).to.have.length(30);
    expect(days[0]).to.equal('2026-02-13');
    expect(days[29]).to.equal('2026-03-14');
    expect(rangeDates('2026-03-01', { days: 2 })).to.deep.equal(['2026-02-28', '2026-03-01']);
    expect(rangeDates('2026-03-14', { days: 1 })).to.deep.equal(['2026-03-14']);
  });

  it('covers from to to, both included, up to 365 days', () => {
    expect(rangeDates('2026-03-14', { from: '2024-02-28', to: '2024-03-01' })).to.deep.equal([
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(rangeDates('x', { from: '2025-01-01', to: '2025-12-31' })).to.have.length(365);
    expect(rangeDates('x', { from: '2025-06-01', to: '2025-06-01' })).to.deep.equal(['2025-06-01']);
    expect(refusal(() => rangeDates('x', { from: '2024-01-01', to: '2024-12-31' }))).to.deep.equal({
      code: 'invalid_fields',
      field: 'to',
    });
  });

  it('names the field at fault', () => {
    expect(refusal(() => rangeDates('2026-03-14', { from: '2026-01-01' }))).to.deep.equal({
      code: 'invalid_fields',
      field: 'to',
    });
    expect(refusal(() => rangeDates('2026-03-14', { to: '2026-01-01' })).field).to.equal('from');
    expect(refusal(() => rangeDates('2026-03-14', { days: 3, from: '2026-01-01', to: '2026-01-02' })).field).to.equal(
      'days',
    );
    expect(refusal(() => rangeDates('2026-03-14', { from: '2026-02-30', to: '2026-03-01' })).field).to.equal('from');
    expect(refusal(() => rangeDates('2026-03-14', { from: '2026-03-01', to: '2026-3-2' })).field).to.equal('to');
    expect(refusal(() => rangeDates('2026-03-14', { from: '2026-03-02', to: '2026-03-01' })).field).to.equal('to');
  });
});
