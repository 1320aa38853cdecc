/**
 * `npm run init -- --name NAME --time-zone ZONE [--phone PHONE] [--email EMAIL]
 * [--address "STREET, TOWN, REGION POSTCODE[, COUNTRY]"] [--description TEXT]`: a valid business.json
 * and empty lists in an empty DATA_DIR, so that `npm run import` can follow. The site shows the
 * phone, email and address it is given; any left out can be added to business.json later.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Business } from "../core/schema/records.ts";
import { toUtc } from "../core/local-time.ts";

/** "1418 Vernon Street, Suite B, Roseville, CA 95678, US": the street is all before the town; the country defaults to US. */
export function readAddress(text: string): Business["address"] | undefined {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const country = parts.length >= 4 && /^[A-Za-z]{2}$/.test(parts.at(-1)!) ? parts.pop()!.toUpperCase() : "US";
  const m = /^(.+?)\s+(\S*\d\S*(?:\s\d\S*)?)$/.exec(parts.pop() ?? "");
  const locality = parts.pop();
  if (!m || !locality || parts.length === 0) return undefined;
  return { street: parts.join(", "), locality, region: m[1]!, postal_code: m[2]!, country };
}

async function main(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: "string" },
      "time-zone": { type: "string" },
      phone: { type: "string" },
      email: { type: "string" },
      address: { type: "string" },
      description: { type: "string" },
    },
  });
  const dir = process.env.DATA_DIR || "data";
  const missing = (["name", "time-zone"] as const).filter((k) => !values[k]);
  if (missing.length) throw new Error(`init needs ${missing.map((k) => `--${k}`).join(" and ")}`);
  const existing = await readdir(dir).catch(() => []);
  if (existing.length > 0)
    throw new Error(`${dir} is not empty (${existing.slice(0, 5).join(", ")}): init writes only into an empty DATA_DIR`);
  const address = values.address === undefined ? undefined : readAddress(values.address);
  if (values.address !== undefined && !address)
    throw new Error(`--address = ${JSON.stringify(values.address)}: expected "STREET, TOWN, REGION POSTCODE[, COUNTRY]"`);
  const business = {
    name: values.name!,
    description: values.description ?? `Verified reviews from the customers of ${values.name}.`,
    ...(values.phone && { telephone: values.phone }),
    ...(values.email && { email: values.email }),
    ...(address && { address }),
    opening_hours: [],
    time_zone: values["time-zone"]!,
    updated: toUtc(new Date().toISOString()),
  };
  const parsed = Business.safeParse(business);
  if (!parsed.success) {
    const names: Record<string, string> = { time_zone: "--time-zone", telephone: "--phone", email: "--email", name: "--name" };
    throw new Error(parsed.error.issues.map((i) => `${names[String(i.path[0])] ?? i.path.join(".")}: ${i.message}`).join("\n"));
  }
  await mkdir(join(dir, "reviews"), { recursive: true });
  await writeFile(join(dir, "business.json"), `${JSON.stringify(business, null, 2)}\n`);
  for (const list of ["services.json", "technicians.json", "service-areas.json"]) await writeFile(join(dir, list), "[]\n");
  // The build reads at least one file of reviews: this year's, empty until the import fills it.
  await writeFile(join(dir, "reviews", `${new Date().getUTCFullYear()}.jsonl`), "");
  return (
    `wrote ${dir}/business.json, services.json, technicians.json, service-areas.json and reviews/: ` +
    "list your services, technicians and towns there, then npm run import -- FILE..."
  );
}

main(process.argv.slice(2)).then(
  (done) => console.log(done),
  (error) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  },
);
