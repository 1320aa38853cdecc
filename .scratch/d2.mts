import { z } from "zod";
import { IsoDate } from "/work/main/data/schema/records.ts";
console.log(JSON.stringify(z.toJSONSchema(IsoDate)));
for (const s of ["2025-02-30","2024-02-29","2025-13-01","0000-01-01","2025-1-1","x", "2025-02-28T00:00:00Z"]) console.log(s, IsoDate.safeParse(s).success);
