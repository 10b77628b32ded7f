/**
 * Both OpenAPI documents as Redocly's linter reads them (`redocly lint`'s engine,
 * @redocly/openapi-core, with its `recommended` rules): no error; the warnings counted by rule.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';

/** Redocly's problems with the document at `path`, as "rule: message at pointer" lines, by severity. */
async function lint(path: string) {
  const source = await (await fetch(`${app().url}${path}`)).text();
  const problems = await lintFromString({
    source,
    absoluteRef: `${app().url}${path}`,
    config: await createConfig({ extends: ['recommended'] }),
  });
  const line = (p: (typeof problems)[number]) =>
    `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;
  return {
    errors: problems.filter((p) => p.severity === 'error').map(line),
    warnings: problems.filter((p) => p.severity === 'warn').map(line),
  };
}

describe("the OpenAPI documents, by Redocly's recommended rules", () => {
  for (const path of ['/openapi.json', '/openapi-3.1.json']) {
    it(`finds no error in ${path}`, async () => {
      const { errors, warnings } = await lint(path);
      const byRule = new Map<string, number>();
      for (const rule of warnings.map((w) => w.split(':')[0])) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      if (warnings.length)
        console.log(`      ${warnings.length} warnings: ${[...byRule].map(([rule, n]) => `${rule} ${n}`).join(', ')}`);
      expect(errors).to.deep.equal([]);
    });
  }
});
