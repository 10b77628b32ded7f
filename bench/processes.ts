/** Bench servers in their own processes (see servers.ts), started and stopped by the benchmarks. */
import { type ChildProcess, spawn } from 'node:child_process';

interface Started {
  child: ChildProcess;
  port: number;
  output: string[];
}

export function start(kind: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--expose-gc',
        ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
        'bench/servers.ts',
        kind,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...env },
      },
    );
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const m = /^ready (\d+)$/.exec(line);
        if (m) resolve({ child, port: Number(m[1]), output });
      }
    });
    child.on('exit', (code) => reject(new Error(`${kind} exited with ${code}`)));
  });
}

export async function stop(s: Started): Promise<string[]> {
  await new Promise<void>((resolve) => {
    s.child.removeAllListeners('exit');
    s.child.on('exit', () => resolve());
    s.child.kill('SIGTERM');
  });
  return s.output;
}
