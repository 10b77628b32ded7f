/** An API key as the dashboard and /api/keys show it: never the key, only its hint. */
import type { ApiKey } from '../entities.js';

export function presentKey(row: ApiKey) {
  return {
    id: row.id,
    label: row.label,
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    role: row.role,
    pages: row.pages,
  };
}
