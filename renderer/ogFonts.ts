/**
 * The template faces for the link-preview pictures. librsvg (through Pango and fontconfig) reads
 * TrueType and OpenType but not the WOFF files the pages are served, so each face's WOFF (the
 * @fontsource packages ship one beside every woff2) is unpacked to a TrueType file once per
 * process, in the system's temporary folder, and added to fontconfig with sharp's `fontfile`
 * (which the SVG text drawn after it sees). Letters a face lacks (Arabic, Hebrew, Cyrillic) fall
 * back to DejaVu Sans, shaped by Pango.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { loadSharp } from '../platform/media/sharp.js';

const resolve = createRequire(import.meta.url).resolve;

/** The WOFF files of the faces the cards use (their latin and latin-ext halves). */
const FACES = [
  '@fontsource/newsreader/files/newsreader-latin-400-normal.woff',
  '@fontsource/newsreader/files/newsreader-latin-ext-400-normal.woff',
  '@fontsource/newsreader/files/newsreader-latin-400-italic.woff',
  '@fontsource/newsreader/files/newsreader-latin-ext-400-italic.woff',
  '@fontsource/archivo-black/files/archivo-black-latin-400-normal.woff',
  '@fontsource/archivo-black/files/archivo-black-latin-ext-400-normal.woff',
  '@fontsource/nunito/files/nunito-latin-900-italic.woff',
  '@fontsource/nunito/files/nunito-latin-ext-900-italic.woff',
  '@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff',
  '@fontsource/playfair-display/files/playfair-display-latin-ext-400-normal.woff',
  '@fontsource/outfit/files/outfit-latin-800-normal.woff',
  '@fontsource/outfit/files/outfit-latin-ext-800-normal.woff',
  '@fontsource/dm-sans/files/dm-sans-latin-700-normal.woff',
  '@fontsource/dm-sans/files/dm-sans-latin-ext-700-normal.woff',
  '@fontsource/inter/files/inter-latin-400-normal.woff',
  '@fontsource/inter/files/inter-latin-ext-400-normal.woff',
  '@fontsource/plus-jakarta-sans/files/plus-jakarta-sans-latin-800-normal.woff',
  '@fontsource/plus-jakarta-sans/files/plus-jakarta-sans-latin-ext-800-normal.woff',
];

/** A WOFF 1.0 font as the TrueType/OpenType file it was packed from (its tables inflated, in order). */
export function sfntOf(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const count = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const packed = woff.readUInt32BE(at + 8);
    const size = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + packed);
    tables.push({
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: packed < size ? inflateSync(raw) : raw,
    });
  }
  let power = 1;
  let log = 0;
  while (power * 2 <= count) {
    power *= 2;
    log++;
  }
  const head = Buffer.alloc(12 + 16 * count);
  head.writeUInt32BE(woff.readUInt32BE(4), 0);
  head.writeUInt16BE(count, 4);
  head.writeUInt16BE(power * 16, 6);
  head.writeUInt16BE(log, 8);
  head.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [head];
  let offset = head.length;
  tables.forEach((t, i) => {
    head.writeUInt32BE(t.tag, 12 + i * 16);
    head.writeUInt32BE(t.checksum, 16 + i * 16);
    head.writeUInt32BE(offset, 20 + i * 16);
    head.writeUInt32BE(t.data.length, 24 + i * 16);
    const pad = (4 - (t.data.length % 4)) % 4;
    parts.push(t.data, Buffer.alloc(pad));
    offset += t.data.length + pad;
  });
  return Buffer.concat(parts);
}

let ready: Promise<void> | null = null;

/** Makes the card faces known to fontconfig, once per process (a failure is tried again next time). */
export function loadCardFonts(): Promise<void> {
  ready ??= (async () => {
    const sharp = await loadSharp();
    const files = await Promise.all(FACES.map(async (spec) => ({ spec, body: await readFile(resolve(spec)) })));
    const hash = createHash('sha256');
    for (const f of files) hash.update(f.body);
    const dir = path.join(tmpdir(), `linkpage-card-fonts-${hash.digest('hex').slice(0, 12)}`);
    await mkdir(dir, { recursive: true });
    for (const f of files) {
      const file = path.join(dir, `${path.basename(f.spec, '.woff')}.ttf`);
      // Written beside it and renamed over it: fontconfig maps the file into every process that
      // loaded it, and one truncated in place (another process starting) ends those with SIGBUS.
      const written = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(written, sfntOf(f.body));
      await rename(written, file).catch(async (err) => {
        await rm(written, { force: true });
        throw err;
      });
      // Rendering one letter with `fontfile` adds the file to fontconfig's fonts for the process.
      await sharp({ text: { text: 'a', fontfile: file } })
        .png()
        .toBuffer();
    }
  })().catch((err) => {
    ready = null;
    throw err;
  });
  return ready;
}
