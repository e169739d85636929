/// <reference lib="dom" />
/**
 * The page of one transfer, /transfer/<message id or hash>: its timeline (sent -> delivered or
 * failed -> refunded, with chains, blocks, times and the time between steps), both chains'
 * transactions and addresses, and its amounts and fees with their tokens
 * (GET /api/oracle/bridge-transactions/:id/timeline). While the transfer is Processing the page
 * follows its changes on the server-sent event stream (GET
 * /api/oracle/bridge-transactions/stream?addressOrTxHash=<message id>, docs/push.md) and re-reads
 * the timeline on each `transfer` event; where the stream cannot be had (no EventSource, refused,
 * closed) it re-reads every POLL_MS instead. A Failed transfer not yet refunded is re-read every
 * POLL_MS (a refund changes the events, not the record, so the stream does not tell); so is a
 * hash the service does not know yet (a transaction just sent from a wallet), for a while: the
 * indexer sees it within seconds.
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { amountNode } from "./amount-view.js";
import type { ApiClient } from "./api-client.js";
import type { TimelineStep, TransferTimeline } from "./api-types.js";
import { el, showMessage } from "./dom.js";
import { EMPTY_VALUE, formatDuration, formatUtcTime, statusBadgeClass } from "./format.js";

export const POLL_MS = 2000;
export const STREAM_PATH = "/api/oracle/bridge-transactions/stream";
/** How long a hash nobody knows yet, or a failure without its refund, keeps being re-read. */
export const PATIENCE_MS = 120_000;

const STEP_TITLES: Record<TimelineStep["step"], string> = {
  sent: "Sent",
  delivered: "Delivered",
  failed: "Failed on the destination",
  refunded: "Refunded to the sender",
};

/** The id in /transfer/<id>; "" when the path is not a transfer page. */
export function transferIdFromPath(pathname: string): string {
  const match = /^\/transfer\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return "";
  try {
    return decodeURIComponent(match[1]).trim();
  } catch {
    return "";
  }
}

function hexValue(value: string, className: string): HTMLElement {
  return value === ""
    ? el("span", { class: "pending" }, EMPTY_VALUE)
    : el("code", { class: `hex ${className}` }, value);
}

function row(label: string, ...value: (Node | string)[]): HTMLElement {
  return el("div", { class: "detail" }, el("dt", {}, label), el("dd", {}, ...value));
}

function stepItem(step: TimelineStep): HTMLElement {
  const block = step.blockNumber === null ? "" : ` · block ${step.blockNumber}`;
  const chain =
    step.chainName === "" ? (step.chainId === null ? "" : `chain ${step.chainId}`) : step.chainName;
  return el(
    "li",
    { class: `step step-${step.step}`, "data-step": step.step },
    el("h3", {}, STEP_TITLES[step.step]),
    el(
      "p",
      { class: "step-when" },
      `${formatUtcTime(step.time)} · ${chain}${block}`,
      step.step === "sent" ? "" : ` · ${formatDuration(step.secondsAfterSent)} after sending`,
    ),
    el("p", { class: "step-tx" }, "Transaction ", hexValue(step.txHash, "step-hash")),
    step.reason === "" ? null : el("p", { class: "step-reason" }, `Reason: ${step.reason}`),
    step.amount === ""
      ? null
      : el("p", { class: "step-amount" }, "Repaid ", amountNode(step.amount, step.tokenSymbol)),
  );
}

function pendingItem(transfer: BridgeTransaction): HTMLElement | null {
  if (transfer.status !== "Processing") return null;
  return el(
    "li",
    { class: "step step-pending", "data-step": "pending" },
    el("h3", {}, "Waiting for delivery"),
    el("p", {}, `On its way to ${transfer.dest_chain_name}; this page updates by itself.`),
  );
}

