/** The artifact's server entry (`node <artifact>`): its production defaults, then the server. */
import { applyArtifactDefaults } from "./defaults.js";

applyArtifactDefaults(process.env);
await import("../boot.js");
