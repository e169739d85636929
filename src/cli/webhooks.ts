/**
 * `bridge-oracle webhooks create|list|delete|deliveries|redeliver`: webhook subscriptions on the
 * database of DATABASE_URL, for the operator (docs/webhooks.md). The operator sees every key's
 * subscriptions; API clients manage their own through /api/oracle/webhooks.
 *
 * `create` prints the subscription's secret alone on the last line of its output (shown this
 * once), so scripts can take it with `| tail -n 1`. Exit code 0 on success, 1 with a message on
 * stderr otherwise.
 */
import { parseArgs } from "node:util";
import { ConfigError } from "../config/env.js";
import { loadWebhookConfig } from "../config/webhook-config.js";
import { errorMessage } from "../errors.js";
import type { ApiKeyRecord, ApiKeyRepository } from "../store/api-key-repository.js";
import type { Database } from "../store/index.js";
import type { WebhookSubscription } from "../store/webhook-repository.js";
import { webhookStoreOf } from "../store/webhook-store.js";
import { WebhookUrlError } from "../webhooks/outbound-address.js";
import { FilterError } from "../webhooks/subscription-filter.js";
import {
  createSubscription,
  listDeliveryViews,
  SubscriptionRefused,
  viewSubscription,
} from "../webhooks/subscriptions.js";
import { formatTable } from "./format-table.js";
import { findRevokeTargets, type KeysIo, openCliDatabase } from "./keys.js";

export const WEBHOOKS_USAGE = `usage:
  bridge-oracle webhooks create --key KEY --url URL [--address A]... [--tx-hash H]...
        subscribe KEY's owner to every transfer change (or those of the addresses / hashes);
        prints the signing secret once, on the last line
  bridge-oracle webhooks list [--key KEY]        subscriptions (of one key), with their status
  bridge-oracle webhooks delete ID               delete a subscription and its deliveries
  bridge-oracle webhooks deliveries ID [--limit N (1-1000)] [--status pending|delivered|failed]
        a subscription's latest deliveries (default 20) and their attempts
  bridge-oracle webhooks redeliver DELIVERY_ID   send a delivery again (same event id and body)

KEY is an API key's name or prefix (bridge-oracle keys list): an active one for create; for
list, every key it matches, revoked ones too. The database is
DATABASE_URL, as for \`serve\`; WEBHOOK_ALLOW_PRIVATE_ADDRESSES lets URLs reach private addresses.
`;

class UsageError extends Error {}

const processIo: KeysIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  now: () => new Date(),
};

type Command =
  | { kind: "create"; key: string; url: string; addresses: string[]; txHashes: string[] }
  | { kind: "list"; key: string | undefined }
  | { kind: "delete"; id: number }
  | { kind: "deliveries"; id: number; limit: number; status?: "pending" | "delivered" | "failed" }
  | { kind: "redeliver"; id: number };

function positiveId(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9][0-9]{0,15}$/.test(value)) {
    throw new UsageError(
      `${what} must be a positive integer (see webhooks list), got '${value ?? ""}'`,
    );
  }
  return Number(value);
}

