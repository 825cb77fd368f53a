#!/usr/bin/env node
// @ts-check
// A stand-in for an OpenAI-compatible chat-completions endpoint, for measuring the llm search mode's
// plumbing where no real chat model is reachable (no network here beyond the package registry). It
// speaks the real wire format (POST /v1/chat/completions -> choices[0].message.content) on 127.0.0.1
// and is not a model: it reads the numbered tool list of the re-ranking prompt and answers
//   --answer identity  [1, 2, ..., n]: the first stage's order (llm mode must then score exactly as
//                      the first stage: nothing lost in the prompt, the answer parsing or the merge)
//   --answer reverse   [n, ..., 1]: the first stage's order upside down (the scores must move: the
//                      model's order is what is returned)
//   --answer prose     a sentence without a JSON array (every query must fall back to the first stage)
//
//   node bench/chat-standin.mjs [--port 0] [--answer identity|reverse|prose]
// Prints `listening http://127.0.0.1:<port>/v1` on stderr once bound; stops on SIGTERM or SIGINT.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, answer: { type: 'string', default: 'identity' } } });
const mode = values.answer;
if (!['identity', 'reverse', 'prose'].includes(String(mode))) {
  process.stderr.write(`--answer must be identity, reverse or prose\n`);
  process.exit(2);
}

/** @param {string} user */
function answerFor(user) {
  const shown = [...user.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
  if (mode === 'prose') return 'The first tool looks most useful.';
  return JSON.stringify(mode === 'reverse' ? shown.reverse() : shown);
}

let served = 0;
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    /** @type {{ model?: string, messages?: Array<{ role: string, content: string }> }} */
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'body is not JSON' } }));
      return;
    }
    const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
    served++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-standin-${served}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? 'stand-in',
        choices: [{ index: 0, message: { role: 'assistant', content: answerFor(user) }, finish_reason: 'stop' }],
      }),
    );
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  process.stderr.write(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : values.port}/v1\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
