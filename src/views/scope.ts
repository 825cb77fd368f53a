// Owns a client's scope: which servers and tools one authenticated HTTP client may see and call.
// Globs use `*` (any run of characters) and `?` (one character); tool globs match `server.tool`
// (original names) or the exposed name.

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export class ClientScope {
  private readonly servers: RegExp[] | undefined;
  private readonly tools: RegExp[] | undefined;

  constructor(
    readonly client: string,
    servers?: readonly string[],
    tools?: readonly string[],
  ) {
    this.servers = servers?.map(globToRegExp);
    this.tools = tools?.map(globToRegExp);
  }

  /** True when the scope restricts nothing (every server, every tool). */
  get unrestricted(): boolean {
    return !this.servers && !this.tools;
  }

  allowsServer(server: string): boolean {
    return !this.servers || this.servers.some((re) => re.test(server));
  }

  allowsTool(server: string, tool: string, exposed?: string): boolean {
    if (!this.allowsServer(server)) return false;
    if (!this.tools) return true;
    const qualified = `${server}.${tool}`;
    return this.tools.some((re) => re.test(qualified) || (exposed !== undefined && re.test(exposed)));
  }

  /** The message of a refused call, naming the client and what its scope allows. */
  refusal(what: string): string {
    return `Client "${this.client}" may not use ${what}: it is outside the client's scope (switchboard.clients[].servers / tools in the configuration).`;
  }
}
