import { lintFromString, createConfig, stringifyYaml } from "@redocly/openapi-core";
import { openApiDocument } from "/work/main/sidecar/openapi.ts";
const doc = openApiDocument("http://localhost:3000");
const config = await createConfig({ extends: ["recommended"] });
const problems = await lintFromString({ source: JSON.stringify(doc), config, absoluteRef: "/tmp/openapi.json" } as any);
for (const p of problems) console.log(p.severity, p.ruleId, p.message, p.location?.[0]?.pointer);
console.log(problems.length);
