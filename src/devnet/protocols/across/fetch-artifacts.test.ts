import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { ACROSS_SPOKE_POOLS } from "../../../protocols/across/presets.js";
import {
  AcrossArtifactsError,
  extractAcrossArtifacts,
  loadAcrossArtifacts,
  readTarEntries,
} from "./fetch-artifacts.js";

/** A one-file ustar archive. */
function tarOf(name: string, body: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, "0")}\0`, 124);
  header.write("0", 156);
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
  data.write(body);
  return Buffer.concat([header, data, Buffer.alloc(1024)]);
}

describe("Across artifacts", () => {
  it("default: the pinned package gives the SpokePool and proxy with bytecode, and the presets are its deployment list's", () => {
    const artifacts = loadAcrossArtifacts();
    for (const name of ["Ethereum_SpokePool", "ERC1967Proxy"] as const) {
      assert.match(artifacts.contracts[name].bytecode, /^0x[0-9a-f]{100,}$/, name);
    }
    for (const preset of ACROSS_SPOKE_POOLS) {
      assert.deepEqual(
        artifacts.spokePools[String(preset.chainId)],
        { address: preset.spokePool, blockNumber: preset.deployBlock },
        `${preset.chainName} preset as published`,
      );
    }
  });

  it("behavior: readTarEntries finds the wanted files only", () => {
    const entries = readTarEntries(tarOf("package/a.json", '{"x":1}'), ["package/a.json"]);
    assert.equal(entries.get("package/a.json")?.toString(), '{"x":1}');
    assert.equal(readTarEntries(tarOf("package/b.json", "{}"), ["package/a.json"]).size, 0);
  });

  it("error: a tarball that is not the pinned one is refused before anything is read", () => {
    assert.throws(
      () => extractAcrossArtifacts(gzipSync(tarOf("package/a.json", "{}"))),
      (error: unknown) =>
        error instanceof AcrossArtifactsError && /is not the pinned/.test(error.message),
    );
  });
});
