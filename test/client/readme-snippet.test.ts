/**
 * The README's "Executing a quote" snippet, run as shown against a devnet: the client package is
 * packed with `npm pack` (which builds it), the tarball unpacked into a fresh project's
 * node_modules beside viem (what `npm install viem ./bridge-oracle-client-*.tgz` does, without
 * a registry), the snippet written there as bridge.mjs and run with node, with the variables the
 * README names. So the README cannot drift from the package: a renamed function, a changed
 * signature or a token address the devnet no longer has fails here.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { type ClientStack, startClientStack } from "./stack.js";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

/** The ```js block between the README's quote-execution markers. */
export function readmeSnippet(readme: string): string {
  const section =
    /<!-- quote-execution snippet[^>]*-->([\s\S]*?)<!-- end of quote-execution snippet -->/.exec(
      readme,
    )?.[1];
  assert.ok(section !== undefined, "the README has the quote-execution markers");
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code !== undefined, "the section has a ```js block");
  return code;
}

describe("README: executing a quote with the client package", { timeout: 180_000 }, () => {
  let dir: string;
  let stack: ClientStack;
  let packed: { filename: string; files: { path: string }[] };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-snippet-"));
    const packing = run("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: join(ROOT, "packages", "client"),
    });
    [stack] = await Promise.all([startClientStack(), packing]);
    packed = (JSON.parse((await packing).stdout) as (typeof packed)[])[0]!;
  });
  after(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("default: npm pack holds the built modules and their types, no sources", () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const file of [
      "package.json",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/create-client.js",
      "dist/execute-quote.js",
      "dist/wait-for-transfer.js",
      "dist/errors.d.ts",
      "dist/generated/openapi.d.ts",
    ]) {
      assert.ok(files.includes(file), `${file} packed: ${files.join(", ")}`);
    }
    assert.deepEqual(
      files.filter((f) => !f.startsWith("dist/") && f !== "package.json"),
      [],
      "only dist/ and package.json",
    );
  });

  it("default: the snippet, installed from the tarball, bridges 25 DAI and sees it settle", async () => {
    const project = join(dir, "project");
    const installed = join(project, "node_modules", "@bridge-oracle", "client");
    await mkdir(installed, { recursive: true });
    await run("tar", ["-xzf", join(dir, packed.filename), "-C", installed, "--strip-components=1"]);
    await symlink(join(ROOT, "node_modules", "viem"), join(project, "node_modules", "viem"), "dir");
    const snippet = readmeSnippet(await readFile(join(ROOT, "README.md"), "utf8"));
    await writeFile(join(project, "bridge.mjs"), snippet);
    const alpha = stack.manifest.chains.find((c) => c.name === "alpha")!;
    const { stdout } = await run(process.execPath, ["bridge.mjs"], {
      cwd: project,
      timeout: 90_000,
      env: {
        PATH: process.env.PATH ?? "",
        BASE_URL: stack.url,
        API_KEY: stack.key,
        RPC_URL: alpha.rpcUrl,
        PRIVATE_KEY: stack.manifest.accounts[1]!.privateKey,
      },
    });
    const lines = stdout.trim().split("\n");
    assert.match(lines.at(-1)!, /^Success [0-9.]+ DAI$/, stdout);
  });

  it("behavior: the same snippet with an OFT's token addresses bridges 25 OMNI through OFT.send", async () => {
    const project = join(dir, "project");
    const omni = stack.manifest.layerzero?.meshes.find((m) => m.symbol === "OMNI");
    assert.ok(omni !== undefined, "the devnet has the OMNI mesh");
    const [alpha, beta] = stack.manifest.chains;
    const tokenOn = (chainId: number) => omni.deployments.find((d) => d.chainId === chainId)!.token;
    // The snippet's two token addresses (alpha's, then beta's) replaced by the OFTs'.
    const snippet = readmeSnippet(await readFile(join(ROOT, "README.md"), "utf8"))
      .replace(/sourceToken: "0x[0-9a-fA-F]{40}"/, `sourceToken: "${tokenOn(alpha!.chainId)}"`)
      .replace(/destToken: "0x[0-9a-fA-F]{40}"/, `destToken: "${tokenOn(beta!.chainId)}"`);
    assert.ok(snippet.includes(tokenOn(alpha!.chainId)), "the snippet names alpha's OMNI");
    await writeFile(join(project, "bridge-oft.mjs"), snippet);
    const { stdout } = await run(process.execPath, ["bridge-oft.mjs"], {
      cwd: project,
      timeout: 90_000,
      env: {
        PATH: process.env.PATH ?? "",
        BASE_URL: stack.url,
        API_KEY: stack.key,
        RPC_URL: alpha!.rpcUrl,
        PRIVATE_KEY: stack.manifest.accounts[1]!.privateKey,
      },
    });
    const lines = stdout.trim().split("\n");
    assert.match(lines.at(-1)!, /^Success 25 OMNI$/, stdout);
  });
});