export function renderTransfer(target: HTMLElement, timeline: TransferTimeline): void {
  const t = timeline.transfer;
  target.replaceChildren(
    el(
      "div",
      { class: "transfer-head" },
      el("h2", { id: "transfer-title" }, "Transfer"),
      el("span", { class: statusBadgeClass(t.status), id: "transfer-status" }, t.status),
    ),
    el("p", { class: "transfer-route" }, `${t.source_chain_name} → ${t.dest_chain_name}`),
    el(
      "ol",
      { class: "timeline", "aria-label": "Timeline" },
      ...timeline.steps.map(stepItem),
      pendingItem(t),
    ),
    el("h3", {}, "Amounts"),
    el(
      "dl",
      { class: "details amounts" },
      row("Sent", amountNode(t.send_amount, t.source_token_symbol, "amount amount-sent")),
      row(
        "Minimum to receive",
        amountNode(t.min_receive_amount, t.dest_token_symbol, "amount amount-min"),
      ),
      row("Received", amountNode(t.receive_amount, t.dest_token_symbol, "amount amount-received")),
      row("Bridge fee", amountNode(t.bridge_fee, t.fee_symbol, "amount fee-bridge")),
      row("Messaging fee", amountNode(t.xproto_fee, t.fee_symbol, "amount fee-messaging")),
      row("Subsidy", amountNode(t.subsidy_amount, "", "amount subsidy")),
    ),
    el("h3", {}, "Chains and addresses"),
    el(
      "dl",
      { class: "details parties" },
      row("Message id", hexValue(t.message_id, "message")),
      row("From", hexValue(t.from_address, "from")),
      row("To", hexValue(t.to_address, "to")),
      row(`Source transaction (${t.source_chain_name})`, hexValue(t.source_tx_hash, "source-tx")),
      row(`Destination transaction (${t.dest_chain_name})`, hexValue(t.dest_tx_hash, "dest-tx")),
      row("Source bridge", hexValue(t.source_contract, "source-contract")),
      row("Destination bridge", hexValue(t.dest_contract, "dest-contract")),
      row("Started", formatUtcTime(t.start_time)),
      row("Ended", formatUtcTime(t.end_time)),
    ),
  );
}

/** Whether the page should keep re-reading the transfer. */
export function stillMoving(timeline: TransferTimeline): boolean {
  if (timeline.transfer.status === "Processing") return true;
  // A failure is followed by the relayer's refund on the source chain (indexed records only).
  const indexed = timeline.steps.some((s) => s.blockNumber !== null);
  return (
    timeline.transfer.status === "Failed" &&
    indexed &&
    !timeline.steps.some((s) => s.step === "refunded")
  );
}

export interface TransferPageDeps {
  client: ApiClient;
  window: Window;
  id: string;
  section: HTMLElement;
  content: HTMLElement;
  error: HTMLElement;
}

export function createTransferPage(deps: TransferPageDeps): { start(): void } {
  const { client, window: win, id, section, content, error } = deps;
  const startedAt = Date.now();
  let rendered: string | undefined;
  let stream: EventSource | undefined;
  /** The stream was refused or closed: poll from now on. */
  let streamFailed = false;
  let pollTimer: number | undefined;
  const EventSourceClass = (win as unknown as { EventSource?: typeof EventSource }).EventSource;

  function poll(): void {
    if (pollTimer !== undefined) return;
    pollTimer = win.setTimeout(() => {
      pollTimer = undefined;
      void load();
    }, POLL_MS);
  }

  /** Follows the transfer on the stream; false when it cannot. */
  function follow(messageId: string): boolean {
    if (stream !== undefined) return true;
    if (streamFailed || EventSourceClass === undefined) return false;
    const source = new EventSourceClass(
      `${STREAM_PATH}?addressOrTxHash=${encodeURIComponent(messageId)}`,
    );
    stream = source;
    // Opened (again): whatever changed before it is read once.
    source.addEventListener("open", () => void load());
    source.addEventListener("transfer", () => void load());
    source.addEventListener("error", () => {
      if (source.readyState !== EventSourceClass.CLOSED) return; // reconnecting by itself
      stream = undefined;
      streamFailed = true;
      poll();
    });
    return true;
  }

  function stopFollowing(): void {
    stream?.close();
    stream = undefined;
  }

  async function load(): Promise<void> {
    const answer = await client.timeline(id);
    if (answer.ok) {
      showMessage(error, "");
      const json = JSON.stringify(answer.data);
      if (json !== rendered) {
        rendered = json;
        renderTransfer(content, answer.data);
        win.document.title = `Transfer ${answer.data.transfer.status} · bridge-oracle explorer`;
      }
      if (answer.data.transfer.status === "Processing") {
        if (!follow(answer.data.transfer.message_id)) poll();
        return;
      }
      stopFollowing();
      if (stillMoving(answer.data) && Date.now() - startedAt < PATIENCE_MS) poll();
    } else if (answer.status === 404 && Date.now() - startedAt < PATIENCE_MS) {
      showMessage(
        error,
        `${answer.msg}. If it was just sent, it appears here once the indexer sees it; retrying.`,
      );
      poll();
    } else if (stream === undefined) {
      showMessage(error, answer.msg);
    }
  }

  return {
    start() {
      section.hidden = false;
      void load();
    },
  };
}
