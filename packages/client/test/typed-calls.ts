// Calls that must compile, and calls that must not (each `@ts-expect-error` marks one). `pnpm
// typecheck` checks this file; typed-calls.test.ts proves every marked line really is an error.
import { expectTypeOf } from "vitest";
import {
  type AnimalStoreClient,
  type ApiError,
  type ApiErrorBody,
  type ApiErrorCode,
  createAnimalStoreClient,
  type DeprecationNotice,
  type NewPet,
  type Pet,
  type RateLimitInfo,
  type ResponseMeta,
  type RetryEvent,
  type TimeoutError,
  unwrap,
} from "../src/index.js";

/** Right and wrong uses of every operation; never run, only compiled. */
export async function typedCalls(client: AnimalStoreClient): Promise<void> {
  const list = await client.GET("/pets", { params: { query: { limit: 10, status: "sold" } } });
  expectTypeOf(list.data).toEqualTypeOf<Pet[] | undefined>();
  expectTypeOf(list.error).toEqualTypeOf<ApiErrorBody | undefined>();
  expectTypeOf(unwrap(list)).toEqualTypeOf<Pet[]>();
  const created = await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } });
  expectTypeOf(unwrap(created)).toEqualTypeOf<Pet>();
  const one = await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
  expectTypeOf(one.error).toEqualTypeOf<ApiErrorBody | undefined>();
  expectTypeOf(client.rateLimit).toEqualTypeOf<RateLimitInfo | undefined>();
  expectTypeOf(one.meta).toEqualTypeOf<ResponseMeta>();
  expectTypeOf(one.meta.rateLimit).toEqualTypeOf<RateLimitInfo | undefined>();
  expectTypeOf(one.meta.deprecation).toEqualTypeOf<DeprecationNotice | undefined>();
  // Call options ride along with openapi-fetch's own, on calls with and without required init.
  await client.GET("/pets", { timeoutMs: 5_000, deadlineMs: 20_000, onRetry: () => undefined });
  await client.GET("/pets/{petId}", { params: { path: { petId: 1 } }, timeoutMs: 1_000 });
  await client.POST("/pets", { body: { name: "Rex", categoryId: 1 }, deadlineMs: 10_000 });
  // Every page of a list, typed by the spec; the same init and call options as a GET.
  for await (const page of client.pages("/pets", {
    params: { query: { status: "sold", limit: 100 } },
    deadlineMs: 10_000,
  })) {
    expectTypeOf(page.data).toEqualTypeOf<Pet[]>();
    expectTypeOf(page.meta).toEqualTypeOf<ResponseMeta>();
  }

  // @ts-expect-error: the spec has no /owners
  await client.GET("/owners");
  // @ts-expect-error: limit is an integer
  await client.GET("/pets", { params: { query: { limit: "10" } } });
  // @ts-expect-error: status is a PetStatus
  await client.GET("/pets", { params: { query: { status: "lost" } } });
  // @ts-expect-error: listPets has no query parameter "page"
  await client.GET("/pets", { params: { query: { page: 2 } } });
  // @ts-expect-error: petId is required
  await client.GET("/pets/{petId}", {});
  // @ts-expect-error: petId is an integer
  await client.GET("/pets/{petId}", { params: { path: { petId: "1" } } });
  // @ts-expect-error: createPet needs a body
  await client.POST("/pets", {});
  // @ts-expect-error: name is required
  await client.POST("/pets", { body: { categoryId: 1 } });
  // Unknown keys in an inline body slip through openapi-fetch's inferred generics (TypeScript
  // makes no excess-property check there); typing the body as NewPet catches them:
  // @ts-expect-error: id is assigned by the service, not sent
  await client.POST("/pets", { body: { id: 3, name: "Rex", categoryId: 1 } satisfies NewPet });
  // @ts-expect-error: categoryId is an integer
  await client.POST("/pets", { body: { name: "Rex", categoryId: "1" } });
  // @ts-expect-error: status is a PetStatus
  await client.POST("/pets", { body: { name: "Rex", categoryId: 1, status: "lost" } });
  // @ts-expect-error: there is no POST /pets/{petId}
  await client.POST("/pets/{petId}", { params: { path: { petId: 1 } } });
  // @ts-expect-error: deleting a pet is not part of the API
  await client.DELETE("/pets/{petId}", { params: { path: { petId: 1 } } });
  // @ts-expect-error: timeoutMs is a number of ms
  await client.GET("/pets", { timeoutMs: "5s" });
  // @ts-expect-error: deadlineMs is a number of ms
  await client.GET("/pets/{petId}", { params: { path: { petId: 1 } }, deadlineMs: "1m" });
  // @ts-expect-error: onRetry is a function
  await client.POST("/pets", { body: { name: "Rex", categoryId: 1 }, onRetry: true });
  // @ts-expect-error: pages walks GET lists only, and /owners is none
  client.pages("/owners");
  // @ts-expect-error: pages takes the list's own parameters
  client.pages("/pets", { params: { query: { status: "lost" } } });
}

/** Right and wrong client options and error fields; never run, only compiled. */
export function typedOptions(error: ApiError, timeout: TimeoutError): void {
  expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
  expectTypeOf(error.operationId).toEqualTypeOf<string | undefined>();
  expectTypeOf(timeout.kind).toEqualTypeOf<"attempt" | "deadline">();
  expectTypeOf(timeout.operationId).toEqualTypeOf<string>();
  createAnimalStoreClient({ baseUrl: "http://127.0.0.1:8080/v1", apiKey: "k" });
  createAnimalStoreClient({ baseUrl: "/v1", getApiKey: async () => "k", retry: false });
  createAnimalStoreClient({
    baseUrl: "/v1",
    apiKey: "k",
    timeoutMs: 10_000,
    deadlineMs: 60_000,
    onRetry: (event: RetryEvent) => console.log(event.operationId, event.attempt, event.delayMs),
    pacing: { maxWaitMs: 30_000, onWait: (event) => console.log(event.reason, event.delayMs) },
  });
  createAnimalStoreClient({ baseUrl: "/v1", apiKey: "k", pacing: false });
  expectTypeOf(error.code).toEqualTypeOf<ApiErrorCode | undefined>();
  expectTypeOf(error.body).toEqualTypeOf<ApiErrorBody | undefined>();

  // @ts-expect-error: a key or a key getter is required
  createAnimalStoreClient({ baseUrl: "http://127.0.0.1:8080/v1" });
  // @ts-expect-error: a key or a key getter, not both
  createAnimalStoreClient({ baseUrl: "/v1", apiKey: "k", getApiKey: () => "k" });
  // @ts-expect-error: maxRetries is a number
  createAnimalStoreClient({ baseUrl: "/v1", apiKey: "k", retry: { maxRetries: "3" } });
  // @ts-expect-error: baseUrl is required
  createAnimalStoreClient({ apiKey: "k" });
  // @ts-expect-error: timeoutMs is a number of ms
  createAnimalStoreClient({ baseUrl: "/v1", apiKey: "k", timeoutMs: "10s" });
  // @ts-expect-error: pacing is options or false, not true
  createAnimalStoreClient({ baseUrl: "/v1", apiKey: "k", pacing: true });
}
