// The MCP SDK's default JSON Schema validator (ajv), loaded on its first use instead of with the
// SDK: scripts/bundle.mjs gives the bundle's copies of the SDK (client and server each carry ajv)
// this class where they would import ajv's provider at once. The gateway never validates with it
// (it forwards tools' results and elicitation schemas as they are), and loading ajv twice was
// ~30-45 ms of every start. When the SDK does use it, the package's own CommonJS build of the
// validator loads then, from node_modules, and answers exactly as the SDK's would.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A DefaultJsonSchemaValidator class whose engine is `specifier`'s AjvJsonSchemaValidator (e.g.
 * '@modelcontextprotocol/server/validators/ajv'), made on the first getValidator call.
 * @param {string} specifier
 */
export function lazyValidatorClass(specifier) {
  return class DefaultJsonSchemaValidator {
    /** @type {{getValidator(schema: unknown): (input: unknown) => unknown} | undefined} */
    #engine;

    /** @param {unknown} schema */
    getValidator(schema) {
      this.#engine ??= new (load(specifier).AjvJsonSchemaValidator)();
      return this.#engine.getValidator(schema);
    }
  };
}
