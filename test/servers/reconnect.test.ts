// A stdio server that dies is started again on the next use; the session is not affected and the
// failure in between is a clear, typed error naming the server.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdio, descendants, isAlive, npmServer, waitFor, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();

describe('downstream restart on next use', () => {
  it('restarts a killed stdio server when it is next called', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const { client, pid, close } = await connectStdio(config);
    try {
      const first = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'one' } } }, ANY);
      expect(first.content[0].text).toBe('Echo: one');
      const [child] = await descendants(pid!);
      expect(child).toBeDefined();
      process.kill(child!, 'SIGKILL');
      await waitFor(() => !isAlive(child!), 'the server to die');

      // The next call starts it again.
      const second = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'two' } } }, ANY);
      expect(second.content[0].text).toBe('Echo: two');
      const [replacement] = await descendants(pid!);
      expect(replacement).toBeDefined();
      expect(replacement).not.toBe(child);
    } finally {
      await close();
    }
  });
});