function parseCommand(subcommand: string, args: string[]): Command {
  let values: Record<string, string | string[] | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: {
        key: { type: "string" },
        url: { type: "string" },
        address: { type: "string", multiple: true },
        "tx-hash": { type: "string", multiple: true },
        limit: { type: "string" },
        status: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`webhooks ${subcommand}: ${errorMessage(error)}`);
  }
  const allowed: Record<string, string[]> = {
    create: ["key", "url", "address", "tx-hash"],
    list: ["key"],
    delete: [],
    deliveries: ["limit", "status"],
    redeliver: [],
  };
  const options = allowed[subcommand];
  if (options === undefined) throw new UsageError(`unknown webhooks command '${subcommand}'`);
  const extra = Object.keys(values).find((name) => !options.includes(name));
  if (extra !== undefined) throw new UsageError(`webhooks ${subcommand} takes no --${extra}`);
  switch (subcommand) {
    case "create": {
      if (positionals.length > 0) throw new UsageError("webhooks create takes no arguments");
      const key = values.key as string | undefined;
      const url = values.url as string | undefined;
      if (key === undefined || url === undefined) {
        throw new UsageError("webhooks create needs --key KEY and --url URL");
      }
      return {
        kind: "create",
        key,
        url,
        addresses: (values.address as string[] | undefined) ?? [],
        txHashes: (values["tx-hash"] as string[] | undefined) ?? [],
      };
    }
    case "list":
      if (positionals.length > 0) throw new UsageError("webhooks list takes no arguments");
      return { kind: "list", key: values.key as string | undefined };
    case "delete":
    case "redeliver":
      if (positionals.length !== 1) throw new UsageError(`webhooks ${subcommand} needs one ID`);
      return { kind: subcommand, id: positiveId(positionals[0], "ID") };
    default: {
      if (positionals.length !== 1) throw new UsageError("webhooks deliveries needs one ID");
      const limitText = (values.limit as string | undefined) ?? "20";
      const limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : 0;
      if (limit < 1 || limit > 1000) {
        throw new UsageError(`--limit must be an integer from 1 to 1000, got '${limitText}'`);
      }
      const status = values.status as string | undefined;
      if (status !== undefined && !["pending", "delivered", "failed"].includes(status)) {
        throw new UsageError(`--status must be pending, delivered or failed, got '${status}'`);
      }
      return {
        kind: "deliveries",
        id: positiveId(positionals[0], "ID"),
        limit,
        ...(status !== undefined ? { status: status as "pending" } : {}),
      };
    }
  }
}

