/// <reference lib="dom" />
/**
 * The page of one transfer, /transfer/<message id or hash>: its timeline (sent -> delivered or
 * failed -> refunded, with chains, blocks, times and the time between steps), both chains'
 * transactions and addresses (search, copy, block explorer), and its amounts and fees with their
 * tokens (GET /api/oracle/bridge-transactions/:id/timeline).
 *
 * While the transfer is Processing the page follows its changes on the server-sent event stream
 * (GET /api/oracle/bridge-transactions/stream?addressOrTxHash=<message id>, docs/push.md) and
 * re-reads the timeline on each `transfer` event; where the stream cannot be had it re-reads
 * every POLL_MS. A Failed transfer not yet refunded is re-read every POLL_MS (a refund changes
 * the events, not the record, so the stream does not tell).
 *
 * A transaction hash the service does not know yet is what a wallet has just sent: the page
 * says "Submitted, waiting for the source chain" with the transaction (not an error) and asks
 * again every POLL_MS for PATIENCE_MS. An id that cannot be a transfer's, or a message id no
 * transfer has, is said at once.
 */
import { amountNode } from "./amount-view.js";
import type { ApiClient } from "./api-client.js";
import type { TimelineStep, TransferTimeline } from "./api-types.js";
import { type ChainDirectory, EMPTY_DIRECTORY } from "./chain-directory.js";
import { el, showMessage } from "./dom.js";
import {
  EMPTY_VALUE,
  formatDuration,
  formatUtcTime,
  protocolOf,
  searchKind,
  shortenHex,
  statusBadgeClass,
} from "./format.js";
import type { ShownTransfer } from "./transfers-table.js";
import { chainNode, hexView, protocolBadge, timeNode } from "./value-views.js";

export const POLL_MS = 2000;
export const STREAM_PATH = "/api/oracle/bridge-transactions/stream";
/** How long a hash nobody knows yet, or a failure without its refund, keeps being re-read. */
export const PATIENCE_MS = 120_000;
/** The query parameter the bridge button adds: the source chain's id of a just-sent hash. */
export const SUBMITTED_PARAM = "submitted";

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

/** The stage a badge shows: the status, or "Refunded" once the refund of a failure is seen. */
export function stageOf(timeline: TransferTimeline): string {
  return timeline.steps.some((s) => s.step === "refunded") ? "Refunded" : timeline.transfer.status;
}

function stageBadgeClass(stage: string): string {
  return stage === "Refunded" ? "badge badge-refunded" : statusBadgeClass(stage);
}

function row(label: string, ...value: (Node | string | null)[]): HTMLElement {
  return el("div", { class: "detail" }, el("dt", {}, label), el("dd", {}, ...value));
}

/** Why a refund came back in another token than the one sent, in words. */
export function refundNote(step: TimelineStep, t: ShownTransfer): string {
  if (step.step !== "refunded") return "";
  if (step.amount === "") {
    return `Refunded in the token at ${step.tokenAddress || "an unknown address"}, not the ${t.source_token_symbol} sent: check the amount on the block explorer.`;
  }
  if (step.tokenSymbol === "" || step.tokenSymbol === t.source_token_symbol) return "";
  return `Refunded in ${step.tokenSymbol}, the bridge's token on ${t.source_chain_name}, not the ${t.source_token_symbol} sent: the ${t.source_token_symbol} was swapped into ${step.tokenSymbol} before bridging, and a failed transfer returns what the bridge held.`;
}

