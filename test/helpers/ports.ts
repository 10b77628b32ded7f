/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a process that binds it later.
 *
 * Drawn from below the kernel's ephemeral range (32768–60999 here): a port the kernel hands out
 * for a listen on port 0 or for an outgoing connection could be taken by anyone between this
 * probe and the bind. CI runs the suites beside the topology test, and their thousands of
 * connections took a router's port that way ("Port … is in use"). Below that range only other
 * callers of freePort compete, at random over 12,000 ports.
 *
 * A port once handed out is never handed out again by this process: a caller may bind it only
 * later (the topology test picks Varnish's port first and starts Varnish after the roles), and a
 * role that has to move off a taken port could draw exactly that unbound port (a CI run failed so,
 * Varnish saying "Could not get socket …: Address already in use" with a router on its port).
 */
import http from 'node:http';

const LOWEST = 20_000;
const RANGE = 12_000;

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = http.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * RANGE);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await listens(port)) return port;
  }
}
