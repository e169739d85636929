/**
 * `bridge-oracle check-config` against a devnet (reference bridges, DEX, LayerZero endpoints and
 * OFT meshes, Across SpokePools): the manifest as written passes; a wrong endpoint, an unset
 * peer, a peer configured at a wrong address, an address without code, a wrong chain id, a start
 * block beyond the head and an RPC that does not answer each fail with the message that names
 * the problem, and exit 1. Runs the command's `run` in this process, on the devnet's real nodes.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Address, getAddress, pad, zeroHash } from "viem";
import { run } from "../../src/cli/check-config.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import type { ConfigCheck } from "../../src/domain/config-check.js";
import { devnetOftAbi, oftAbi } from "../../src/protocols/layerzero-oft/abi.js";
import { connectChain, setupDevnet, type TestDevnet } from "../setup/anvil.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { freePort } from "../setup/free-port.js";

interface JsonReport {
  ok: boolean;
  summary: { ok: number; fail: number; skip: number };
  checks: ConfigCheck[];
}

describe("bridge-oracle check-config (devnet)", () => {
  let devnet: TestDevnet;
  let dir: string;
  let count = 0;

  before(async () => {
    devnet = await setupDevnet();
    dir = await mkdtemp(join(tmpdir(), "check-config-"));
  });
  after(async () => {
    await devnet?.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** The manifest, changed by `edit`, written to a file. */
  async function configFile(edit: (m: DevnetManifest) => void = () => {}): Promise<string> {
    const manifest = structuredClone(devnet.manifest);
    edit(manifest);
    const path = join(dir, `config-${count++}.json`);
    await writeFile(path, JSON.stringify(manifest));
    return path;
  }

  async function check(path: string, ...more: string[]) {
    let text = "";
    const { value: code, stderr } = await captureStderr(() =>
      run(
        ["--config", path, ...more],
        {},
        {
          write: (t) => {
            text += t;
          },
        },
      ),
    );
    return { code, text, stderr };
  }

  async function checkJson(path: string, ...more: string[]) {
    const { code, text, stderr } = await check(path, "--json", ...more);
    assert.ok(text !== "", `no JSON; stderr: ${stderr}`);
    return { code, stderr, report: JSON.parse(text) as JsonReport };
  }

  const failures = (report: JsonReport) => report.checks.filter((c) => c.status === "fail");
  const lz = () => {
    const section = devnet.manifest.layerzero;
    assert.ok(section !== undefined, "the devnet has LayerZero");
    return section;
  };
  const deployment = (symbol: string, chainId: number) => {
    const mesh = lz().meshes.find((m) => m.symbol === symbol);
    const d = mesh?.deployments.find((x) => x.chainId === chainId);
    assert.ok(d !== undefined, `${symbol} on ${chainId}`);
    return d;
  };

  it("default: the devnet manifest passes every check, exit 0", async () => {
    const path = await configFile();
    const { code, text, stderr } = await check(path);
    assert.equal(stderr, "", "nothing on stderr");
    assert.equal(code, 0, text);
    assert.doesNotMatch(text, /^FAIL/m, "no failure");
    assert.match(text, /checks, \d+ ok, 0 failed, 0 skipped: the configuration matches/);
    const { report } = await checkJson(path);
    assert.equal(report.ok, true, "ok in JSON");
    const of = (check: string) => report.checks.filter((c) => c.check === check);
    assert.equal(of("rpc").length, 3, "each chain's RPC");
    assert.equal(of("head").length, 3, "each chain's start block");
    // Every configured contract has code: bridges, endpoints, OFTs, SpokePools, DEX, tokens.
    for (const c of devnet.manifest.contracts ?? []) {
      assert.ok(
        of("code").some((x) => x.chainId === c.chainId && x.address === getAddress(c.address)),
        `code of ${c.address} on ${c.chainId}`,
      );
    }
    const alpha = devnet.manifest.chains[0]!;
    for (const address of [alpha.dex.factory, alpha.dex.pairs[0]!.address, alpha.bridges["1"]]) {
      assert.ok(
        of("code").some((x) => x.chainId === alpha.chainId && x.address === getAddress(address)),
        `code of ${address}`,
      );
    }
    for (const p of alpha.protocolBridges ?? []) {
      assert.ok(
        of("code").some((x) => x.address === getAddress(p.address)),
        `${p.protocol} ${p.address}`,
      );
    }
    // Each OFT: endpoint, token, kind, and a peer on each of the other two chains.
    const ofts = lz().meshes.flatMap((m) => m.deployments);
    for (const o of ofts) {
      const mine = report.checks.filter(
        (c) => c.address === getAddress(o.oft) && c.chainId === o.chainId,
      );
      for (const what of ["endpoint", "token", "kind"]) {
        assert.equal(mine.filter((c) => c.check === what).length, 1, `${what} of ${o.oft}`);
      }
      assert.equal(mine.filter((c) => c.check === "peer").length, 2, `peers of ${o.oft}`);
    }
    assert.equal(of("eid").length, 3, "each endpoint's eid()");
  });

  it("error: a wrong EndpointV2 address fails the endpoint and its OFTs' endpoint()", async () => {
    const alpha = devnet.manifest.chains[0]!;
    const dai = connectChain(devnet.manifest, "alpha").token("DAI");
    const path = await configFile((m) => {
      const endpoint = m.contracts?.find(
        (c) => c.auxiliary === true && c.chainId === alpha.chainId,
      );
      assert.ok(endpoint !== undefined, "alpha's endpoint entry");
      endpoint.address = dai;
    });
    const { code, report } = await checkJson(path);
    assert.equal(code, 1, "exit 1");
    const failed = failures(report);
    assert.ok(
      failed.some(
        (c) =>
          c.check === "eid" && /eid\(\) reverted: the address is not an EndpointV2/.test(c.message),
      ),
      JSON.stringify(failed, null, 1),
    );
    const omni = deployment("OMNI", alpha.chainId);
    const endpointFailure = failed.find(
      (c) => c.check === "endpoint" && c.address === getAddress(omni.oft),
    );
    assert.ok(endpointFailure !== undefined, "OMNI on alpha: endpoint() differs");
    assert.match(
      endpointFailure.message,
      new RegExp(
        `endpoint\\(\\) is ${lz().chains[0]!.endpoint}, but the configured EndpointV2 of alpha is ${getAddress(dai)}`,
      ),
    );
  });

  it("error: a peer unset by the OFT's owner is named, with the setPeer to make", async () => {
    const [alpha, beta] = devnet.manifest.chains;
    const omniAlpha = deployment("OMNI", alpha!.chainId);
    const omniBeta = deployment("OMNI", beta!.chainId);
    const chain = connectChain(devnet.manifest, "alpha");
    const owner = chain.wallet(devnet.manifest.deployer);
    const setPeer = async (peer: `0x${string}`) => {
      const hash = await owner.writeContract({
        address: omniAlpha.oft,
        abi: devnetOftAbi,
        functionName: "setPeer",
        args: [omniBeta.eid, peer],
      });
      const receipt = await chain.client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success", "setPeer");
    };
    const before = await chain.client.readContract({
      address: omniAlpha.oft,
      abi: oftAbi,
      functionName: "peers",
      args: [omniBeta.eid],
    });
    assert.equal(before, pad(omniBeta.oft.toLowerCase() as Address, { size: 32 }), "wired");
    await setPeer(zeroHash);
    try {
      const { code, text } = await check(await configFile());
      assert.equal(code, 1, text);
      const fails = text.split("\n").filter((l) => l.startsWith("FAIL"));
      assert.equal(fails.length, 1, text);
      assert.match(
        fails[0]!,
        new RegExp(
          `OFT ${getAddress(omniAlpha.oft)} on alpha \\(eid ${omniAlpha.eid}\\): peers\\(${omniBeta.eid}\\) is unset, but ${getAddress(omniBeta.oft)} on beta .* setPeer\\(${omniBeta.eid}, ${before}\\)`,
        ),
      );
      assert.match(text, /1 failed: fix the FAIL lines\n$/);
    } finally {
      await setPeer(before);
    }
  });

  it("error: an OFT configured at a wrong address: no OFT there, and the real peer is named", async () => {
    const beta = devnet.manifest.chains[1]!;
    const omniBeta = deployment("OMNI", beta.chainId);
    const usdc = connectChain(devnet.manifest, "beta").token("USDC");
    const path = await configFile((m) => {
      const entry = m.contracts?.find(
        (c) => c.chainId === beta.chainId && getAddress(c.address) === getAddress(omniBeta.oft),
      );
      assert.ok(entry !== undefined, "beta's OMNI entry");
      entry.address = usdc;
      entry.token = usdc;
    });
    const { code, report } = await checkJson(path);
    assert.equal(code, 1, "exit 1");
    const failed = failures(report);
    assert.ok(
      failed.some(
        (c) =>
          c.address === getAddress(usdc) &&
          /endpoint\(\) reverted: the address is not a LayerZero V2 OFT/.test(c.message),
      ),
      JSON.stringify(failed, null, 1),
    );
    // The other chains' OMNI name the real beta OMNI, which the configuration no longer lists.
    const unlisted = failed.filter(
      (c) =>
        c.check === "peer" &&
        c.message.includes(`is ${getAddress(omniBeta.oft)} on beta`) &&
        /does not list/.test(c.message),
    );
    assert.equal(unlisted.length, 2, JSON.stringify(failed, null, 1));
  });

  it("error: an OFTAdapter configured as an OFT: approvalRequired() says which to set", async () => {
    const alpha = devnet.manifest.chains[0]!;
    const adapter = deployment("lzDAI", alpha.chainId);
    assert.ok(adapter.adapter, "lzDAI on alpha is the adapter");
    const path = await configFile((m) => {
      const entry = m.contracts?.find(
        (c) => c.chainId === alpha.chainId && getAddress(c.address) === getAddress(adapter.oft),
      );
      assert.ok(entry !== undefined, "the adapter's entry");
      entry.kind = 2;
      entry.token = adapter.oft;
    });
    const { code, report } = await checkJson(path);
    assert.equal(code, 1, "exit 1");
    assert.deepEqual(
      failures(report).map((c) => c.message),
      [
        `OFT ${getAddress(adapter.oft)} on alpha (eid ${adapter.eid}): token() is ${getAddress(adapter.token)}, configured ${getAddress(adapter.oft)}: set "token": "${getAddress(adapter.token)}"`,
        `OFT ${getAddress(adapter.oft)} on alpha (eid ${adapter.eid}): approvalRequired() is true: an OFTAdapter (lock and unlock): set "kind": 0 and "token" to its token()`,
      ],
    );
  });

  it("error: an address without code is named, exit 1", async () => {
    const nowhere = "0x00000000000000000000000000000000DeaDBeef";
    const path = await configFile((m) => {
      m.chains[2]!.bridges["0"] = nowhere;
    });
    const { code, text } = await check(path);
    assert.equal(code, 1, text);
    assert.match(
      text,
      new RegExp(
        `^FAIL reference bridge kind 0 ${getAddress(nowhere)} on gamma has no code: a wrong address, or one on another chain`,
        "m",
      ),
    );
  });

  it("error: an rpcUrl of another chain (wrong chain id) fails that chain and skips its contracts", async () => {
    const path = await configFile((m) => {
      m.chains[1]!.rpcUrl = m.chains[0]!.rpcUrl;
    });
    const { code, report } = await checkJson(path);
    assert.equal(code, 1, "exit 1");
    const rpc = report.checks.find((c) => c.check === "rpc" && c.chainId === 71002);
    assert.equal(rpc?.status, "fail", "beta's RPC check fails");
    assert.match(
      rpc!.message,
      /eth_chainId is 71001, configured 71002: the rpcUrl is another chain's/,
    );
    assert.ok(
      report.checks.some(
        (c) =>
          c.status === "skip" && c.chainId === 71002 && /contracts not checked/.test(c.message),
      ),
      "beta's contracts skipped",
    );
    assert.ok(
      !report.checks.some((c) => c.check === "code" && c.chainId === 71002 && c.status !== "skip"),
      "no code check on beta",
    );
  });

  it("error: a start block beyond the head fails, contracts still checked", async () => {
    const path = await configFile((m) => {
      m.chains[0]!.deployBlock = 1_000_000_000;
    });
    const { code, report } = await checkJson(path);
    assert.equal(code, 1, "exit 1");
    const failed = failures(report);
    assert.equal(failed.length, 1, JSON.stringify(failed));
    assert.match(failed[0]!.message, /alpha: startBlock 1000000000 is beyond the head \d+/);
  });

  it("error: an RPC that does not answer: one line per chain, URL redacted, no stack, bounded", async () => {
    const port = await freePort();
    const path = await configFile((m) => {
      m.chains[2]!.rpcUrl =
        `http://operator:s3cretPassw0rd@127.0.0.1:${port}/v2/abcdefghijklmnopqrstuvwxyz?key=k3yk3yk3y`;
    });
    const started = Date.now();
    const { code, text, stderr } = await check(path, "--timeout", "2000");
    assert.ok(Date.now() - started < 15_000, "bounded");
    assert.equal(code, 1, text);
    assert.equal(stderr, "", "nothing on stderr");
    for (const secret of [
      "s3cretPassw0rd",
      "operator",
      "abcdefghijklmnopqrstuvwxyz",
      "k3yk3yk3y",
    ]) {
      assert.ok(!text.includes(secret), `${secret} not shown`);
    }
    assert.doesNotMatch(text, /\n\s+at /, "no stack trace");
    const gamma = text.split("\n").filter((l) => l.startsWith("FAIL") && l.includes("gamma"));
    assert.equal(gamma.length, 1, text);
    assert.match(
      gamma[0]!,
      /gamma \(71003\) at http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v2\/\*\*\*\?key=\*\*\*: eth_chainId failed: .*; check its rpcUrl/,
    );
  });

  it("error: an RPC that never answers is given up after --timeout", async () => {
    const silent = createServer(() => {
      // Reads the request, never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const path = await configFile((m) => {
        m.chains[0]!.rpcUrl = `http://127.0.0.1:${port}`;
      });
      const started = Date.now();
      const { code, text } = await check(path, "--timeout", "500");
      assert.ok(Date.now() - started < 5000, `bounded: ${Date.now() - started} ms`);
      assert.equal(code, 1, text);
      assert.match(
        text,
        new RegExp(
          `^FAIL alpha \\(71001\\) at http://127\\.0\\.0\\.1:${port}: eth_chainId: no answer within 500 ms; check its rpcUrl$`,
          "m",
        ),
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("behavior: a config that is no router registry skips the DEX; --registry checks it", async () => {
    const indexerOnly = await configFile((m) => {
      for (const chain of m.chains as unknown as Record<string, unknown>[]) {
        delete chain.dex;
        delete chain.uniswapV3;
      }
    });
    const alone = await checkJson(indexerOnly);
    assert.equal(alone.code, 0, JSON.stringify(failures(alone.report)));
    const skipped = alone.report.checks.filter((c) => c.status === "skip");
    assert.equal(skipped.length, 1, JSON.stringify(skipped));
    assert.match(
      skipped[0]!.message,
      /DEX contracts and tokens not checked: the file is no router registry \(invalid registry: chains\[0\] \(alpha\)\.dex must be an object\)/,
    );
    const factory = getAddress(devnet.manifest.chains[0]!.dex.factory);
    assert.ok(!alone.report.checks.some((c) => c.address === factory), "no DEX check");

    const registry = await configFile();
    const both = await checkJson(indexerOnly, "--registry", registry);
    assert.equal(both.code, 0, JSON.stringify(failures(both.report)));
    assert.equal(both.report.summary.skip, 0, "nothing skipped");
    assert.ok(
      both.report.checks.some((c) => c.address === factory && c.status === "ok"),
      "the registry's factory checked",
    );

    const pair = getAddress(devnet.manifest.chains[1]!.dex.pairs[0]!.address);
    const badRegistry = await configFile((m) => {
      m.chains[1]!.dex.pairs[0]!.address = "0x00000000000000000000000000000000000fa1fa";
    });
    const bad = await checkJson(indexerOnly, "--registry", badRegistry);
    assert.equal(bad.code, 1, "exit 1");
    assert.deepEqual(
      failures(bad.report).map((c) => c.message),
      [
        `Uniswap V2 pair USDC/WETH ${getAddress("0x00000000000000000000000000000000000Fa1Fa")} on beta has no code: a wrong address, or one on another chain; correct it in the configuration`,
      ],
      `in place of ${pair}`,
    );
  });

  it("behavior: --help prints the usage on stdout, exit 0; a bad --timeout is refused", async () => {
    let text = "";
    const code = await run(
      ["--help"],
      {},
      {
        write: (t) => {
          text += t;
        },
      },
    );
    assert.equal(code, 0, "exit 0");
    assert.match(text, /^usage: bridge-oracle check-config \[--config FILE\]/);
    const refused = await check(await configFile(), "--timeout", "5");
    assert.equal(refused.code, 1, "exit 1");
    assert.match(refused.stderr, /--timeout must be milliseconds from 100 to 600000, got 5/);
    assert.equal(refused.text, "", "nothing checked");
  });

  it("error: a file that is not a configuration is one line on stderr, exit 1", async () => {
    const path = join(dir, "bad.json");
    await writeFile(path, "{}");
    const { code, text, stderr } = await check(path);
    assert.equal(code, 1, "exit 1");
    assert.equal(text, "", "nothing on stdout");
    assert.match(stderr, /chains/);
  });
});