export async function run(args: string[], io: KeysIo = processIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || ["help", "--help", "-h"].includes(subcommand)) {
    (subcommand === undefined ? io.stderr : io.stdout)(WEBHOOKS_USAGE);
    return subcommand === undefined ? 1 : 0;
  }
  let database: Database | undefined;
  try {
    const command = parseCommand(subcommand, rest);
    const config = loadWebhookConfig(io.env);
    database = await openCliDatabase(io);
    if (database === undefined) return 1;
    const store = webhookStoreOf(database);
    switch (command.kind) {
      case "create": {
        const key = await findKey(database.apiKeys, command.key);
        const { subscription, secret } = await createSubscription(
          store,
          {
            ownerKeyId: key.id,
            url: command.url,
            addresses: command.addresses,
            txHashes: command.txHashes,
          },
          {
            allowPrivateAddresses: config.allowPrivateAddresses,
            now: io.now().getTime(),
            secretBox: config.secretBox,
          },
        );
        io.stdout(
          `Created webhook subscription ${subscription.id} for API key '${key.name}' (${key.prefix}):\n` +
            `  POST ${subscription.url}\n  ${describeFilter(subscription.filter)}\n` +
            "Deliveries are signed with this secret (docs/webhooks.md); it is shown only now:\n" +
            `${secret}\n`,
        );
        return 0;
      }
      case "list": {
        // A revoked key's subscriptions stay until the operator deletes them, so --key finds
        // them too: every key, active or revoked, that the name or prefix matches.
        let subscriptions: WebhookSubscription[];
        if (command.key === undefined) subscriptions = await store.webhooks.listSubscriptions();
        else {
          const owners = new Set(
            findRevokeTargets(await database.apiKeys.listKeys(), command.key).map((k) => k.id),
          );
          if (owners.size === 0) {
            throw new KeyNotFound(
              `no API key has the name or prefix '${command.key}'; see \`bridge-oracle keys list\``,
            );
          }
          subscriptions = (await store.webhooks.listSubscriptions()).filter((s) =>
            owners.has(s.ownerKeyId),
          );
        }
        if (subscriptions.length === 0) {
          io.stdout("no webhook subscriptions; create one with: bridge-oracle webhooks create\n");
          return 0;
        }
        const rows = subscriptions.map((s) => {
          const view = viewSubscription(s, config.secretBox);
          return [
            String(view.id),
            String(s.ownerKeyId),
            view.url,
            describeFilter(view.filter),
            view.createdAt,
            view.status === "active"
              ? view.failingSince === null
                ? "active"
                : `active, failing since ${view.failingSince}`
              : `disabled: ${view.disabledReason ?? ""}`,
          ];
        });
        io.stdout(
          formatTable([["ID", "KEY ID", "URL", "FILTER", "CREATED (UTC)", "STATUS"], ...rows]),
        );
        return 0;
      }
      case "delete": {
        if (!(await store.webhooks.deleteSubscription(command.id))) {
          io.stderr(`no webhook subscription ${command.id}; see \`bridge-oracle webhooks list\`\n`);
          return 1;
        }
        io.stdout(`Deleted webhook subscription ${command.id} and its deliveries.\n`);
        return 0;
      }
      case "deliveries": {
        if ((await store.webhooks.getSubscription(command.id)) === undefined) {
          io.stderr(`no webhook subscription ${command.id}; see \`bridge-oracle webhooks list\`\n`);
          return 1;
        }
        const deliveries = await listDeliveryViews(store.webhooks, command.id, command);
        if (deliveries.length === 0) {
          io.stdout(`no deliveries for subscription ${command.id} yet\n`);
          return 0;
        }
        const lines: string[] = [];
        for (const d of deliveries) {
          const when =
            d.status === "pending"
              ? `next attempt ${d.nextAttemptAt}`
              : d.status === "delivered"
                ? `at ${d.deliveredAt}`
                : (d.lastError ?? "");
          lines.push(
            `delivery ${d.id}  ${d.eventId}  ${d.type}  seq ${d.seq}  ${d.status}  ${when}`,
          );
          for (const a of d.attempts) {
            const answer = answerStart(a.responseBody);
            lines.push(
              `  ${a.attemptedAt}  ${a.responseStatus ?? "-"}  ${a.durationMs} ms${a.error === null ? "" : `  ${a.error}`}${answer === "" ? "" : `  answer ${answer}`}`,
            );
          }
        }
        io.stdout(`${lines.join("\n")}\n`);
        return 0;
      }
      case "redeliver": {
        const delivery = await store.webhooks.getDelivery(command.id);
        if (delivery === undefined) {
          io.stderr(`no delivery ${command.id}; see \`bridge-oracle webhooks deliveries ID\`\n`);
          return 1;
        }
        const subscription = await store.webhooks.getSubscription(delivery.subscriptionId);
        if (subscription?.status !== "active") {
          io.stderr(
            `subscription ${delivery.subscriptionId} is disabled (${subscription?.disabledReason ?? "deleted"}); nothing is sent to it\n`,
          );
          return 1;
        }
        await store.webhooks.redeliver(command.id, io.now().getTime());
        io.stdout(
          `Delivery ${command.id} (${delivery.eventId}) will be sent again by the delivery process, with the same event id and body.\n`,
        );
        return 0;
      }
    }
    return 1;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${WEBHOOKS_USAGE}`);
    } else if (error instanceof ConfigError) {
      io.stderr(`configuration error: ${error.message}\n`);
    } else if (
      error instanceof WebhookUrlError ||
      error instanceof FilterError ||
      error instanceof SubscriptionRefused ||
      error instanceof KeyNotFound
    ) {
      io.stderr(`webhooks ${subcommand}: ${error.message}\n`);
    } else {
      io.stderr(`webhooks ${subcommand} failed: ${errorMessage(error)}\n`);
    }
    return 1;
  } finally {
    await database?.close();
  }
}

class KeyNotFound extends Error {}

/** The start of a receiver's answer on one line: 60 characters at most, quoted. */
function answerStart(body: string): string {
  if (body === "") return "";
  return JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}...` : body);
}

/** The one active API key a --key names (name or prefix, as `keys revoke` takes it). */
async function findKey(repository: ApiKeyRepository, target: string): Promise<ApiKeyRecord> {
  const active = findRevokeTargets(await repository.listKeys(), target).filter(
    (key) => key.revokedAt === null,
  );
  if (active.length === 0) {
    throw new KeyNotFound(
      `no active API key has the name or prefix '${target}'; see \`bridge-oracle keys list\``,
    );
  }
  if (active.length > 1) {
    throw new KeyNotFound(
      `'${target}' matches ${active.length} active keys; give a longer prefix or the name`,
    );
  }
  return active[0] as ApiKeyRecord;
}

function describeFilter(filter: { addresses: readonly string[]; txHashes: readonly string[] }) {
  if (filter.addresses.length === 0 && filter.txHashes.length === 0) return "every transfer";
  const parts = [
    ...(filter.addresses.length > 0 ? [`addresses ${filter.addresses.join(",")}`] : []),
    ...(filter.txHashes.length > 0 ? [`hashes ${filter.txHashes.join(",")}`] : []),
  ];
  return parts.join("; ");
}
