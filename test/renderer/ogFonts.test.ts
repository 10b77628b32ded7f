/**
 * The card faces are files in the system's temporary folder that fontconfig maps into every
 * process drawing a card. Another process that loads them (a second service, a tool, a test run
 * beside this one) must leave the files mapped here whole: a file truncated under a mapping ends
 * the process with SIGBUS the next time it reads a glyph there.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { loadSharp } from '../../platform/media/sharp.js';
import { loadCardFonts } from '../../renderer/ogFonts.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The card-face files this process has mapped, with the inode each mapping holds (one replaced
 * since, by a process that loaded the faces after this one, is listed as deleted).
 */
function mappedFaces(): Map<string, number> {
  const mapped = new Map<string, number>();
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const m = /^\S+ \S+ \S+ \S+ (\d+)\s+(\/\S*linkpage-card-fonts-[^/]+\/\S+\.ttf)(?: \(deleted\))?$/.exec(line);
    if (m) mapped.set(m[2], Number(m[1]));
  }
  return mapped;
}

describe('the card faces (renderer/ogFonts.ts)', () => {
  it('are replaced, never rewritten in place, when another process loads them', async () => {
    await loadCardFonts();
    const sharp = await loadSharp();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60">
      <text x="0" y="40" font-family="Archivo Black" font-size="32">Mapped</text></svg>`;
    await sharp(Buffer.from(svg)).png().toBuffer();
    const before = mappedFaces();
    expect(before.size, 'a face mapped by drawing with it').to.be.at.least(1);

    await run(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./renderer/ogFonts.ts').then((m) => m.loadCardFonts())"],
      { cwd: ROOT },
    );
    for (const [file, inode] of before) {
      expect(statSync(file).ino, `${path.basename(file)} is a new file, the mapped one left whole`).to.not.equal(inode);
    }
  });
});
