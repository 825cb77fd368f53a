// Types of lazy-json-schema-validator.mjs (for the tests that import it).
export declare function lazyValidatorClass(specifier: string): new () => { getValidator(schema: unknown): (input: unknown) => unknown };
