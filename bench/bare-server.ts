/** The yardstick: the same stack (h3 v2, listhen) answering one constant JSON. */
import { H3, toNodeHandler } from "h3";
import { listen } from "listhen";

const app = new H3().get("/bare", () => ({ ok: true, service: "reviewcast", version: "1.0.0" }));
const listener = await listen(toNodeHandler(app), { port: Number(process.env.PORT), hostname: "127.0.0.1", showURL: false, qr: false });
console.log("ready");
process.once("SIGTERM", () => listener.close().then(() => process.exit(0)));
