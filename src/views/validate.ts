// Owns argument validation for tool_execute: a tool's arguments checked against its inputSchema
// before the call is forwarded. The verdict comes from the MCP SDK's own ajv-based validator
// (@modelcontextprotocol/server/validators/ajv, which picks the JSON Schema dialect from `$schema`);
// the offending fields come from the SDK's draft-07 Ajv with allErrors, whose errors are structured.
// Compiled validators are cached per schema object; a schema that does not compile is not checked
// (the server still validates). ajv loads with the first check, not with the gateway: it was
// ~30-45 ms of every start, and only meta mode's tool_execute checks arguments.
import { createRequire } from 'node:module';

type AjvValidators = typeof import('@modelcontextprotocol/server/validators/ajv');
let validators: AjvValidators | undefined;
/** The SDK's ajv validators (its CommonJS build, loaded once, on first use). */
const ajvValidators = (): AjvValidators => (validators ??= createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as AjvValidators);

export interface FieldIssue {
  /** JSON pointer of the offending value ("" is the arguments object itself), or the missing/extra property. */
  field: string;
  message: string;
  keyword: string;
}

export interface ValidationVerdict {
  valid: boolean;
  issues: FieldIssue[];
  /** The parts of the schema the issues concern (properties of the offending fields, required, additionalProperties). */
  schemaExcerpt?: Record<string, unknown>;
}

type Check = (input: unknown) => { valid: boolean; errorMessage?: string };
interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
interface AjvFunction {
  (input: unknown): boolean;
  errors?: AjvError[] | null;
}

let provider: InstanceType<AjvValidators['AjvJsonSchemaValidator']> | undefined;
let detailAjv: { compile(schema: unknown): AjvFunction } | undefined;
const checks = new WeakMap<object, Check | null>();
const details = new WeakMap<object, AjvFunction | null>();

function checkFor(schema: object): Check | null {
  if (checks.has(schema)) return checks.get(schema)!;
  let check: Check | null;
  try {
    provider ??= new (ajvValidators().AjvJsonSchemaValidator)();
    check = provider.getValidator(schema as never) as Check;
  } catch {
    check = null;
  }
  checks.set(schema, check);
  return check;
}

function detailFor(schema: object): AjvFunction | null {
  if (details.has(schema)) return details.get(schema)!;
  let fn: AjvFunction | null;
  try {
    detailAjv ??= new (ajvValidators().Ajv)({ strict: false, validateSchema: false, allErrors: true }) as unknown as { compile(schema: unknown): AjvFunction };
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    fn = detailAjv.compile(rest);
  } catch {
    fn = null;
  }
  details.set(schema, fn);
  return fn;
}

export function validateArguments(schema: unknown, args: unknown): ValidationVerdict {
  if (!schema || typeof schema !== 'object') return { valid: true, issues: [] };
  const check = checkFor(schema);
  if (!check) return { valid: true, issues: [] };
  const verdict = check(args);
  if (verdict.valid) return { valid: true, issues: [] };
  const detail = detailFor(schema);
  let issues: FieldIssue[] = [];
  if (detail && !detail(args)) issues = (detail.errors ?? []).map(issueOf);
  if (issues.length === 0) issues = [{ field: '', keyword: 'schema', message: verdict.errorMessage ?? 'does not match the input schema' }];
  return { valid: false, issues, schemaExcerpt: excerpt(schema as Record<string, unknown>, issues) };
}

function issueOf(error: AjvError): FieldIssue {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const property = (error.params.missingProperty ?? error.params.additionalProperty) as string | undefined;
  const field = property !== undefined ? [path, property].filter(Boolean).join('.') : path;
  let message = error.message ?? error.keyword;
  if (error.keyword === 'required') message = 'is required';
  if (error.keyword === 'additionalProperties') message = 'is not allowed (no such parameter)';
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) message = `must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return { field: field || '(arguments)', message, keyword: error.keyword };
}

/** The schema of each offending top-level field, plus required / additionalProperties when they matter. */
function excerpt(schema: Record<string, unknown>, issues: FieldIssue[]): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  for (const issue of issues) {
    const top = issue.field.split('.')[0]!;
    if (top in properties) fields[top] = properties[top];
  }
  if (Object.keys(fields).length) out.properties = fields;
  if (Array.isArray(schema.required)) out.required = schema.required;
  if (issues.some((i) => i.keyword === 'additionalProperties')) {
    out.additionalProperties = schema.additionalProperties;
    out.allowedProperties = Object.keys(properties);
  }
  return out;
}

export function describeIssues(issues: FieldIssue[]): string {
  return issues.map((i) => `${i.field} ${i.message}`).join('; ');
}
