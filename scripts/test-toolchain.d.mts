// Types of scripts/test-toolchain.mjs for the TypeScript test setup.
export declare const TOOLCHAIN_DIR: string;
export declare function missingPackages(dir?: string): string[];
export declare function ensureToolchain(options?: { log?: (line: string) => void }): void;
