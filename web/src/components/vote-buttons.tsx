import { useState } from 'preact/hooks';
import { describe } from '../errors';

type Vote = 'up' | 'down';

/**
 * **Thumbs up** / **Thumbs down** (`aria-pressed` shows the vote given) for a persona's version or
 * video. Up is sent at once; down asks **What is wrong?** first (the API takes a reason with it),
 * sent with **Send** or Enter, Escape cancels. `describedBy` names what is rated (its heading).
 */
export function VoteButtons({
  vote,
  describedBy,
  send,
}: {
  vote: string | null | undefined;
  describedBy: string;
  send(vote: Vote, reason?: string): Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const reasonId = `${describedBy}-reason`;

  const submit = async (v: Vote, why?: string) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await send(v, why);
      setAsking(false);
      setReason('');
      setDone(v === 'up' ? 'Thanks: marked as good.' : 'Thanks: marked as not right.');
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="votes">
      <div class="actions">
        <button type="button" class="vote" aria-pressed={vote === 'up'} aria-describedby={describedBy} disabled={busy} onClick={() => void submit('up')}>
          <span class="vote-icon up" aria-hidden="true" />
          Thumbs up
        </button>
        <button
          type="button"
          class="vote"
          aria-pressed={vote === 'down'}
          aria-describedby={describedBy}
          aria-expanded={asking}
          aria-controls={asking ? reasonId : undefined}
          disabled={busy}
          onClick={() => {
            setAsking((a) => !a);
            setError(null);
          }}
        >
          <span class="vote-icon down" aria-hidden="true" />
          Thumbs down
        </button>
      </div>
      {asking && (
        <form
          class="vote-reason"
          id={reasonId}
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) return setError('Say what is wrong first: the reason goes with a thumbs down.');
            void submit('down', reason.trim());
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setAsking(false);
          }}
        >
          <label for={`${reasonId}-input`}>What is wrong?</label>
          <input id={`${reasonId}-input`} type="text" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <button type="submit" disabled={busy}>
            Send
          </button>
        </form>
      )}
      {done && !error && (
        <p class="muted small" role="status">
          {done}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
