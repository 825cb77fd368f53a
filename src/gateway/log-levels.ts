// Owns ranking MCP log levels (debug ... emergency): whether a message reaches a session that set a
// level, and the most verbose level several sessions sharing a connection asked for.
import type { LoggingLevel } from '@modelcontextprotocol/server';

const LOG_SEVERITY: Record<string, number> = { debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7 };

/** A log level's rank (debug 0 ... emergency 7); unknown levels rank as debug. */
export function logSeverity(level: string): number {
  return LOG_SEVERITY[level] ?? 0;
}

/** The most verbose of some log levels (undefined when none is set). */
export function mostVerbose(levels: Array<LoggingLevel | undefined>): LoggingLevel | undefined {
  return levels.filter((l): l is LoggingLevel => l !== undefined).sort((a, b) => logSeverity(a) - logSeverity(b))[0];
}
