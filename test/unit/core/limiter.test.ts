import { expect } from 'chai';
import { decideLimit, type LimitWindow, limitWindows } from '../../../core/limiter.js';
import { LIMITS } from '../../../core/rules/limits.js';

const HOUR = 3_600_000;

function counted(w: LimitWindow, count: number) {
  return { ...w, count };
}

describe('the limiter arithmetic (core/limiter.ts)', () => {
  describe('limitWindows', () => {
    it('makes one fixed window per rule window, aligned to the epoch, with the seconds left as reset', () => {
      const now = new Date('2026-03-14T10:20:30.250Z');
      const [day, hour] = limitWindows('pagesWithoutKey', 'subj', now);
      expect(day.start.toISOString()).to.equal('2026-03-14T00:00:00.000Z');
      expect(day.end.toISOString()).to.equal('2026-03-15T00:00:00.000Z');
      expect(day.max).to.equal(10);
      expect(day.reset).to.equal(Math.ceil((day.end.getTime() - now.getTime()) / 1000));
      expect(day.reset).to.equal(49_170);
      expect(hour.start.toISOString()).to.equal('2026-03-14T10:00:00.000Z');
      expect(hour.end.toISOString()).to.equal('2026-03-14T11:00:00.000Z');
      expect(hour.max).to.equal(30);
      expect(hour.reset).to.equal(2370);
    });

    it('names each window by limit, length and subject, so a day and an hour starting together are two counters', () => {
      const [day, hour] = limitWindows('pagesWithoutKey', 'abc', new Date('2026-03-14T00:00:00Z'));
      expect(day.start.getTime()).to.equal(hour.start.getTime());
      expect(day.bucket).to.equal('pagesWithoutKey:86400:abc');
      expect(hour.bucket).to.equal('pagesWithoutKey:3600:abc');
      expect(limitWindows('validate', 'abc', new Date())[0].bucket).to.equal('validate:3600:abc');
    });

    it('starts a new window at the boundary, and never resets in less than a second', () => {
      const justBefore = limitWindows('validate', 's', new Date(Date.UTC(2026, 2, 14, 10) - 1))[0];
      expect(justBefore.start.toISOString()).to.equal('2026-03-14T09:00:00.000Z');
      expect(justBefore.reset).to.equal(1);
      const at = limitWindows('validate', 's', new Date(Date.UTC(2026, 2, 14, 10)))[0];
      expect(at.start.toISOString()).to.equal('2026-03-14T10:00:00.000Z');
      expect(at.reset).to.equal(3600);
      const minute = limitWindows('mcp', 's', new Date(Date.UTC(2026, 2, 14, 10, 5, 59, 999)))[0];
      expect(minute.start.toISOString()).to.equal('2026-03-14T10:05:00.000Z');
      expect(minute.reset).to.equal(1);
    });

    it('follows the rule table: one window per entry, in its order', () => {
      for (const name of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
        const windows = limitWindows(name, 's', new Date('2026-03-14T10:20:30Z'));
        expect(
          windows.map((w) => w.max),
          name,
        ).to.deep.equal(LIMITS[name].windows.map((w) => w.max));
        expect(
          windows.map((w) => (w.end.getTime() - w.start.getTime()) / 1000),
          name,
        ).to.deep.equal(LIMITS[name].windows.map((w) => w.seconds));
      }
    });
  });

  describe('decideLimit', () => {
    const now = new Date('2026-03-14T10:20:30Z');
    const [hour, day] = limitWindows('signupForm', 's', now).sort((a, b) => a.max - b.max);

    it('allows up to the max of every window, with what is left of the tightest', () => {
      expect(hour.max).to.equal(5);
      expect(day.max).to.equal(20);
      expect(decideLimit([counted(hour, 1), counted(day, 1)])).to.deep.equal({
        allowed: true,
        limit: 5,
        remaining: 4,
        reset: hour.reset,
      });
      // The day has less room left than the hour: the day decides.
      expect(decideLimit([counted(hour, 1), counted(day, 19)])).to.deep.equal({
        allowed: true,
        limit: 20,
        remaining: 1,
        reset: day.reset,
      });
      expect(decideLimit([counted(hour, 5), counted(day, 5)])).to.include({ allowed: true, remaining: 0, limit: 5 });
      // The first window has least room: it decides, wherever it stands in the list.
      expect(decideLimit([counted(hour, 1), counted(day, 15)])).to.deep.include({ limit: 5, remaining: 4 });
      expect(decideLimit([counted(day, 15), counted(hour, 1)])).to.deep.include({ limit: 5, remaining: 4 });
    });

    it('refuses one over the max, with the window that frees up last deciding the wait', () => {
      expect(decideLimit([counted(hour, 6), counted(day, 6)])).to.deep.equal({
        allowed: false,
        limit: 5,
        remaining: 0,
        reset: hour.reset,
      });
      expect(decideLimit([counted(hour, 6), counted(day, 21)])).to.deep.equal({
        allowed: false,
        limit: 20,
        remaining: 0,
        reset: day.reset,
      });
      expect(decideLimit([counted(hour, 2), counted(day, 21)])).to.include({ allowed: false, reset: day.reset });
      // Whatever the order the windows come in.
      expect(decideLimit([counted(day, 21), counted(hour, 6)])).to.include({
        allowed: false,
        limit: 20,
        reset: day.reset,
      });
      expect(day.reset - hour.reset).to.be.greaterThan(HOUR / 1000);
    });

    it('decides on one window alone', () => {
      const [only] = limitWindows('validate', 's', now);
      expect(decideLimit([counted(only, 60)])).to.deep.equal({
        allowed: true,
        limit: 60,
        remaining: 0,
        reset: only.reset,
      });
      expect(decideLimit([counted(only, 61)])).to.deep.equal({
        allowed: false,
        limit: 60,
        remaining: 0,
        reset: only.reset,
      });
    });
  });
});