function stepItem(step: TimelineStep, t: ShownTransfer, chains: ChainDirectory): HTMLElement {
  const chainName =
    step.chainName === "" ? (step.chainId === null ? "" : `chain ${step.chainId}`) : step.chainName;
  const blockUrl =
    step.blockNumber === null
      ? undefined
      : chains.explorerUrl(step.chainName, "block", String(step.blockNumber));
  const note = refundNote(step, t);
  return el(
    "li",
    { class: `step step-${step.step}`, "data-step": step.step },
    el("h3", {}, STEP_TITLES[step.step]),
    el(
      "p",
      { class: "step-when" },
      timeNode(step.time),
      step.step === "sent" ? "" : ` · ${formatDuration(step.secondsAfterSent)} after sending`,
      " · ",
      chainName === "" ? "" : chainNode(chainName, chains),
      step.blockNumber === null
        ? ""
        : el(
            "span",
            { class: "step-block" },
            blockUrl === undefined
              ? ` · block ${step.blockNumber}`
              : el(
                  "span",
                  {},
                  " · ",
                  el(
                    "a",
                    { href: blockUrl, target: "_blank", rel: "noopener noreferrer" },
                    `block ${step.blockNumber}`,
                  ),
                ),
          ),
    ),
    el(
      "p",
      { class: "step-tx" },
      "Transaction ",
      hexView(step.txHash, {
        what: `${STEP_TITLES[step.step].toLowerCase()} transaction hash`,
        short: true,
        className: "step-hash",
        explorerUrl: chains.explorerUrl(step.chainName, "tx", step.txHash),
      }),
    ),
    step.reason === "" ? null : el("p", { class: "step-reason" }, `Reason: ${step.reason}`),
    step.amount === ""
      ? null
      : el("p", { class: "step-amount" }, "Repaid ", amountNode(step.amount, step.tokenSymbol)),
    note === "" ? null : el("p", { class: "step-note" }, note),
  );
}

function pendingItem(t: ShownTransfer, chains: ChainDirectory): HTMLElement | null {
  if (t.status !== "Processing") return null;
  return el(
    "li",
    { class: "step step-pending", "data-step": "pending" },
    el("h3", {}, "Waiting for delivery"),
    el(
      "p",
      {},
      "On its way to ",
      chainNode(t.dest_chain_name, chains),
      "; this page updates by itself.",
    ),
  );
}

/** The subsidy's token: paid in the destination bridge token. */
function subsidySymbol(t: ShownTransfer, chains: ChainDirectory): string {
  if (t.dest_bridge_token.toLowerCase() === t.dest_token_address.toLowerCase()) {
    return t.dest_token_symbol;
  }
  return chains.tokenSymbol(t.dest_chain_name, t.dest_bridge_token);
}

function addressView(
  value: string,
  what: string,
  chainName: string,
  chains: ChainDirectory,
  className: string,
): HTMLElement {
  return hexView(value, {
    what,
    className,
    searchHref: `/?q=${encodeURIComponent(value)}`,
    explorerUrl: chains.explorerUrl(chainName, "address", value),
  });
}

