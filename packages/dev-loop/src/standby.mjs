// @ts-check
// Loaded with `node --import` ahead of a service's entry point by the dev loop. It imports the
// service's heavy modules while the previous instance is still serving, then holds the entry
// point back until the loop says "go": a restart then costs the start-up, not the imports.
// It also ties the service's life to the loop's: when the loop goes away, so does the service.

if (process.send) {
  const preload = (process.env.DEV_LOOP_PRELOAD ?? "").split(",").filter(Boolean);
  /** @type {Promise<"go" | "gone">} */
  const signal = new Promise((resolve) => {
    process.on("message", (message) => message === "go" && resolve("go"));
    process.once("disconnect", () => resolve("gone"));
  });
  // Listening now: a cluster worker's channel reads from the start, so a "go" sent before this
  // would be lost; the loop waits for this message before it sends one.
  process.send("standby");
  await Promise.all(preload.map((module) => import(module)));
  if ((await signal) === "gone") process.exit(0);
  // Still connected so that a vanished loop stops the service, but not keeping it alive. The
  // output pipes died with the loop and the server's graceful stop was seen to hang on them
  // (its log writes), so the service is killed outright: a dev database survives that (SQLite's
  // journal), and nobody is left to talk to it anyway.
  process.once("disconnect", () => process.kill(process.pid, "SIGKILL"));
  // A cluster worker (the server, handoff-service.mjs) listens through this channel: it must
  // keep the process alive while the primary answers.
  const { default: cluster } = await import("node:cluster");
  if (!cluster.isWorker) process.channel?.unref();
}
