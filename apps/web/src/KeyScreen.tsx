import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useApi, useValue } from "./hooks.js";

/** Asks for an API key; shown first, and again when the API refuses the key (401). */
export function KeyScreen() {
  const { api, keys } = useApi();
  const { refusal } = useValue(keys);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = keys.enter(draft);
    setProblem(error);
    if (!error) queryClient.clear();
  };

  return (
    <main className="key-screen">
      <form className="card key-card" onSubmit={submit} aria-labelledby="key-title">
        <h1 id="key-title">{refusal ? "Your API key was refused" : "Enter your API key"}</h1>
        {refusal && (
          <p className="notice error" role="alert">
            {refusal}
          </p>
        )}
        <p className="muted">
          Every request to <code>{api.baseUrl}</code> sends it as <code>Authorization: Bearer</code>
          . It stays in this tab's session storage and is gone when you close the tab.
        </p>
        <label className="field">
          <span>API key</span>
          <input
            type="password"
            name="apiKey"
            autoComplete="off"
            spellCheck={false}
            placeholder="ask_…"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "key-problem" : undefined}
          />
          {problem && (
            <span className="field-error" id="key-problem">
              {problem}
            </span>
          )}
        </label>
        <button type="submit" className="button primary">
          Use this key
        </button>
        <p className="hint">
          Against <code>pnpm start</code>, create one with{" "}
          <code>pnpm keys create --plan free --name web</code>. The mock (<code>pnpm mock</code>)
          accepts any key.
        </p>
      </form>
    </main>
  );
}
