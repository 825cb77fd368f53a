// Types of sdk-shared-schemas.mjs (for the tests that import it).
export declare function planSharedSchemas(root: string): { files: Map<string, Array<{ from: string; to: string }>> } | { problem: string };
export declare function sdkSharedSchemas(root: string): { plugin: { name: string; setup(build: unknown): void }; unused(): string[] };