export function renderTransfer(
  target: HTMLElement,
  timeline: TransferTimeline,
  chains: ChainDirectory = EMPTY_DIRECTORY,
): void {
  const t = timeline.transfer as ShownTransfer;
  const stage = stageOf(timeline);
  const failed = t.status === "Failed";
  const subsidyToken = subsidySymbol(t, chains);
  target.replaceChildren(
    el(
      "div",
      { class: "transfer-head" },
      el("h2", { id: "transfer-title" }, "Transfer"),
      el("span", { class: stageBadgeClass(stage), id: "transfer-status" }, stage),
      protocolBadge(protocolOf(t)),
    ),
    el(
      "p",
      { class: "transfer-route" },
      amountNode(t.send_amount, t.source_token_symbol, "amount amount-headline"),
      " from ",
      chainNode(t.source_chain_name, chains),
      el("span", { class: "nowrap" }, " to ", chainNode(t.dest_chain_name, chains)),
      " · ",
      timeNode(t.start_time),
    ),
    el(
      "ol",
      { class: "timeline", "aria-label": "Timeline" },
      ...timeline.steps.map((step) => stepItem(step, t, chains)),
      pendingItem(t, chains),
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
      row(
        "Received",
        failed
          ? el(
              "span",
              { class: "amount amount-received pending" },
              `${EMPTY_VALUE} (nothing was delivered${stage === "Refunded" ? "; see the refund above" : ""})`,
            )
          : amountNode(t.receive_amount, t.dest_token_symbol, "amount amount-received"),
      ),
      row("Bridge fee", amountNode(t.bridge_fee, t.fee_symbol, "amount fee-bridge")),
      row("Messaging fee", amountNode(t.xproto_fee, t.fee_symbol, "amount fee-messaging")),
      row(
        "Subsidy",
        amountNode(t.subsidy_amount, subsidyToken, "amount subsidy"),
        subsidyToken === "" ? " (in the destination bridge token)" : "",
      ),
    ),
    el("h3", {}, "Chains and addresses"),
    el(
      "dl",
      { class: "details parties" },
      row("Message id", hexView(t.message_id, { what: "message id", className: "message" })),
      row(
        "From",
        addressView(t.from_address, "sender address", t.source_chain_name, chains, "from"),
      ),
      row("To", addressView(t.to_address, "recipient address", t.dest_chain_name, chains, "to")),
      row(
        "Source transaction",
        hexView(t.source_tx_hash, {
          what: "source transaction hash",
          className: "source-tx",
          explorerUrl: chains.explorerUrl(t.source_chain_name, "tx", t.source_tx_hash),
        }),
      ),
      row(
        "Destination transaction",
        hexView(t.dest_tx_hash, {
          what: "destination transaction hash",
          className: "dest-tx",
          explorerUrl: chains.explorerUrl(t.dest_chain_name, "tx", t.dest_tx_hash),
        }),
      ),
      row(
        "Source bridge",
        hexView(t.source_contract, {
          what: "source bridge address",
          className: "source-contract",
          explorerUrl: chains.explorerUrl(t.source_chain_name, "address", t.source_contract),
        }),
      ),
      row(
        "Destination bridge",
        hexView(t.dest_contract, {
          what: "destination bridge address",
          className: "dest-contract",
          explorerUrl: chains.explorerUrl(t.dest_chain_name, "address", t.dest_contract),
        }),
      ),
      row(
        "Started",
        timeNode(t.start_time),
        t.start_time === "" ? "" : ` · ${formatUtcTime(t.start_time)}`,
      ),
      row(
        "Ended",
        timeNode(t.end_time),
        t.end_time === "" ? "" : ` · ${formatUtcTime(t.end_time)}`,
      ),
    ),
  );
}

/** Placeholders of the page's shape while the first answer is on its way. */
export function renderTransferSkeleton(target: HTMLElement): void {
  target.replaceChildren(
    el(
      "div",
      { class: "transfer-head" },
      el("h2", { id: "transfer-title" }, "Transfer"),
      el("span", { class: "badge" }, "Loading…"),
    ),
    el("p", { class: "transfer-route" }, el("span", { class: "skeleton skeleton-wide" }, " ")),
    el(
      "ol",
      { class: "timeline", "aria-hidden": "true" },
      el("li", { class: "step step-skeleton" }, el("span", { class: "skeleton" }, " ")),
    ),
  );
}

