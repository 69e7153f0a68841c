import { petStatuses } from "virtual:contract";
import { isApiErrorBody, type NewPet, type PetStatus } from "@animal-store/client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ErrorNotice } from "./ErrorNotice.js";
import { fieldErrorOf, violatedFields } from "./field-errors.js";
import { petHash } from "./hash-route.js";
import { useApi } from "./hooks.js";
import { usePauseCountdown } from "./rate-limit-pause.js";

/**
 * Adds an animal (createPet). Nothing is checked here: the API validates against the contract,
 * and the field its 400 `Error` names gets the message; when the answer cannot be trusted to name
 * the field at fault (Prism's canned example), a general message instead.
 */
export function AddPetForm() {
  const { api } = useApi();
  const queryClient = useQueryClient();
  const pause = usePauseCountdown();
  const [name, setName] = useState("");
  const [categoryId, setCategoryId] = useState("1");
  const [status, setStatus] = useState<PetStatus | "">("");
  // The fields the mock's own check named (Prism's sl-violations), null from the server.
  const [violated, setViolated] = useState<string[] | null>(null);
  const create = useMutation({
    mutationFn: async (body: NewPet) => {
      const { data, error, response } = await api.client.POST("/pets", { body });
      if (error === undefined) return data;
      setViolated(violatedFields(response));
      throw error;
    },
    onSuccess: () => {
      setName("");
      setStatus("");
      return queryClient.invalidateQueries({ queryKey: ["get", "/pets"] });
    },
  });
  const apiError = isApiErrorBody(create.error) ? create.error : null;
  const fieldError = apiError ? fieldErrorOf(apiError, violated) : null;
  const errorFor = (field: keyof NewPet) => (fieldError?.field === field ? fieldError : null);
  const onAField = fieldError && ["name", "categoryId", "status"].includes(fieldError.field);
  // A refusal the mock's own check and its message disagree on: neither field is certain.
  const unnamed =
    apiError?.code === "validation_failed" && fieldError === null && violated !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name,
      ...(categoryId.trim() === "" ? {} : { categoryId: Number(categoryId) }),
      ...(status ? { status } : {}),
    } as NewPet;
    create.mutate(body);
  };
  const edited = () => create.isError && create.reset();

  return (
    <section className="card form-card" aria-labelledby="add-title">
      <h2 id="add-title">Add an animal</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Name" error={errorFor("name")?.message} id="pet-name">
          <input
            id="pet-name"
            value={name}
            placeholder="Rex"
            onChange={(event) => {
              setName(event.target.value);
              edited();
            }}
          />
        </Field>
        <Field label="Category id" error={errorFor("categoryId")?.message} id="pet-category">
          <input
            id="pet-category"
            inputMode="numeric"
            value={categoryId}
            onChange={(event) => {
              setCategoryId(event.target.value);
              edited();
            }}
          />
        </Field>
        <Field label="Status" error={errorFor("status")?.message} id="pet-status">
          <select
            id="pet-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as PetStatus | "");
              edited();
            }}
          >
            <option value="">none</option>
            {petStatuses.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </Field>
        {unnamed ? (
          <p className="notice error" role="alert">
            Not added: the answer does not say which field is wrong. Check each one.{" "}
            <span className="code">{apiError.code}</span>
          </p>
        ) : (
          !onAField && <ErrorNotice error={create.error} />
        )}
        <button
          type="submit"
          className="button primary"
          disabled={create.isPending || pause.active}
        >
          {create.isPending
            ? "Adding…"
            : pause.active
              ? "Waiting for the rate limit"
              : "Add animal"}
        </button>
      </form>
      {create.isSuccess && create.data && (
        <p className="notice success" role="status">
          Added {create.data.name} as #{create.data.id}.{" "}
          <a href={petHash(create.data.id)}>Open it</a>
        </p>
      )}
    </section>
  );
}

function Field(props: {
  label: string;
  id: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={props.error ? "field invalid" : "field"}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error && (
        <span className="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}
