import { expect } from 'chai';
import type { DayCounts } from '../../../platform/store/stats.js';
import {
  createCountBuffer,
  emptyCounts,
  hitsOf,
  mergeCounts,
  utcDayClock,
  VALUES_PER_DAY,
  visitorHash,
} from '../../../router/countBuffer.js';
import type { ViewFacts } from '../../../router/visits.js';

const SECRET = 'unit-secret-0123456789-0123456789-abcdef';

/** A buffer on a clock the test moves. */
function buffer(start = '2026-03-14T12:00:00Z') {
  let t = Date.parse(start);
  const counts = createCountBuffer({ secret: SECRET, now: () => new Date(t) });
  return {
    counts,
    set: (iso: string) => {
      t = Date.parse(iso);
    },
    advance: (ms: number) => {
      t += ms;
    },
  };
}

function counts(o: Partial<DayCounts> = {}): DayCounts {
  return { ...emptyCounts(), ...o };
}

const FACTS: ViewFacts = {
  referrer: 'x.com',
  country: 'JP',
  device: 'phone',
  browser: 'Safari',
  os: 'iOS',
  campaign: null,
};

describe('the counters (router/countBuffer.ts)', () => {
  describe('utcDayClock', () => {
    it('tells the UTC date, not the local one', () => {
      expect(utcDayClock(() => new Date('2026-03-14T23:30:00-05:00'))()).to.equal('2026-03-15');
    });

    it('works the day out again once a second has passed, so midnight changes it', () => {
      let t = Date.parse('2026-03-14T23:59:59.000Z');
      const today = utcDayClock(() => new Date(t));
      expect(today()).to.equal('2026-03-14');
      t = Date.parse('2026-03-14T23:59:59.999Z');
      expect(today()).to.equal('2026-03-14');
      t = Date.parse('2026-03-15T00:00:00.000Z');
      expect(today()).to.equal('2026-03-15');
    });

    it('keeps the day it worked out for less than a second (one date a second, not one a hit)', () => {
      let t = Date.parse('2026-03-14T23:59:59.500Z');
      const today = utcDayClock(() => new Date(t));
      expect(today()).to.equal('2026-03-14');
      t += 999;
      expect(today()).to.equal('2026-03-14');
      t += 1;
      expect(today()).to.equal('2026-03-15');
    });

    it('works the day out again when the clock goes back', () => {
      let t = Date.parse('2026-03-15T00:00:00.200Z');
      const today = utcDayClock(() => new Date(t));
      expect(today()).to.equal('2026-03-15');
      t -= 500;
      expect(today()).to.equal('2026-03-14');
    });
  });

  describe('visitorHash', () => {
    it('is the same for one address and User-Agent on one day, 22 base64url characters', () => {
      const a = visitorHash(SECRET, '2026-03-14', '198.18.0.1', 'Browser/1');
      expect(a).to.match(/^[A-Za-z0-9_-]{22}$/);
      expect(visitorHash(SECRET, '2026-03-14', '198.18.0.1', 'Browser/1')).to.equal(a);
    });

    it('differs by day, address, User-Agent and secret', () => {
      const a = visitorHash(SECRET, '2026-03-14', '198.18.0.1', 'Browser/1');
      expect(visitorHash(SECRET, '2026-03-15', '198.18.0.1', 'Browser/1')).to.not.equal(a);
      expect(visitorHash(SECRET, '2026-03-14', '198.18.0.2', 'Browser/1')).to.not.equal(a);
      expect(visitorHash(SECRET, '2026-03-14', '198.18.0.1', 'Browser/2')).to.not.equal(a);
      expect(visitorHash(`${SECRET}x`, '2026-03-14', '198.18.0.1', 'Browser/1')).to.not.equal(a);
    });

    it('does not contain the address', () => {
      expect(visitorHash(SECRET, '2026-03-14', '198.18.0.1', 'Browser/1')).to.not.include('198');
    });
  });

  describe('counting', () => {
    it('sums views, taps and reads per page and day, each hit counted once in the buffered figure', () => {
      const { counts: c } = buffer();
      c.view('p1', '198.18.0.1', 'UA', FACTS);
      c.view('p1', '198.18.0.2', 'UA');
      c.tap('p1', 'b1');
      c.tap('p1', 'b1');
      c.tap('p1', 'b2');
      c.markdownRead('p1', 'People', true);
      c.markdownRead('p1', 'GPTBot', false);
      c.view('p2', '198.18.0.1', 'UA');
      expect(c.stats().buffered).to.equal(8);
      const batch = c.take()!;
      expect([...batch.entries.keys()]).to.deep.equal(['p1|2026-03-14', 'p2|2026-03-14']);
      const p1 = batch.entries.get('p1|2026-03-14')!;
      expect(p1).to.include({ views: 2, taps: 3, markdownReads: 2, personReads: 1 });
      expect(p1.visitors).to.have.length(2);
      expect([...p1.blockTaps]).to.deep.equal([
        ['b1', 2],
        ['b2', 1],
      ]);
      expect(p1.breakdown.get('referrer\u0000x.com')).to.equal(1);
      expect(p1.breakdown.get('country\u0000JP')).to.equal(1);
      expect(p1.breakdown.has('campaign\u0000null')).to.equal(false);
      expect(p1.breakdown.get('reader\u0000People')).to.equal(1);
      expect(p1.breakdown.get('reader\u0000GPTBot')).to.equal(1);
      expect(c.stats()).to.deep.equal({ buffered: 0, lagMs: 0 });
      expect(c.take()).to.equal(null);
    });

    it('gives one visitor the same hash all day and a new one after midnight (the salt is the day)', () => {
      const b = buffer('2026-03-14T08:00:00Z');
      b.counts.view('p1', '198.18.0.1', 'UA');
      b.set('2026-03-14T23:59:58Z');
      b.counts.view('p1', '198.18.0.1', 'UA');
      b.set('2026-03-15T00:00:01Z');
      b.counts.view('p1', '198.18.0.1', 'UA');
      const batch = b.counts.take()!;
      const before = batch.entries.get('p1|2026-03-14')!.visitors;
      const after = batch.entries.get('p1|2026-03-15')!.visitors;
      expect(before).to.have.length(2);
      expect(before[0]).to.equal(before[1]);
      expect(after).to.deep.equal([visitorHash(SECRET, '2026-03-15', '198.18.0.1', 'UA')]);
      expect(after[0]).to.not.equal(before[0]);
    });

    it(`keeps ${VALUES_PER_DAY} distinct values per page, day and breakdown, counting more as "other"`, () => {
      const b = buffer('2026-03-14T08:00:00Z');
      for (let i = 0; i <= VALUES_PER_DAY; i++)
        b.counts.view('p1', 'a', 'UA', { ...FACTS, referrer: `site${i}.example` });
      b.counts.view('p1', 'a', 'UA', { ...FACTS, referrer: 'site0.example' });
      b.counts.view('p2', 'a', 'UA', { ...FACTS, referrer: 'new.example' });
      const first = b.counts.take()!;
      const p1 = first.entries.get('p1|2026-03-14')!.breakdown;
      expect(p1.get(`referrer\u0000site${VALUES_PER_DAY - 1}.example`)).to.equal(1);
      expect(p1.has(`referrer\u0000site${VALUES_PER_DAY}.example`)).to.equal(false);
      expect(p1.get('referrer\u0000other')).to.equal(1);
      expect(p1.get('referrer\u0000site0.example')).to.equal(2);
      // Other breakdowns and other pages have room of their own.
      expect(p1.get('country\u0000JP')).to.equal(VALUES_PER_DAY + 2);
      expect(first.entries.get('p2|2026-03-14')!.breakdown.get('referrer\u0000new.example')).to.equal(1);
      // The values seen are per day: the next day has room again, even after a flush.
      b.counts.view('p1', 'a', 'UA', { ...FACTS, referrer: 'late.example' });
      expect(b.counts.take()!.entries.get('p1|2026-03-14')!.breakdown.get('referrer\u0000other')).to.equal(1);
      b.set('2026-03-15T00:00:01Z');
      b.counts.view('p1', 'a', 'UA', { ...FACTS, referrer: 'late.example' });
      expect(b.counts.take()!.entries.get('p1|2026-03-15')!.breakdown.get('referrer\u0000late.example')).to.equal(1);
    });

    it('caps Markdown readers per page and day like the view breakdowns', () => {
      const { counts: c } = buffer();
      for (let i = 0; i < VALUES_PER_DAY; i++) c.markdownRead('p1', `Bot${i}`, false);
      c.markdownRead('p1', 'OneMore', false);
      const md = c.take()!.entries.get('p1|2026-03-14')!;
      expect(md.breakdown.get('reader\u0000other')).to.equal(1);
      expect(md.markdownReads).to.equal(VALUES_PER_DAY + 1);
      expect(md.personReads).to.equal(0);
    });

    it('reports the flush lag from the oldest hit still buffered', async () => {
      const { counts: c } = buffer();
      expect(c.stats().lagMs).to.equal(0);
      const first = Date.now();
      c.tap('p1', 'b1');
      await new Promise((r) => setTimeout(r, 20));
      c.tap('p1', 'b1');
      expect(c.stats().lagMs).to.be.within(15, Date.now() - first);
    });
  });

  describe('a failed flush', () => {
    it('puts back every entry, once, added to what came meanwhile', () => {
      const b = buffer();
      b.counts.view('failed', '198.18.0.1', 'UA', FACTS);
      b.counts.tap('failed', 'b1');
      b.counts.view('untried', '198.18.0.2', 'UA');
      const batch = b.counts.take()!;
      const day = '2026-03-14';
      // Hits that come while the flush runs.
      b.counts.view('failed', '198.18.0.3', 'UA', FACTS);
      b.counts.markdownRead('new', 'People', true);
      expect(b.counts.stats().buffered).to.equal(2);

      b.counts.putBack(batch);
      expect(b.counts.stats().buffered).to.equal(5);
      const again = b.counts.take()!;
      expect([...again.entries.keys()].sort()).to.deep.equal([`failed|${day}`, `new|${day}`, `untried|${day}`]);
      const failed = again.entries.get(`failed|${day}`)!;
      expect(failed).to.include({ views: 2, taps: 1 });
      expect(failed.visitors).to.have.length(2);
      expect([...failed.blockTaps]).to.deep.equal([['b1', 1]]);
      expect(failed.breakdown.get('country\u0000JP')).to.equal(2);
      expect(again.entries.get(`untried|${day}`)).to.include({ views: 1 });
      expect(again.entries.get(`new|${day}`)).to.include({ markdownReads: 1, personReads: 1 });
    });

    it('puts everything back when nothing was written, and keeps the age of the oldest hit', async () => {
      const b = buffer();
      b.counts.view('p1', '198.18.0.1', 'UA');
      b.counts.tap('p1', 'b1');
      await new Promise((r) => setTimeout(r, 20));
      const batch = b.counts.take()!;
      expect(b.counts.stats()).to.deep.equal({ buffered: 0, lagMs: 0 });
      b.counts.putBack(batch);
      expect(b.counts.stats().buffered).to.equal(2);
      expect(b.counts.stats().lagMs).to.be.at.least(15);
      expect(b.counts.take()!.entries.get('p1|2026-03-14')).to.include({ views: 1, taps: 1 });
    });

    it('loses nothing and doubles nothing over two failures in a row', () => {
      const b = buffer();
      for (let i = 0; i < 3; i++) b.counts.view('p1', `198.18.0.${i}`, 'UA');
      let batch = b.counts.take()!;
      b.counts.putBack(batch);
      b.counts.view('p1', '198.18.0.9', 'UA');
      batch = b.counts.take()!;
      b.counts.putBack(batch);
      expect(b.counts.stats().buffered).to.equal(4);
      const p1 = b.counts.take()!.entries.get('p1|2026-03-14')!;
      expect(p1.views).to.equal(4);
      expect(p1.visitors).to.have.length(4);
    });
  });

  describe('mergeCounts and hitsOf', () => {
    it('adds every figure key by key, and moves a new key over as it is', () => {
      const into = new Map([
        [
          'p|d',
          counts({
            views: 1,
            taps: 2,
            markdownReads: 3,
            personReads: 1,
            visitors: ['a'],
            blockTaps: new Map([['b1', 2]]),
            breakdown: new Map([['os\u0000iOS', 1]]),
          }),
        ],
      ]);
      const moved = counts({ views: 7 });
      mergeCounts(
        into,
        new Map([
          [
            'p|d',
            counts({
              views: 10,
              taps: 20,
              markdownReads: 30,
              personReads: 10,
              visitors: ['b'],
              blockTaps: new Map([
                ['b1', 1],
                ['b2', 5],
              ]),
              breakdown: new Map([
                ['os\u0000iOS', 2],
                ['os\u0000Android', 1],
              ]),
            }),
          ],
          ['q|d', moved],
        ]),
      );
      const p = into.get('p|d')!;
      expect(p).to.include({ views: 11, taps: 22, markdownReads: 33, personReads: 11 });
      expect(p.visitors).to.deep.equal(['a', 'b']);
      expect([...p.blockTaps]).to.deep.equal([
        ['b1', 3],
        ['b2', 5],
      ]);
      expect([...p.breakdown]).to.deep.equal([
        ['os\u0000iOS', 3],
        ['os\u0000Android', 1],
      ]);
      expect(into.get('q|d')).to.equal(moved);
    });

    it('counts views, taps and Markdown reads as hits (a person read is one of the reads)', () => {
      expect(hitsOf(counts({ views: 1, taps: 2, markdownReads: 4, personReads: 3 }))).to.equal(7);
    });
  });
});
