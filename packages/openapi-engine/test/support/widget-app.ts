/**
 * A tiny application of the engine for its own tests: generic handlers of the widgets fixture
 * (list, create, read by id) over a scratch SQLite store built from the engine's `./storage`
 * entry, started through its `./testing` entry. Nothing of any real application.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Application } from "../../src/application.js";
import { compileContract } from "../../src/contract/contract.js";
import {
  type ApiKeyStore,
  type ApiKeysTable,
  classified,
  classifyPostgresError,
  classifySqliteError,
  createApiKeysTable,
  type ErrorClassifier,
  kyselyApiKeyStore,
  type MigrationList,
  openPostgresDatabase,
  openSqliteDatabase,
} from "../../src/storage/index.js";
import { loadFixture } from "./fixture-contract.js";

/** A widget as the fixture describes it. */
export interface Widget {
  id: number;
  label: string;
  sizeId: number;
  shade?: string;
}

interface WidgetsTable {
  id: number;
  body: string;
}

interface Schema {
  api_keys: ApiKeysTable;
  widgets: WidgetsTable;
}

/** The widgets store: the engine's key table and one table of widgets, kept as JSON text. */
export interface WidgetStore extends ApiKeyStore {
  readonly engine: "sqlite" | "postgres";
  check(): Promise<void>;
  close(): Promise<void>;
  listWidgets(query: { count: number; shade?: string }): Promise<Widget[]>;
  createWidget(widget: Omit<Widget, "id">): Promise<Widget>;
  getWidget(id: number): Promise<Widget | null>;
}

const migrations: MigrationList = (engine) => ({
  "0001_widgets": {
    async up(db: Kysely<unknown>) {
      await createApiKeysTable(db);
      await db.schema
        .createTable("widgets")
        .addColumn("id", engine === "sqlite" ? "integer" : "serial", (col) =>
          engine === "sqlite" ? col.primaryKey().autoIncrement() : col.primaryKey(),
        )
        .addColumn("body", "text", (col) => col.notNull())
        .execute();
    },
  },
});

/** The widgets store over an open database; every query's error classified (an outage: 503). */
function widgetStore(
  db: Kysely<Schema>,
  engine: "sqlite" | "postgres",
  classify: ErrorClassifier,
): WidgetStore {
  const keys = kyselyApiKeyStore(db as never, classify);
  const widget = (row: WidgetsTable): Widget => ({ id: Number(row.id), ...JSON.parse(row.body) });
  const shadeOf =
    engine === "sqlite"
      ? sql<string>`json_extract(body, '$.shade')`
      : sql<string>`body::jsonb->>'shade'`;
  return {
    ...keys,
    engine,
    check: () => classified(classify, async () => void (await sql`select 1`.execute(db))),
    close: () => db.destroy(),
    listWidgets: ({ count, shade }) =>
      classified(classify, async () => {
        let query = db.selectFrom("widgets").select(["id", "body"]).orderBy("id").limit(count);
        if (shade !== undefined) query = query.where(shadeOf, "=", shade);
        return (await query.execute()).map(widget);
      }),
    createWidget: (fields) =>
      classified(classify, async () =>
        widget(
          await db
            .insertInto("widgets")
            .values({ body: JSON.stringify(fields) } as never)
            .returning(["id", "body"])
            .executeTakeFirstOrThrow(),
        ),
      ),
    getWidget: (id) =>
      classified(classify, async () => {
        const row = await db
          .selectFrom("widgets")
          .select(["id", "body"])
          .where("id", "=", id)
          .executeTakeFirst();
        return row ? widget(row) : null;
      }),
  };
}

/** Opens (and migrates) a widgets store on the SQLite file `path` (":memory:" allowed). */
export async function openWidgetStore(path: string): Promise<WidgetStore> {
  const { db } = await openSqliteDatabase<Schema>(path, migrations);
  return widgetStore(db, "sqlite", classifySqliteError);
}

/**
 * A widgets store on PostgreSQL at `url`, not prepared (no connection is made until a query):
 * on a server nobody listens on, every call fails as an outage does.
 */
export function openPostgresWidgetStore(url: string, schema?: string): WidgetStore {
  const { db } = openPostgresDatabase<Schema>(
    { url, schema, lockName: "widget-works" },
    migrations,
  );
  return widgetStore(db, "postgres", classifyPostgresError);
}

interface Request {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
  reply(status: number, body: unknown, headers?: Record<string, string>): unknown;
}

/** The handlers of the widgets fixture over `store`. */
export function widgetHandlers(store: WidgetStore): Record<string, (req: Request) => unknown> {
  return {
    async listWidgets({ query, reply }) {
      const shade = query.shade as string | undefined;
      return reply(
        200,
        await store.listWidgets({
          count: query.count as number,
          ...(shade === undefined ? {} : { shade }),
        }),
      );
    },
    async createWidget({ body, reply }) {
      return reply(201, await store.createWidget(body as Omit<Widget, "id">));
    },
    async getWidget({ params, reply }) {
      const id = params.widgetId as number;
      const found = await store.getWidget(id);
      return found
        ? reply(200, found)
        : reply(404, { code: "not_found", message: `Widget ${id} not found.`, status: 404 });
    },
  };
}

/** The widgets application of the engine, serving `spec` (default the widgets fixture). */
export function widgetApplication(
  spec: LoadedSpec = loadFixture("widgets"),
  names: Partial<Application<WidgetStore>["names"]> = {},
): Application<WidgetStore> {
  return {
    names: {
      service: "widget-works",
      databaseUrl: "file:./data/widget-works.db",
      docsHtmlPath: "/nonexistent/widget-works/docs.html",
      docsBuildHint: "build the widget docs",
      redisKeyPrefix: "widget-works:rl:",
      ...names,
    },
    spec,
    async openStore(database) {
      return database.engine === "sqlite"
        ? openWidgetStore(database.path)
        : openPostgresWidgetStore(database.url, database.schema);
    },
    openScratchStore: () => openWidgetStore(":memory:"),
    handlers: (store) => widgetHandlers(store),
  };
}

/** The widgets fixture compiled as the engine compiles it. */
export const widgetContract = compileContract(loadFixture("widgets"));
