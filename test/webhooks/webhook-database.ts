/**
 * A webhook view over a database of its own, as another process (a `deliver`, the CLI) would
 * have: tests that stand for several processes open one each. Closing it closes the database.
 */
import { openDatabase } from "../../src/store/index.js";
import { type WebhookStore, webhookStoreOf } from "../../src/store/webhook-store.js";

export type ClosableWebhookStore = WebhookStore & { close(): Promise<void> };

export async function openWebhookDatabase(databaseUrl: string): Promise<ClosableWebhookStore> {
  const database = await openDatabase(databaseUrl);
  return { ...webhookStoreOf(database), close: () => database.close() };
}
