import { API_META_NAME } from "../vite/index-html.js";

/** The API base URL the deployed index.html names (its meta tag), e.g. http://127.0.0.1:4010/v1. */
export function apiBaseUrl(doc: Document = document): string {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${API_META_NAME}"]`)?.content;
  if (!content)
    throw new Error(`index.html names no API: <meta name="${API_META_NAME}"> is missing`);
  return content;
}
