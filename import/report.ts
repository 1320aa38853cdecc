/** What an import did, as the owner reads it: printed, and written to reports/ (never into DATA_DIR). */
export interface Report {
  files: string[];
  added: { id: string; where: string }[];
  updated: { id: string; where: string; what: string }[];
  replies: { id: string; where: string }[];
  missing: { id: string; platform: string }[];
  withdrawn: { id: string; platform: string }[];
  pending: { id: string; where: string; reason: string }[];
  accepted: { id: string }[];
  dropped: { id: string }[];
  skipped: { where: string; why: string }[];
  ratingsOnly: number;
  duplicates: { where: string; of: string }[];
  tags: { id: string; field: string; ids: string[]; from: string }[];
  notes: string[];
}

export function emptyReport(files: string[] = []): Report {
  return {
    files,
    added: [],
    updated: [],
    replies: [],
    missing: [],
    withdrawn: [],
    pending: [],
    accepted: [],
    dropped: [],
    skipped: [],
    ratingsOnly: 0,
    duplicates: [],
    tags: [],
    notes: [],
  };
}

export function formatReport(r: Report, withdrawMissing: boolean): string {
  const out: string[] = [];
  const section = (title: string, lines: string[]) => {
    out.push(`${title}: ${lines.length}`);
    for (const line of lines) out.push(`  - ${line}`);
  };
  if (r.files.length) out.push(`import of ${r.files.join(", ")}`);
  section(
    "new reviews published",
    r.added.map((a) => `${a.id} (${a.where})`),
  );
  section(
    "updated (edited on the platform)",
    r.updated.map((u) => `${u.id}: ${u.what} (${u.where})`),
  );
  section(
    "new or changed replies",
    r.replies.map((u) => `${u.id} (${u.where})`),
  );
  section(
    withdrawMissing
      ? "withdrawn (gone from a full export)"
      : "gone from a full export (run again with --withdraw-missing to withdraw them)",
    (withdrawMissing ? r.withdrawn : r.missing).map((m) => `${m.id} (${m.platform})`),
  );
  section(
    "pending (not published: npm run import -- --accept ID publishes one)",
    r.pending.map((p) => `${p.id} (${p.where}): ${p.reason}`),
  );
  if (r.accepted.length)
    section(
      "accepted by the owner",
      r.accepted.map((a) => a.id),
    );
  if (r.dropped.length)
    section(
      "dropped by the owner",
      r.dropped.map((a) => a.id),
    );
  section(
    "skipped",
    r.skipped.map((s) => `${s.where}: ${s.why}`),
  );
  out.push(`ratings without text (counted, not published): ${r.ratingsOnly}`);
  section(
    "duplicates (the same review from another source, kept once)",
    r.duplicates.map((d) => `${d.where}: same as ${d.of}`),
  );
  section(
    "tags filled",
    r.tags.map((t) => `${t.id} ${t.field}: ${t.ids.join(", ")} (from ${t.from})`),
  );
  for (const note of r.notes) out.push(`note: ${note}`);
  return `${out.join("\n")}\n`;
}
