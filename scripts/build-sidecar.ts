/**
 * `npm run build:sidecar [-- OUTDIR]`: the sidecar as one ESM file (OUTDIR/main.mjs, default
 * sidecar-dist/) that runs with `node main.mjs` and no node_modules. libsql's native addon is
 * copied beside it; LIBSQL_TARGETS (default linux-x64-gnu) picks which platforms' addons to ship.
 */
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { build, type Plugin } from "esbuild";

const outdir = resolve(process.argv[2] ?? "sidecar-dist");
const targets = (process.env.LIBSQL_TARGETS ?? "linux-x64-gnu").split(",");

/**
 * libsql loads its addon with require(`@libsql/${target}`), which a bundler cannot follow. Make it
 * a table of static requires of the shipped targets; esbuild then copies each index.node beside
 * the bundle (the "copy" loader) and the banner's require resolves it from the bundle's folder.
 */
const libsqlNative: Plugin = {
  name: "libsql-native",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const needle = "return require(`@libsql/${target}`);";
      if (!source.includes(needle)) throw new Error(`libsql-native: ${args.path} no longer contains ${needle}; update this plugin`);
      const require = createRequire(args.path);
      for (const t of targets) require.resolve(`@libsql/${t}`); // fails the bundle when a target is not installed
      const table = targets.map((t) => `${JSON.stringify(t)}: () => require(${JSON.stringify(`@libsql/${t}`)})`).join(", ");
      const replacement = `const load = ({ ${table} })[target];
  if (!load) throw new Error(\`libsql: this bundle has no native addon for \${target} (it has ${targets.join(", ")})\`);
  return load();`;
      return { contents: source.replace(needle, replacement), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

const started = performance.now();
await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: "sidecar/main.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  platform: "node",
  format: "esm",
  target: "node20",
  bundle: true,
  minify: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
  // CommonJS inside an ESM bundle still require()s Node's built-ins and the addon. The bundle's
  // own URL, written in two parts: scripts/run.mjs writes this file's URL for `import.meta.url`.
  banner: { js: `import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta${".url"});` },
  loader: { ".node": "copy" },
  assetNames: "[name]-[hash]",
  plugins: [libsqlNative],
  // Only reached through pg's lazy `native` getter, which this project never uses.
  external: ["pg-native"],
});
for (const [file, output] of Object.entries(result.metafile.outputs))
  console.log(`${relative(process.cwd(), file)}  ${(output.bytes / 2 ** 20).toFixed(2)} MiB`);
console.log(
  `bundled in ${Math.round(performance.now() - started)} ms: run it with DIST_DIR=… node ` +
    `--expose-gc ${relative(process.cwd(), outdir)}/main.mjs (README, Deploy: the memory flags)`,
);
