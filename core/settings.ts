/**
 * The build's settings, parsed once from the environment. The sidecar's settings extend these,
 * so BASE_URL, DATA_DIR and DIST_DIR mean the same thing everywhere.
 */
import { z } from "zod";

/** The models that can read the reviews: BuildSettings' INSIGHTS_MODEL. */
export const INSIGHTS_MODELS = ["learned", "combined", "linear"] as const;
export type InsightsModel = (typeof INSIGHTS_MODELS)[number];

export const BuildSettings = z.object({
  BASE_URL: z
    .url({ protocol: /^https?$/, error: "expected an absolute http(s) URL such as https://reviews.example.com" })
    .default("http://localhost:3000")
    .refine((url) => !/[?#]/.test(url), { error: "expected a base address without a query or fragment" })
    // Every URL the build writes is `${BASE_URL}/path`: keep exactly one slash between them.
    .transform((url) => url.replace(/\/+$/, "")),
  DATA_DIR: z.string().min(1).default("data"),
  DIST_DIR: z.string().min(1).default("dist"),
  /**
   * Where the build keeps what it computed for the next build (build/cache/cache.ts): `off` for none.
   * The default is where tools keep caches that a CI's node_modules cache also keeps.
   */
  BUILD_CACHE_DIR: z
    .string()
    .min(1)
    .default("node_modules/.cache/reviewcast")
    .transform((dir) => (dir === "off" ? undefined : dir)),
  /**
   * Which model reads the reviews (insights/sentiment/mentions.ts, docs/insights-method.md):
   * `learned`, the aspect model on every sentence; `combined`, the terms judged by the linear
   * model and the encoder; `linear`, the terms judged by the linear model alone (the fastest on a
   * large cold build, and the least accurate).
   */
  INSIGHTS_MODEL: z.enum(INSIGHTS_MODELS).default("learned"),
  /** The owner report (insights/owner.ts): an HTML file outside DIST_DIR, never published; `off` for none. */
  OWNER_REPORT: z
    .string()
    .min(1)
    .default("reports/owner.html")
    .transform((file) => (file === "off" ? undefined : file)),
});
export type BuildSettings = z.infer<typeof BuildSettings>;

/** Parse `env` with `schema`, or throw one error that names every bad variable. */
export function parseSettings<T extends z.ZodType>(schema: T, env: Record<string, string | undefined>): z.infer<T> {
  // An empty variable is the same as an unset one (`PORT= npm start`).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}=${JSON.stringify(present[String(i.path[0])] ?? "")}: ${i.message}`);
  throw new SettingsError(`invalid settings:\n${lines.join("\n")}`);
}

export class SettingsError extends Error {
  override name = "SettingsError";
}
