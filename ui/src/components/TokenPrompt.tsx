// Owns asking for a client token when the gateway refuses a request for want of one: the gateway's own
// message, a password field, and saving the token in this browser (localStorage) for later visits.
import { useState } from 'preact/hooks';
import { saveToken } from '../api';
import { Modal } from './Overlay';

export function TokenPrompt({ reason, onSaved, onClose }: { reason: string; onSaved(): void; onClose(): void }) {
  const [token, setToken] = useState('');
  return (
    <Modal title="Token required" onClose={onClose}>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!token.trim()) return;
          saveToken(token.trim());
          onSaved();
        }}
      >
        <p class="muted">{reason}</p>
        <p class="small">
          Create an admin client token with <code>switchboard token create dashboard --admin --write</code> and paste it here. It is kept in this browser only and sent as a bearer token.
        </p>
        <label>
          Client token
          <input type="password" name="token" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} placeholder="sbt_…" autofocus />
        </label>
        <footer class="overlay-foot">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" class="primary" disabled={!token.trim()}>Save token</button>
        </footer>
      </form>
    </Modal>
  );
}
