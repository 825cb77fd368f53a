// The command line's definition (src/cli/program.ts): a run that names a command registers that one
// alone, with all it had when every command was registered; a run that names none gets them all.
import { describe, expect, it } from 'vitest';
import { buildProgram, isCommandName } from '../../src/cli/program.js';

const ALL = ['serve', 'daemon', 'tui', 'connect', 'import', 'install', 'uninstall', 'doctor', 'login', 'logout', 'logs', 'servers', 'tools', 'call', 'metrics', 'changes', 'refresh', 'search', 'embed', 'bench', 'optimize', 'toolset', 'token', 'approve'];

describe('buildProgram', () => {
  it('registers every command, in the order help lists them, when no command is named', () => {
    expect(buildProgram().commands.map((c) => c.name())).toEqual(ALL);
  });

  it('registers only the named command, with the same options, arguments and subcommands', () => {
    const full = buildProgram();
    for (const name of ALL) {
      expect(isCommandName(name)).toBe(true);
      const alone = buildProgram(name as Parameters<typeof buildProgram>[0]);
      expect(alone.commands.map((c) => c.name()), name).toEqual([name]);
      const same = full.commands.find((c) => c.name() === name)!;
      expect(alone.commands[0]!.helpInformation(), name).toBe(same.helpInformation());
      expect(alone.commands[0]!.commands.map((c) => c.name()), name).toEqual(same.commands.map((c) => c.name()));
    }
  });

  it('names no command for help, flags, typos or nothing', () => {
    for (const word of [undefined, 'help', '--help', '-V', 'serv', 'constructor', '__proto__', 'toString']) expect(isCommandName(word), String(word)).toBe(false);
  });
});
