// Owns reading the frames of a server-sent event stream (`event:` and `data:` lines, a blank line
// ending each frame; comments skipped) from a fetch body. Web-standard APIs only, so the terminal UI,
// the browser dashboard and the tests all read the gateway's streams (/api/activity,
// /api/optimize/events) with this one reader.

/** Calls `onFrame` with each frame's event type (default "message") and its data lines joined, until the body ends. */
export async function readSseFrames(body: ReadableStream<Uint8Array>, onFrame: (type: string, data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onFrame(type, data.join('\n')); // a frame without data is a comment (keepalive)
    }
  }
}

/** The data of a frame as JSON, or the text itself when it is not JSON. */
export function frameData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
