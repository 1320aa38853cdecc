import { z } from "zod";
const calendar = (s: string) => { const d = new Date(`${s}T00:00:00Z`); return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s; };
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "expected a real calendar date as YYYY-MM-DD" }).refine(calendar, { error: "expected a real calendar date as YYYY-MM-DD" }).meta({ format: "date" });
console.log(JSON.stringify(z.toJSONSchema(z.object({ d: IsoDate }), { io: "input" })));
console.log(IsoDate.safeParse("2025-02-30").success, IsoDate.safeParse("2024-02-29").success, IsoDate.safeParse("2025-13-01").success, IsoDate.safeParse("0000-01-01").success);
console.log(z.iso.date().safeParse("0000-01-01").success);
