/**
 * A body the application already holds as JSON text. A database can write a page of rows as the
 * JSON the API answers faster than the rows can be read into objects and serialized again; the
 * handler then answers `reply(200, new JsonText(text))`, typed as the body it stands for.
 *
 * The engine writes the text as it is. Without response validation (production) it is not
 * serialized again; with it, the text is parsed and checked against the contract like any other
 * answer (a violation is answered 500), then written as it is. What the engine cannot check in
 * production, the application vouches for: the text is what the operation's serializer would
 * have written for the same data (the Animal Store's store tests compare the two byte for byte).
 */
export class JsonText<Body = unknown> {
  /**
   * Private, and no public member at all: the class is nominal (no object literal passes for
   * one), and a body literal with an extra property cannot slip past the exact check of the
   * handler types by naming a member of this class.
   */
  readonly #text: string;
  /** Never set: only ties the text to the body type it stands for. */
  declare private readonly stands?: Body;

  constructor(text: string) {
    this.#text = text;
  }

  /** The JSON text of `body`. */
  static textOf(body: JsonText): string {
    return body.#text;
  }
}
