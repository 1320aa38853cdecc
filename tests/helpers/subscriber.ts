import { afterAll } from "vitest";
import { Subscriber } from "../../harness/subscriber.ts";

/** A subscriber for this test file (await it at the top, as usePostgres), closed after its tests. */
export async function useSubscriber(): Promise<Subscriber> {
  const subscriber = await Subscriber.start();
  afterAll(() => subscriber.close());
  return subscriber;
}
