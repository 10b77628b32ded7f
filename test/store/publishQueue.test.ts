import { expect } from 'chai';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { suiteEngine as engine, freshDatabaseForBlock } from '../helpers/db.js';

describe(`the publish outbox (platform/store/publishQueue.ts) on ${engine}`, function () {
  this.timeout(60_000);
  const fresh = freshDatabaseForBlock();

  it('records a failed attempt against its own generation only: a name queued again meanwhile keeps its fresh state', async () => {
    const repo = publishQueueRepo(fresh.db);
    const t0 = new Date('2026-03-02T10:00:00Z');
    await repo.enqueue('requeued', t0);
    const [tried] = await repo.due(t0, 10);
    // The page changes again while the attempt at the first change runs.
    await repo.enqueue('requeued', new Date(t0.getTime() + 1_000));
    await repo.failed('requeued', tried.generation, 'storage down', new Date(t0.getTime() + 60_000));
    const queued = await repo.find('requeued');
    expect(queued).to.include({ generation: tried.generation + 1, attempts: 0 });
    expect((await repo.due(new Date(t0.getTime() + 1_000), 10)).map((r) => r.username)).to.deep.equal(['requeued']);
  });

  it('counts a failed attempt and waits until its retry time when the name was not queued again', async () => {
    const repo = publishQueueRepo(fresh.db);
    const t0 = new Date('2026-03-02T11:00:00Z');
    await repo.enqueue('failing', t0);
    const [tried] = (await repo.due(t0, 10)).filter((r) => r.username === 'failing');
    await repo.failed('failing', tried.generation, 'storage down', new Date(t0.getTime() + 2_000));
    expect(await repo.find('failing')).to.include({ generation: tried.generation, attempts: 1 });
    const due = async (at: number) => (await repo.due(new Date(t0.getTime() + at), 10)).map((r) => r.username);
    expect(await due(1_999)).to.not.include('failing');
    expect(await due(2_000)).to.include('failing');
  });
});
