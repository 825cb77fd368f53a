// Owns lenient reading of listed entries: a server with one malformed tool still contributes the
// rest. Each entry is kept as the server sent it when valid, repaired when the fix is unambiguous
// (a schema missing "type": "object"), or skipped, always with a warning naming server and entry.
export interface RepairResult<T> {
  items: T[];
  warnings: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema as given, a repaired copy, or null when the entry must be skipped. */
function repairSchema(schema: unknown, label: string, field: string, warnings: string[]): Json | null {
  if (!isObject(schema)) {
    warnings.push(`${label}: ${field} is not an object; replaced with an empty object schema`);
    return { type: 'object' };
  }
  if (schema.type === undefined) {
    warnings.push(`${label}: ${field} has no "type"; added "type": "object"`);
    return { type: 'object', ...schema };
  }
  if (schema.type !== 'object') {
    warnings.push(`${label}: ${field} has "type": ${JSON.stringify(schema.type)}, not "object"; skipped`);
    return null;
  }
  return schema;
}

/** Tools: need a string name and an object input schema. */
export function repairTools(serverKey: string, raw: unknown[]): RepairResult<Json> {
  const items: Json[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const name = isObject(entry) && typeof entry.name === 'string' && entry.name ? entry.name : undefined;
    const label = `server "${serverKey}": tool ${name ? `"${name}"` : `#${index}`}`;
    if (!isObject(entry) || !name) {
      warnings.push(`${label}: has no name; skipped`);
      return;
    }
    if (seen.has(name)) {
      warnings.push(`${label}: listed twice; the second entry is skipped`);
      return;
    }
    let tool = entry;
    let input: Json | null;
    if (entry.inputSchema === undefined) {
      warnings.push(`${label}: has no inputSchema; added an empty object schema`);
      input = { type: 'object' };
    } else {
      input = repairSchema(entry.inputSchema, label, 'inputSchema', warnings);
    }
    if (input === null) return;
    if (input !== entry.inputSchema) tool = { ...tool, inputSchema: input };
    if (entry.outputSchema !== undefined) {
      const output = repairSchema(entry.outputSchema, label, 'outputSchema', warnings);
      if (output === null) tool = Object.fromEntries(Object.entries(tool).filter(([k]) => k !== 'outputSchema'));
      else if (output !== entry.outputSchema) tool = { ...tool, outputSchema: output };
    }
    seen.add(name);
    items.push(tool);
  });
  return { items, warnings };
}

/** Prompts, resources and templates: need their identifying string field. */
export function repairNamed(serverKey: string, kind: string, idField: string, raw: unknown[]): RepairResult<Json> {
  const items: Json[] = [];
  const warnings: string[] = [];
  raw.forEach((entry, index) => {
    if (isObject(entry) && typeof entry[idField] === 'string' && entry[idField]) items.push(entry);
    else warnings.push(`server "${serverKey}": ${kind} #${index} has no ${idField}; skipped`);
  });
  return { items, warnings };
}

/** Applies a server's enabledTools / disabledTools: the rest are dropped from its listing. */
export function selectTools(tools: Json[], selection: { enabledTools?: string[]; disabledTools?: string[] }): Json[] {
  const enabled = selection.enabledTools ? new Set(selection.enabledTools) : undefined;
  const disabled = new Set(selection.disabledTools ?? []);
  return tools.filter((t) => (!enabled || enabled.has(t.name as string)) && !disabled.has(t.name as string));
}
