import { useState } from 'preact/hooks';
import { CutroomError, ok } from '@cutroom/sdk/browser';
import { clientFor, saveSession, type Session } from '../session';
import { describe } from '../errors';
import { usePageTitle } from '../hooks';

/** Sign-in with an API key: checked with GET /workspace before it is kept (in this tab's sessionStorage only). */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (s: Session) => void; notice: string | null }) {
  usePageTitle('Sign in');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [workspaces, setWorkspaces] = useState<Array<{ id: string; name: string }> | null>(null);
  const [workspaceId, setWorkspaceId] = useState('');

  const submit = async (e: Event) => {
    e.preventDefault();
    const key = apiKey.trim();
    if (!key) return setError('Enter your API key.');
    setBusy(true);
    setError(null);
    const session: Session = { apiKey: key, workspaceId: workspaces ? workspaceId : undefined };
    try {
      await ok(clientFor(session).api.GET('/api/v1/workspace'));
      saveSession(session);
      onSignedIn(session);
    } catch (err) {
      if (err instanceof CutroomError && err.code === 'MISSING_WORKSPACE_ID' && Array.isArray(err.extra?.workspace_ids)) {
        const ids = err.extra.workspace_ids as string[];
        // Each workspace's name, asked with the key in that workspace.
        const named = await Promise.all(
          ids.map((id) =>
            ok(clientFor({ apiKey: key, workspaceId: id }).api.GET('/api/v1/workspace')).then(
              (w) => ({ id, name: w.name }),
              () => ({ id, name: id }),
            ),
          ),
        );
        setWorkspaces(named);
        setWorkspaceId(ids[0] ?? '');
        setError('This key opens several workspaces: choose one, then sign in.');
      } else {
        setError(describe(err));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="sign-in card">
      <h1 tabIndex={-1}>Sign in</h1>
      <p class="muted">Use an API key of your workspace. The first start of the service prints one (and keeps it in the data folder’s api-key file).</p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="api-key">API key</label>
          <input
            id="api-key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={apiKey}
            onInput={(e) => setApiKey(e.currentTarget.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'api-key-error' : undefined}
          />
          {error && (
            <p id="api-key-error" class="error" role="alert">
              {error}
            </p>
          )}
        </div>
        {workspaces && (
          <div class="field">
            <label for="workspace">Workspace</label>
            <select id="workspace" value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
