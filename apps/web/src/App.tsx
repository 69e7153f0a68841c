import { useQueryClient } from "@tanstack/react-query";
import { AddPetForm } from "./AddPetForm.js";
import { routeOf, useHash } from "./hash-route.js";
import { useApi, useValue } from "./hooks.js";
import { KeyScreen } from "./KeyScreen.js";
import { PauseBanner } from "./PauseBanner.js";
import { PawIcon } from "./PawIcon.js";
import { PetDetail } from "./PetDetail.js";
import { PetList } from "./PetList.js";
import { RateLimitMeter } from "./RateLimitMeter.js";
import { useResumeAfterPause } from "./rate-limit-pause.js";

/** The page: the key screen until a key is entered, then the list beside the form or one animal. */
export function App() {
  const { api, keys } = useApi();
  const { key } = useValue(keys);
  const route = routeOf(useHash());
  const queryClient = useQueryClient();
  return (
    <div className="shell">
      <header className="topbar">
        <a className="brand" href="#/">
          <PawIcon /> Animal Store
        </a>
        <span className="api-address" title="The API this page calls">
          {api.baseUrl}
        </span>
        <div className="topbar-end">
          {key && <RateLimitMeter />}
          {key && (
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                keys.forget(null);
                queryClient.clear();
              }}
            >
              Forget key
            </button>
          )}
        </div>
      </header>
      {key ? <Workspace route={route} /> : <KeyScreen />}
    </div>
  );
}

function Workspace({ route }: { route: ReturnType<typeof routeOf> }) {
  useResumeAfterPause();
  return (
    <>
      <PauseBanner />
      <main className="workspace">
        <PetList selectedId={route.kind === "pet" ? route.petId : null} />
        {route.kind === "pet" ? <PetDetail petId={route.petId} /> : <AddPetForm />}
      </main>
    </>
  );
}
