// Owns what a catalog tool contributes to the index: the ToolDoc input shape, the searchable fields
// (name, server key, description, parameters, enum values, learned queries, server description) and the text of each, read
// from the tool's inputSchema (nested properties, array items and anyOf/oneOf branches included).

/** One catalog tool as the index sees it. `key` is the exposed name and must be unique. */
export interface ToolDoc {
  key: string;
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  serverDescription?: string;
}

export const FIELDS = ['name', 'server', 'description', 'params', 'enums', 'learned', 'serverInfo'] as const;
export type Field = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;
export const LEARNED = FIELDS.indexOf('learned');

/**
 * Per-field texts of a tool (the learned field is filled by the expansion store, not here): the server
 * key is the `server` field, the server's title and description the `serverInfo` field. Without
 * `withServerDescription` serverInfo is left empty (the index adds the server description's terms
 * from a cache shared by the server's tools).
 */
export function fieldTexts(doc: ToolDoc, withServerDescription = true): string[] {
  const params: string[] = [];
  const enums: string[] = [];
  walkSchema(doc.inputSchema, params, enums, 0);
  // The exposed key usually is `<server>_<name>`; index it only when it says something new.
  const keyExtra = doc.key.includes(doc.name) ? '' : doc.key;
  return [
    [doc.name, doc.title ?? '', keyExtra].join(' '),
    doc.server,
    [doc.title ?? '', doc.description ?? ''].join(' '),
    params.join(' '),
    enums.join(' '),
    '',
    withServerDescription ? (doc.serverDescription ?? '') : '',
  ];
}

function walkSchema(schema: unknown, params: string[], enums: string[], depth: number): void {
  if (!schema || typeof schema !== 'object' || depth > 4) return;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) for (const v of s.enum) if (typeof v === 'string' || typeof v === 'number') enums.push(String(v));
  const props = s.properties;
  if (props && typeof props === 'object') {
    for (const [name, sub] of Object.entries(props as Record<string, unknown>)) {
      params.push(name);
      if (sub && typeof sub === 'object') {
        const d = (sub as Record<string, unknown>).description;
        if (typeof d === 'string') params.push(d);
      }
      walkSchema(sub, params, enums, depth + 1);
    }
  }
  if (s.items) walkSchema(s.items, params, enums, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = s[k];
    if (Array.isArray(branches)) for (const b of branches) walkSchema(b, params, enums, depth + 1);
  }
}
