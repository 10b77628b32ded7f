/** An API key as the dashboard and /api/keys show it: never the key, only its hint. */
import type { ApiKeyRow } from '../../store/keys.js';

export function presentKey(row: ApiKeyRow) {
  return {
    id: row.id,
    label: row.label,
    hint: row.hint,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    createdBy: row.created_by,
  };
}
