/** HTML escaping for text and double-quoted attributes: the same five characters Eta's `<%=` escapes. */

const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function entity(c: string): string {
  return ENTITIES[c];
}

export function escapeHtml(value: unknown): string {
  const s = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, entity) : s;
}
