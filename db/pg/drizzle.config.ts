import { defineConfig } from "drizzle-kit";

// The PostgreSQL migrations (DATABASE_URL), beside the SQLite ones in db/.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/store/postgres/schema.ts",
  out: "./db/pg",
});
