// Owns UsageError: a command used wrongly (a bad flag value, a missing argument); exit code 2. Kept
// apart so that the command line can check for it without loading any command.
export class UsageError extends Error {}
