// Starts the app: one client for the API the page names, TanStack Query over it, and a 401 from
// any call sends the user back to the key screen with the API's message.
import { isApiErrorBody } from "@animal-store/client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { createApi } from "./api.js";
import { apiBaseUrl } from "./api-base-url.js";
import { createApiKeyStore } from "./api-key.js";
import { ApiContext } from "./hooks.js";
import "./styles.css";

const keys = createApiKeyStore(window.sessionStorage);
const api = createApi(apiBaseUrl(), keys);

const onError = (error: unknown) => {
  if (isApiErrorBody(error) && error.status === 401) keys.forget(error.message);
};

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    // The client already retries what may be retried (429 after Retry-After, GET on network
    // errors); a second layer of retries would only add requests against the rate limit.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 15_000 },
    mutations: { retry: false },
  },
});

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiContext.Provider value={{ api, keys }}>
        <App />
      </ApiContext.Provider>
    </QueryClientProvider>
  </StrictMode>,
);