/** A hash just sent from a wallet, not indexed yet: what was submitted, not an error. */
export function renderSubmitted(
  target: HTMLElement,
  hash: string,
  chain: { name: string; explorerUrl: string | undefined } | undefined,
): void {
  target.replaceChildren(
    el(
      "div",
      { class: "transfer-head" },
      el("h2", { id: "transfer-title" }, "Transfer"),
      el("span", { class: "badge badge-processing", id: "transfer-status" }, "Submitted"),
    ),
    el(
      "ol",
      { class: "timeline", "aria-label": "Timeline" },
      el(
        "li",
        { class: "step step-pending step-submitted", "data-step": "submitted" },
        el("h3", {}, "Submitted, waiting for the source chain"),
        el(
          "p",
          { class: "step-tx" },
          "Transaction ",
          hexView(hash, {
            what: "transaction hash",
            short: true,
            explorerUrl: chain?.explorerUrl,
          }),
          chain === undefined ? "" : ` on ${chain.name}`,
        ),
        el(
          "p",
          {},
          "The transfer shows here as soon as its block is confirmed and indexed (usually within seconds); this page updates by itself.",
        ),
      ),
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

/** The words for an id that cannot name a transfer, or "" when it can. */
export function invalidTransferId(id: string): string {
  const kind = searchKind(id);
  if (kind === "address") {
    return `${shortenHex(id)} is an address, not a transfer: search it to see its transfers.`;
  }
  if (kind === "invalid") {
    const shown = id.length > 24 ? `${id.slice(0, 24)}…` : id;
    return `“${shown}” is not a transfer id. A transfer is found by its message id or a transaction hash (0x and 64 hex digits).`;
  }
  return "";
}

export interface TransferPageDeps {
  client: ApiClient;
  window: Window;
  id: string;
  section: HTMLElement;
  content: HTMLElement;
  error: HTMLElement;
  chains: Promise<ChainDirectory>;
}

export function createTransferPage(deps: TransferPageDeps): { start(): void } {
  const { client, window: win, id, section, content, error } = deps;
  const startedAt = Date.now();
  let rendered: string | undefined;
  let shownTimeline: TransferTimeline | undefined;
  let chains: ChainDirectory = EMPTY_DIRECTORY;
  let stream: EventSource | undefined;
  /** The stream was refused or closed: poll from now on. */
  let streamFailed = false;
  let pollTimer: number | undefined;
  const EventSourceClass = (win as unknown as { EventSource?: typeof EventSource }).EventSource;
  const submittedChain = new URLSearchParams(win.location.search).get(SUBMITTED_PARAM);

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

  function showSubmitted(): void {
    const chainId = Number(submittedChain);
    const chain = Number.isInteger(chainId) ? chains.chainById(chainId) : undefined;
    renderSubmitted(
      content,
      id,
      chain === undefined
        ? undefined
        : { name: chain.displayName, explorerUrl: chains.explorerUrl(chain.name, "tx", id) },
    );
    win.document.title = "Transfer submitted · bridge-oracle explorer";
  }

  function render(timeline: TransferTimeline): void {
    shownTimeline = timeline;
    renderTransfer(content, timeline, chains);
    win.document.title = `Transfer ${stageOf(timeline)} · bridge-oracle explorer`;
  }

  async function load(): Promise<void> {
    const answer = await client.timeline(id);
    if (answer.ok) {
      showMessage(error, "");
      const json = JSON.stringify(answer.data);
      if (json !== rendered) {
        rendered = json;
        render(answer.data);
      }
      if (answer.data.transfer.status === "Processing") {
        if (!follow(answer.data.transfer.message_id)) poll();
        return;
      }
      stopFollowing();
      if (stillMoving(answer.data) && Date.now() - startedAt < PATIENCE_MS) poll();
      return;
    }
    const waiting = answer.status === 404 && searchKind(id) === "hash";
    if (waiting && Date.now() - startedAt < PATIENCE_MS) {
      // Just sent from a wallet (or about to be indexed): say so, and ask again.
      if (rendered === undefined) {
        rendered = "submitted";
        showSubmitted();
      }
      poll();
      return;
    }
    if (stream !== undefined) return;
    rendered = "error";
    content.replaceChildren();
    if (answer.status === 404) {
      showMessage(
        error,
        waiting
          ? `No transfer has the transaction ${shortenHex(id)} after ${PATIENCE_MS / 60_000} minutes. Check that it was sent on a chain this service indexes, then reload.`
          : `No transfer has the id ${id.length > 40 ? shortenHex(id) : id}.`,
      );
    } else if (answer.status === 400) {
      showMessage(error, invalidTransferId(id) || `“${id}” is not a transfer id.`);
    } else {
      showMessage(error, `The transfer could not be read: ${answer.msg}.`);
    }
  }

  return {
    start() {
      section.hidden = false;
      const invalid = invalidTransferId(id);
      if (invalid !== "") {
        showMessage(error, invalid);
        if (searchKind(id) === "address") {
          error.append(" ", el("a", { href: `/?q=${encodeURIComponent(id)}` }, "Search it"));
        }
        return;
      }
      if (submittedChain !== null && searchKind(id) === "hash") showSubmitted();
      else renderTransferSkeleton(content);
      void deps.chains.then((directory) => {
        chains = directory;
        if (shownTimeline !== undefined) render(shownTimeline);
        else if (rendered === "submitted" || (rendered === undefined && submittedChain !== null)) {
          if (searchKind(id) === "hash") showSubmitted();
        }
      });
      void load();
    },
  };
}

/** The URL the bridge button opens after sending: the hash's page, told it was just sent. */
export function submittedHref(hash: string, chainId: number): string {
  return `/transfer/${encodeURIComponent(hash)}?${SUBMITTED_PARAM}=${chainId}`;
}
