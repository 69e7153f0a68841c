/** The artifact's keys CLI (`node <artifact>/keys.mjs ...`): the server's defaults, then the CLI. */
import { applyArtifactDefaults } from "./defaults.js";

applyArtifactDefaults(process.env);
await import("../keys-cli/keys-cli.js");
