// The team's first typed call (pnpm drill:own-contract): a booking read through the client, its
// types those of the team's contract. Compiled with `tsc --strict`, then run against the mock.
// By the package's name, as a team imports it (Node resolves a package's own name through its
// "exports").
import { createAnimalStoreClient, unwrap } from "@animal-store/client";

const [baseUrl = "", token = "", id = ""] = process.argv.slice(2);
const client = createAnimalStoreClient({ baseUrl, apiKey: token, retry: false });
const booking = unwrap(
  await client.GET("/bookings/{booking-id}", { params: { path: { "booking-id": id } } }),
);
// The contract's enum, as a type: this line compiles only if the client is typed by the contract.
const status: "held" | "paid" | "cancelled" = booking.status;
const passengers: number = booking.passengers;
console.log(JSON.stringify({ ...booking, status, passengers }));
