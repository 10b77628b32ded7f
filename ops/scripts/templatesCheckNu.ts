/**
 * HTML validity for the template check: the Nu Html Checker (the `vnu-jar` package) over every
 * rendered page in one Java run, errors only (warnings are advice, not invalid HTML).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const vnuJar = createRequire(import.meta.url)('vnu-jar') as string;

interface NuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** Every page's Nu errors by the page's key (`<template>-<page>`), as one line each. */
export async function nuErrors(pages: { key: string; html: string }[]): Promise<Map<string, string[]>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'templates-check-vnu-'));
  try {
    const files = pages.map((p) => path.join(dir, `${p.key}.html`));
    await Promise.all(pages.map((p, i) => writeFile(files[i], p.html)));
    // vnu exits 1 when it found errors; its JSON report is on stderr either way.
    const { stderr } = await run('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', ...files], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stderr?: string; message: string }) => {
      if (!err.stderr?.trim().startsWith('{')) throw new Error(`the Nu Html Checker did not run: ${err.message}`);
      return { stderr: err.stderr };
    });
    const byKey = new Map<string, string[]>(pages.map((p) => [p.key, []]));
    for (const m of (JSON.parse(stderr) as { messages: NuMessage[] }).messages) {
      const key = path.basename(new URL(m.url).pathname, '.html');
      const line = `${m.type}${m.lastLine ? ` (line ${m.lastLine})` : ''}: ${m.message}${m.extract ? ` «${m.extract.trim().slice(0, 120)}»` : ''}`;
      byKey.get(key)?.push(line);
    }
    return byKey;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
