/**
 * The fault table: the split layout of the topology tests (two routers, two APIs, two workers
 * on one PostgreSQL and one s3rver bucket, behind Varnish with the shipped VCL) taken through
 * each fault of an operator's trial under visitor load and a stream of edits
 * (test/topology/faults.ts), with the visitor errors and the lost edits of each.
 */
import { type Cluster, startCluster } from '../test/topology/cluster.js';
import {
  bucketAway,
  type FaultResult,
  loadPages,
  postgresRestarted,
  routerKilled,
  underFault,
  workerKilledMidRepublish,
} from '../test/topology/faults.js';

/** The errors of a run grouped, e.g. `503 /go ×3`. */
function grouped(errors: string[]): string {
  const counts = new Map<string, number>();
  for (const e of errors) {
    const kind = e.replace(/\?.*$/, '');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

export async function faultTable(): Promise<FaultResult[]> {
  let c: Cluster | undefined;
  const results: FaultResult[] = [];
  try {
    c = await startCluster();
    const pages = await loadPages(c, 8);
    for (const fault of [routerKilled, postgresRestarted, bucketAway, workerKilledMidRepublish()]) {
      results.push(await underFault(c, pages, fault));
    }
  } catch (err) {
    if (c) console.log(c.logs());
    throw err;
  } finally {
    await c?.close();
  }
  return results;
}

export function printFaultTable(results: FaultResult[]): void {
  console.log('| fault | visitor requests | visitor errors | edits acknowledged / sent | lost edits |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of results) {
    const errors = r.visitorErrors.length ? `${r.visitorErrors.length} (${grouped(r.visitorErrors)})` : '0';
    const refused = r.editsRefused.length ? ` (refused: ${grouped(r.editsRefused)})` : '';
    const lost = r.lostEdits.length ? `${r.lostEdits.length} (${r.lostEdits.join(', ')})` : '0';
    console.log(
      `| ${r.fault} | ${r.visitorRequests} | ${errors} | ${r.editsAcknowledged} / ${r.editsSent}${refused} | ${lost} |`,
    );
  }
}
