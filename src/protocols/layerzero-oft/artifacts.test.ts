import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type AbiEvent, type Hex, pad, toEventSelector } from "viem";
import { endpointAbi, oftAbi } from "./abi.js";
import { loadLayerZeroArtifacts, readPackageArtifact, runtimeCodeMatches } from "./artifacts.js";
import { collectSources } from "./compile.js";
import { LAYERZERO_PINS, verifyLayerZeroPins } from "./pins.js";

const eventTopics = (abi: readonly unknown[]) =>
  new Map(
    (abi as AbiEvent[])
      .filter((x) => x.type === "event")
      .map((x) => [x.name, toEventSelector(x)] as const),
  );

describe("LayerZero artifacts and pins", () => {
  it("default: the installed packages match every pin", () => {
    assert.deepEqual(verifyLayerZeroPins(collectSources()), []);
    assert.equal(LAYERZERO_PINS.artifacts.version, "3.0.168");
  });

  it("behavior: a changed source is named by the pin check", () => {
    const sources = collectSources();
    const unit = Object.keys(sources).find((u) => u.startsWith("@layerzerolabs/oft-evm/"));
    assert.ok(unit !== undefined, "unit !== undefined");
    const problems = verifyLayerZeroPins({ ...sources, [unit]: `${sources[unit]}\n// edited` });
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? "", /^@layerzerolabs\/oft-evm sources compiled have sha256/);
  });

  it("default: our ABIs' events are the published contracts' events", () => {
    const endpoint = eventTopics(readPackageArtifact("EndpointV2").abi);
    for (const [name, topic] of eventTopics(endpointAbi))
      assert.equal(endpoint.get(name), topic, name);
    const oft = eventTopics(loadLayerZeroArtifacts().DevnetOFT.abi);
    for (const [name, topic] of eventTopics(oftAbi)) assert.equal(oft.get(name), topic, name);
  });

  it("behavior: runtime code matches with immutables filled in, and only then", () => {
    const artifact = {
      deployedBytecode: `0x60016002${"00".repeat(32)}6003${"00".repeat(32)}` as Hex,
    };
    const eid = pad("0x9ca5", { size: 32 });
    const owner = pad("0x52908400098527886e0f7030069857d2e4169ee7", { size: 32 });
    const deployed = `0x60016002${eid.slice(2)}6003${owner.slice(2)}` as Hex;
    assert.equal(runtimeCodeMatches(deployed, artifact, [eid, owner]), true);
    assert.equal(
      runtimeCodeMatches(deployed, artifact, [eid]),
      false,
      "an unknown value is a difference",
    );
    const tampered = `0x60016009${eid.slice(2)}6003${owner.slice(2)}` as Hex;
    assert.equal(
      runtimeCodeMatches(tampered, artifact, [eid, owner]),
      false,
      "a changed opcode is a difference",
    );
    assert.equal(runtimeCodeMatches("0x", artifact), false);

    const withRanges = {
      deployedBytecode: artifact.deployedBytecode,
      immutableRanges: [
        { start: 4, length: 32 },
        { start: 38, length: 32 },
      ],
    };
    assert.equal(runtimeCodeMatches(deployed, withRanges), true);
    assert.equal(runtimeCodeMatches(tampered, withRanges), false);
  });
});
