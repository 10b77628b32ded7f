/**
 * tools/list's outputSchema as an outline: an answer's fields (a list's: its items') with the
 * type and description of each, and no deeper. A page's whole shape (its profile, every kind of
 * block with every field) is in the input schemas of create_page and update_page and in
 * openapi.json; six tools answer a page, and listing it in full six times over made tools/list
 * 87 KB, most of it one schema. The outline still describes every answer truly (MCP clients
 * check structuredContent against it).
 */
type Json = Record<string, unknown>;

/** The JSON Schema types a schema admits, read from `type`, `const`, `enum` and its unions. */
function typesOf(schema: Json): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const members = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (members) return [...new Set(members.flatMap(typesOf))];
  const values = 'const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? []);
  return [...new Set(values.map((x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x)))];
}

/** The schema with its structure kept to `depth` levels of properties and items; deeper, the type alone. */
export function outline(schema: Json, depth: number): Json {
  if (depth <= 0) {
    const types = typesOf(schema);
    if (types.length === 0) return schema;
    const typed: Json = { type: types.length === 1 ? types[0] : types };
    if (typeof schema.description === 'string') typed.description = schema.description;
    return typed;
  }
  const out: Json = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Json>).map(([k, s]) => [k, outline(s, depth - 1)]),
    );
  }
  // A list's items are its level: `pages` lists the fields of a page as `page` does.
  if (schema.items && typeof schema.items === 'object') out.items = outline(schema.items as Json, depth);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key] as Json[] | undefined;
    // A union is no level of its own: its members are outlined at this depth.
    if (members) out[key] = members.map((m) => outline(m, depth));
  }
  return out;
}
