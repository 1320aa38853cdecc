/**
 * `npm run serve`: the sidecar compiled to one JavaScript file by esbuild (its packages stay in
 * node_modules), then run in this process. Compiling takes a fraction of a second at each start;
 * running TypeScript through the tsx loader instead held ~40 MiB more for the life of the server.
 * package.json gives node its flags and glibc its variables (a young generation of 8 MiB, a full
 * collection once the heap is 1.5 times what is live, freed memory given back: see
 * docs/benchmarks.md and docs/faults.md).
 */
import { build, stop } from "esbuild";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}node_modules/.cache/reviewcast/sidecar.mjs`;
await build({
  entryPoints: [`${root}sidecar/main.ts`],
  outfile,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
});
// esbuild's service process would otherwise stay beside the server for its whole life.
await stop();
await import(pathToFileURL(outfile).href);
