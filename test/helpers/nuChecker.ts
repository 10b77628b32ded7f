/**
 * The Nu Html Checker (vnu-jar, on Java) over HTML documents: its errors, one line each, named
 * by the document's name.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const vnuJar = createRequire(import.meta.url)('vnu-jar') as string;

/** `documents`: HTML by a file name (`editor.html`); the errors as "<name>: <message> <extract>". */
export async function nuErrors(documents: ReadonlyMap<string, string>): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-vnu-'));
  try {
    const files: string[] = [];
    for (const [name, html] of documents) {
      files.push(path.join(dir, name));
      await writeFile(files[files.length - 1], html);
    }
    const { stderr } = await run('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', ...files]).catch(
      (err: { stderr: string }) => ({ stderr: err.stderr }),
    );
    return (JSON.parse(stderr).messages as { url: string; message: string; extract?: string }[]).map(
      (m) => `${path.basename(m.url)}: ${m.message} ${m.extract ?? ''}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
