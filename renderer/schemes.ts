/**
 * A template's other colour scheme: `templates/<id>/scheme.css` holds its dark (or, for a dark
 * template, light) counterpart under one `prefers-color-scheme` query, inlined on pages whose
 * owner set theme.scheme to "auto".
 */
import { readFileSync } from 'node:fs';
import type { TemplateId } from '../core/schemas/fields.js';

const TEMPLATES_DIR = new URL('../templates/', import.meta.url);

/** The scheme a template's scheme.css is for (read from its media query). */
export function otherSchemeOf(id: TemplateId): 'light' | 'dark' {
  const css = readFileSync(new URL(`${id}/scheme.css`, TEMPLATES_DIR), 'utf8');
  const scheme = /prefers-color-scheme:\s*(light|dark)/.exec(css)?.[1];
  if (scheme !== 'light' && scheme !== 'dark')
    throw new Error(`template ${id}: scheme.css names no prefers-color-scheme`);
  return scheme;
}
