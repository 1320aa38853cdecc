/** Pick a precompressed copy by Accept-Encoding (RFC 9110 §12.5.3), brotli before gzip. */
export type Coding = "br" | "gzip";

export function chooseEncoding(acceptEncoding: string | null, available: Partial<Record<Coding, unknown>>): Coding | undefined {
  if (!acceptEncoding) return undefined;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    q.set(name.trim(), weight ? Number(weight[1]) : 1);
  }
  const accepts = (coding: Coding) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  return (["br", "gzip"] as const).find((c) => available[c] && accepts(c));
}
