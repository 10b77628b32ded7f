/**
 * The single-process unit runs Node as `npm start` does: the start script's flags and malloc
 * settings are what bench/README.md measured, and the unit repeats them by hand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('ops/deploy/linkpage.service and npm start', () => {
  it("runs Node with the start script's flags and its malloc settings' defaults", () => {
    const start: string = JSON.parse(read('package.json')).scripts.start;
    const flags = /exec node (.*) ops\/build\/start\.mjs$/.exec(start)?.[1].split(' ');
    const malloc = Object.fromEntries([...start.matchAll(/(MALLOC_\w+)=\$\{\1:-(\w+)\}/g)].map((m) => [m[1], m[2]]));
    expect(flags, 'the flags of the start script').to.include('--expose-gc');
    expect(Object.keys(malloc)).to.have.members(['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']);

    const unit = read('ops/deploy/linkpage.service');
    const exec = /^ExecStart=\/usr\/bin\/node (.*) \/opt\/linkpage\/ops\/build\/start\.mjs$/m
      .exec(unit)?.[1]
      .split(' ');
    expect(exec, 'the flags of ExecStart').to.deep.equal(flags);
    const env = Object.fromEntries(
      [...unit.matchAll(/^Environment=(.*)$/gm)].flatMap((m) => m[1].split(' ').map((kv) => kv.split('='))),
    );
    for (const [name, value] of Object.entries(malloc)) expect(env[name], name).to.equal(value);
  });
});
