// Golden prompts for server-everything's get-sum ("Returns the sum of two numbers") whose askers say "total",
// "plus" and "combined", words its description lacks: the offline generator adds them, so a candidate is really
// better for a lexical search and for a model that matches words. Negatives belong to the server's other tools;
// two echo prompts are the sibling prompts of the no-stealing check. Every third prompt of a category is held out.
export const SUM_PROMPTS = [
  { tool: 'get-sum', category: 'direct', prompt: 'add 12 and 30, what is the total' },
  { tool: 'get-sum', category: 'direct', prompt: 'plus: 7 plus 8 gives what total' },
  { tool: 'get-sum', category: 'direct', prompt: 'what do 19 and 23 add up to' },
  { tool: 'get-sum', category: 'direct', prompt: 'total of 4 plus 6 please' },
  { tool: 'get-sum', category: 'direct', prompt: 'add these up: 100 and 250' },
  { tool: 'get-sum', category: 'direct', prompt: 'compute 5 plus 9 as a total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'my rent was 900 and food 300, how much did I spend in total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'two invoices of 40 and 60 dollars; what is the combined total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'I walked 3 km then 5 km, how far in total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'combined cost of a 20 dollar book plus a 15 dollar pen' },
  { tool: 'get-sum', category: 'indirect', prompt: 'how many apples if I have 3 and buy 4 more, the total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'what is my combined score: 45 in round one plus 38 in round two' },
  { tool: 'get-sum', category: 'negative', prompt: 'echo back the words hello world' },
  { tool: 'get-sum', category: 'negative', prompt: 'print the environment variables of the server' },
  { tool: 'get-sum', category: 'negative', prompt: 'show me a tiny image of the logo' },
  { tool: 'get-sum', category: 'negative', prompt: 'compress my notes file with gzip' },
  { tool: 'get-sum', category: 'negative', prompt: 'turn the simulated logging on' },
  { tool: 'get-sum', category: 'negative', prompt: 'run a deep research query about whales' },
  { tool: 'echo', category: 'direct', prompt: 'echo this message back to me' },
  { tool: 'echo', category: 'direct', prompt: 'echo back: testing one two' },
];
