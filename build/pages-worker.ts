/** A worker thread of pages.ts: writes the pages of the reviews it is given into `folder`. */
import { parentPort, workerData } from "node:worker_threads";
import { writePages, type PagesJob } from "./pages.ts";

const job = workerData as PagesJob;
writePages(job);
parentPort!.postMessage(job.reviews.length);
