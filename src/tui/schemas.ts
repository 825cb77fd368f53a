// Owns the shapes of the admin API answers the terminal UI reads, as zod schemas: every answer is checked here
// before a view sees it, so a gateway of another version fails with a clear message instead of a broken screen.
// Loose objects: fields the UI does not use may come and go.
import { z } from 'zod';

const connection = z.looseObject({
  state: z.string(),
  pid: z.number().nullable(),
  connectedAt: z.string().nullable(),
  restarts: z.number(),
  lastError: z.string().nullable(),
});

export const serversAnswer = z.looseObject({
  servers: z.array(z.looseObject({ key: z.string(), transport: z.string(), state: z.string(), error: z.string().nullable(), connections: z.array(connection) })),
  sessions: z.number(),
});
export type ServerRow = z.infer<typeof serversAnswer>['servers'][number];

export const serverToolsAnswer = z.looseObject({
  server: z.string(),
  enabledTools: z.array(z.string()).nullable(),
  disabledTools: z.array(z.string()).nullable(),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string(), enabled: z.boolean() })),
});
export type ServerTools = z.infer<typeof serverToolsAnswer>;

export const activityEvent = z.looseObject({
  kind: z.enum(['call', 'server-request']),
  at: z.number(),
  server: z.string(),
  tool: z.string().optional(),
  method: z.string().optional(),
  session: z.string().optional(),
  status: z.string().optional(),
  durationMs: z.number().optional(),
  error: z.string().optional(),
});
export type ActivityEvent = z.infer<typeof activityEvent>;

export const searchAnswer = z.looseObject({
  query: z.string(),
  mode: z.string(),
  note: z.string().optional(),
  tools: z.array(z.looseObject({ name: z.string(), server: z.string(), tool: z.string(), score: z.number(), relevance: z.number().optional(), description: z.string() })),
});
export type SearchAnswer = z.infer<typeof searchAnswer>;

const modeTokens = z.looseObject({ tools: z.number(), tokens: z.number() });
export const tokensAnswer = z.looseObject({ encoding: z.string(), passthrough: modeTokens, meta: modeTokens, toolset: modeTokens.optional(), tokenBudget: z.number(), maxTools: z.number() });
export type TokensAnswer = z.infer<typeof tokensAnswer>;

const rate = z.looseObject({ rate: z.number(), low: z.number(), high: z.number(), runs: z.number(), successes: z.number() });
export type Rate = z.infer<typeof rate>;
const toolState = z.looseObject({
  tool: z.string(),
  enabled: z.boolean(),
  optimized: z.boolean(),
  forced: z.boolean(),
  stale: z.boolean(),
  canonical: z.looseObject({ text: z.string(), chars: z.number() }),
  promoted: z.looseObject({ text: z.string(), chars: z.number(), candidateId: z.string().optional() }).optional(),
  prompts: z.looseObject({ direct: z.number(), indirect: z.number(), negative: z.number(), total: z.number() }),
  candidates: z.number(),
  evaluation: z
    .looseObject({ batch: z.string(), candidateId: z.string().optional(), passes: z.boolean(), refused: z.string().optional(), categories: z.array(z.looseObject({ category: z.string(), before: rate, after: rate.optional() })) })
    .optional(),
});
export type ToolState = z.infer<typeof toolState>;

export const runProgress = z.looseObject({
  id: z.string(),
  state: z.enum(['running', 'completed', 'cancelled', 'failed']),
  backend: z.string(),
  servers: z.array(z.string()),
  phase: z.string(),
  server: z.string().optional(),
  tool: z.string().optional(),
  done: z.number(),
  total: z.number(),
  etaMs: z.number().optional(),
  promptsTested: z.looseObject({ direct: z.number(), indirect: z.number(), negative: z.number() }).optional(),
  candidate: z.looseObject({ n: z.number(), m: z.number() }).optional(),
  outcomes: z.array(z.looseObject({ server: z.string(), tool: z.string(), skipped: z.string().optional(), passing: z.string().optional(), promoted: z.string().optional(), refused: z.string().optional() })),
  error: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type RunProgress = z.infer<typeof runProgress>;

export const optimizeAnswer = z.looseObject({
  servers: z.array(z.looseObject({ server: z.string(), optimized: z.number(), total: z.number(), tools: z.array(toolState) })),
  run: runProgress.nullable(),
  defaults: z.looseObject({ candidates: z.number(), repeats: z.number(), backend: z.string(), autoPromoteThreshold: z.number() }),
  backends: z.array(z.string()),
});
export type OptimizeAnswer = z.infer<typeof optimizeAnswer>;
export type ServerOptimization = OptimizeAnswer['servers'][number];

export const promptsAnswer = z.looseObject({
  server: z.string(),
  tools: z.array(
    z.looseObject({
      tool: z.string(),
      rates: z.record(z.string(), z.number()),
      prompts: z.array(z.looseObject({ id: z.string(), category: z.string(), split: z.string(), prompt: z.string(), expectedBehavior: z.looseObject({ shouldCallTool: z.boolean(), notes: z.string().optional() }), canonical: z.string(), candidate: z.string().optional(), passed: z.boolean().optional() })),
    }),
  ),
});
export type PromptsAnswer = z.infer<typeof promptsAnswer>;

export const errorAnswer = z.looseObject({ error: z.string() });
