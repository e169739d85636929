/**
 * The verification snippet of docs/webhooks.md, run as an integrator would run it, against
 * signatures the delivery code makes: a real one verifies; a tampered body, another secret or an
 * old timestamp does not.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { signatureHeader } from "../../src/webhooks/signature.js";

type Verify = (
  secret: string,
  header: string,
  rawBody: string | Buffer,
  toleranceSeconds?: number,
) => boolean;

const MARKER =
  "<!-- verification snippet: test/webhooks/signature-docs.test.ts runs this block -->";

describe("docs/webhooks.md verification snippet", () => {
  let dir: string;
  let verify: Verify;

  before(async () => {
    const doc = await readFile(resolve(import.meta.dirname, "../../docs/webhooks.md"), "utf8");
    const after = doc.split(MARKER)[1];
    const code = /^```js\n([\s\S]*?)^```$/m.exec(after ?? "")?.[1];
    assert.ok(code, "the snippet's js block follows the marker");
    dir = await mkdtemp(join(tmpdir(), "webhook-snippet-"));
    const file = join(dir, "verify.mjs");
    await writeFile(file, code);
    ({ verifyWebhook: verify } = (await import(pathToFileURL(file).href)) as {
      verifyWebhook: Verify;
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const secret = "whsec_docs-test";
  const body =
    '{"id":"evt_5","type":"transfer.created","createdAt":"2026-11-26 10:00:00.000","seq":5,"data":{}}';
  const now = () => Math.floor(Date.now() / 1000);

  it("default: a delivery's signature verifies (string or Buffer body)", () => {
    const header = signatureHeader(secret, now(), body);
    assert.equal(verify(secret, header, body), true);
    assert.equal(verify(secret, header, Buffer.from(body)), true);
  });

  it("error: a tampered body fails", () => {
    const header = signatureHeader(secret, now(), body);
    assert.equal(verify(secret, header, body.replace("evt_5", "evt_6")), false);
  });

  it("error: another secret fails", () => {
    assert.equal(verify("whsec_other", signatureHeader(secret, now(), body), body), false);
  });

  it("error: an old timestamp fails, even with a correct signature", () => {
    const old = now() - 301;
    assert.equal(verify(secret, signatureHeader(secret, old, body), body), false);
    assert.equal(verify(secret, signatureHeader(secret, now() - 60, body), body), true);
  });

  it("error: a header without v1 or t fails", () => {
    assert.equal(verify(secret, `t=${now()}`, body), false);
    assert.equal(verify(secret, "v1=00", body), false);
  });
});
