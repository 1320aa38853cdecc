/**
 * `npm run hub:ping`: after a deploy, tell the hub that the three topics may have changed. The
 * hub reloads dist/ and notifies the subscribers of each topic whose content did change.
 * HUB_URL overrides where the ping goes (default `${BASE_URL}/api/websub/hub`). Exit 0 when the
 * hub accepted it, 1 otherwise, with the reason.
 *
 * First it records the deploy in the build's record (build/load/record.ts): the reviews of
 * DIST_DIR, when the last build of DATA_DIR made it, are from now on the published ones.
 */
import { BuildSettings, parseSettings } from "../core/settings.ts";
import { hubUrl, TOPICS } from "../core/urls.ts";
import { recordDeploy } from "../build/load/record.ts";

const { BASE_URL, BUILD_CACHE_DIR, DATA_DIR, DIST_DIR } = parseSettings(BuildSettings, process.env);
if (BUILD_CACHE_DIR) {
  try {
    const reviews = await recordDeploy(BUILD_CACHE_DIR, DATA_DIR, DIST_DIR);
    console.log(`hub:ping: recorded the deploy of ${DIST_DIR}/ (${reviews} published reviews)`);
  } catch (error) {
    console.error(`hub:ping: the deploy is not recorded: ${(error as Error).message}`);
  }
}
const target = process.env.HUB_URL || hubUrl(BASE_URL);
const form = new URLSearchParams([["hub.mode", "publish"], ...TOPICS.map((t) => ["hub.url", `${BASE_URL}${t.path}`] as [string, string])]);
try {
  const res = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) {
    console.error(`hub:ping: ${target} answered ${res.status}: ${text}`);
    process.exit(1);
  }
  const body = JSON.parse(text) as { changed: string[]; notifications: number };
  const changed = body.changed.length ? `changed: ${body.changed.join(", ")}` : "no topic changed";
  console.log(`hub:ping: ${changed}; ${body.notifications} notifications queued`);
} catch (error) {
  console.error(`hub:ping: could not reach ${target}: ${(error as Error).message}`);
  process.exit(1);
}
