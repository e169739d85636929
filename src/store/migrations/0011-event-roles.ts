import type { Migration } from "./migration.js";

/**
 * raw_events says which protocol decoded each event and its role in a transfer (sent,
 * delivered, failed, refunded, retrying: src/domain/bridge-event.ts), so the derivation pairs
 * normalised events without knowing any protocol's event names. Every event stored before was
 * the reference bridge's; its role follows from its name.
 */
const STATEMENTS = `
ALTER TABLE raw_events ADD COLUMN protocol TEXT NOT NULL DEFAULT 'reference';
ALTER TABLE raw_events ADD COLUMN role TEXT NOT NULL DEFAULT '';
UPDATE raw_events SET role = CASE event_name
  WHEN 'TransferSent' THEN 'sent'
  WHEN 'TransferDelivered' THEN 'delivered'
  WHEN 'TransferFailed' THEN 'failed'
  WHEN 'TransferRefunded' THEN 'refunded'
  ELSE '' END;
`;

export const migration: Migration = {
  version: 11,
  name: "event-roles",
  sqlite: STATEMENTS,
  postgres: STATEMENTS,
};
