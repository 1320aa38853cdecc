/** The eval scripts' command-line options. */

/** The value after `--name` in `args`, one of `allowed`; `fallback` when the option is not given. A value not allowed ends the script. */
export function choice<const T extends string>(args: readonly string[], name: string, allowed: readonly T[], fallback: T): T {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = args[at + 1];
  if (!allowed.includes(value as T)) {
    console.error(`--${name}: ${value ?? "nothing"} is not one of ${allowed.join(", ")}`);
    process.exit(2);
  }
  return value as T;
}
