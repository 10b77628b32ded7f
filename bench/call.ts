/** One HTTP request to 127.0.0.1 over a kept-alive connection, as the latency benchmarks send them. */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

export function call(port: number, method: string, pathname: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes the kept-alive connections (at the end of a benchmark). */
export function closeConnections(): void {
  agent.destroy();
}
