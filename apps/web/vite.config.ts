// The app's build: React (fast refresh in dev), the contract facts the UI shows, and the API
// address (WEB_API_URL, default the mock's) written into index.html with a CSP that allows it alone.
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { apiUrlFromEnv } from "./vite/api-url.mjs";
import { contractModule } from "./vite/contract-module.js";
import { withApiUrl } from "./vite/index-html.js";

function apiAddress(apiUrl: string): Plugin {
  let isBuild = false;
  return {
    name: "animal-store-api-address",
    configResolved: (config) => {
      isBuild = config.command === "build";
    },
    transformIndexHtml: (html) => withApiUrl(html, apiUrl, isBuild),
  };
}

export default defineConfig({
  base: "./",
  plugins: [react(), contractModule(), apiAddress(apiUrlFromEnv(process.env))],
  build: { target: "es2022", sourcemap: false, reportCompressedSize: false },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
});
