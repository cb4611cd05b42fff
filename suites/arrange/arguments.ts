// Tool arguments derived from a tool's inputSchema, for discovery (runner/discovery.ts): samples from
// openapi-sampler (defaults, examples, const/enum, formats, patterns, bounds), each validated with ajv
// against the schema before it is used. A schema no sample satisfies yields no arguments, and the reason.
import { sample } from 'openapi-sampler';
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { isObj } from '../../schema/json.ts';

// NodeNext types a CJS default import as the whole module (see schema/validate.ts).
const Ajv = AjvModule.default ?? AjvModule;
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;

export interface ArgumentVariant {
  arguments: Record<string, unknown>;
  /** How the arguments were chosen, e.g. "required properties only" or "ambiguous: true". */
  label: string;
}

export interface DerivedArguments {
  /** Valid argument objects, the plainest first. Empty when none could be derived. */
  variants: ArgumentVariant[];
  /** Why no (or fewer) arguments could be derived: compile errors, validation errors of the samples. */
  problems: string[];
}

let draft7: InstanceType<typeof Ajv> | undefined;
let draft2020: InstanceType<typeof Ajv2020> | undefined;

/** Compiles a tool's inputSchema with the dialect it names ($schema draft-07 or older: draft-07; otherwise 2020-12, the MCP default). */
export function compileInputSchema(schema: Record<string, unknown>): ValidateFunction {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const { $schema: _ignored, ...rest } = schema; // the dialect is chosen here; ajv need not resolve the meta-schema URI
  if (/draft-0[4-7]/.test(dialect)) {
    draft7 ??= addFormats(new Ajv({ strict: false, allErrors: true, validateSchema: false }));
    return draft7.compile(rest);
  }
  draft2020 ??= addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
  return draft2020.compile(rest);
}

/** The arguments object a schema accepts, or why not. `schema` missing means no arguments: `{}`. */
export function validateArguments(schema: unknown, args: unknown): string[] {
  if (!isObj(schema)) return [];
  let validate: ValidateFunction;
  try {
    validate = compileInputSchema(schema);
  } catch (e) {
    return [`inputSchema does not compile: ${e instanceof Error ? e.message : String(e)}`];
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/**
 * Argument objects for a tool: first the required properties only (the target's own defaults apply to
 * the rest), else every property sampled; then, for each optional boolean whose default is not true,
 * the same with that flag set (a flag often switches a behaviour on, e.g. asking for input).
 */
export function deriveArguments(inputSchema: unknown, maxVariants = 3): DerivedArguments {
  const schema = isObj(inputSchema) ? inputSchema : { type: 'object' };
  const problems: string[] = [];
  const candidates: ArgumentVariant[] = [
    { arguments: sampleObject(schema, true), label: 'required properties only' },
    { arguments: sampleObject(schema, false), label: 'every property sampled' },
  ];
  let base: ArgumentVariant | undefined;
  for (const c of candidates) {
    const errors = validateArguments(schema, c.arguments);
    if (errors.length === 0) {
      base = c;
      break;
    }
    problems.push(`${c.label} ${JSON.stringify(c.arguments)}: ${errors.join('; ')}`);
  }
  if (!base) return { variants: [], problems };
  const variants = [base];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isObj(schema.properties) ? schema.properties : {};
  for (const [name, prop] of Object.entries(properties)) {
    if (variants.length >= maxVariants) break;
    if (required.has(name) || !isObj(prop) || prop.type !== 'boolean' || prop.default === true || base.arguments[name] === true) continue;
    const args = { ...base.arguments, [name]: true };
    if (validateArguments(schema, args).length === 0) variants.push({ arguments: args, label: `${name}: true` });
  }
  return { variants, problems: [] };
}

function sampleObject(schema: Record<string, unknown>, skipNonRequired: boolean): Record<string, unknown> {
  try {
    const v = sample(schema as never, { skipNonRequired, skipReadOnly: true, quiet: true, enablePatterns: true });
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
}
