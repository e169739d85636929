import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { ApiError } from "../errors.js";
import { requestGate } from "./request-gate.js";

async function appWithGate(
  setup: (gate: ReturnType<typeof requestGate>, ran: string[]) => void,
): Promise<{ inject: () => Promise<{ status: number; body: string }>; ran: string[] }> {
  const app = Fastify({ logger: false });
  const ran: string[] = [];
  setup(requestGate(app), ran);
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof ApiError ? error.status : 500;
    return reply.code(status).send((error as Error).message);
  });
  app.get("/", async () => {
    ran.push("handler");
    return "ok";
  });
  await app.ready();
  return {
    ran,
    inject: async () => {
      const response = await app.inject({ method: "GET", url: "/" });
      return { status: response.statusCode, body: response.body };
    },
  };
}

describe("requestGate", () => {
  it("behavior: runs steps by phase, then in the order they were added", async () => {
    const { inject, ran } = await appWithGate((gate, ran) => {
      gate.add("refuse", () => void ran.push("refuse"));
      gate.add("identify", () => void ran.push("identify 1"));
      gate.add("limit", () => void ran.push("limit"));
      gate.add("prepare", () => void ran.push("prepare"));
      gate.add("identify", () => void ran.push("identify 2"));
      gate.add("route", () => void ran.push("route"));
    });
    assert.deepEqual(await inject(), { status: 200, body: "ok" });
    assert.deepEqual(ran, [
      "prepare",
      "route",
      "identify 1",
      "identify 2",
      "limit",
      "refuse",
      "handler",
    ]);
  });

  it("behavior: a refusal skips the remaining steps and the handler", async () => {
    const { inject, ran } = await appWithGate((gate, ran) => {
      gate.add("identify", () => void ran.push("identify"));
      gate.add("limit", () => {
        ran.push("limit");
        return new ApiError("rateLimited", "slow down");
      });
      gate.add("refuse", () => void ran.push("refuse"));
    });
    assert.deepEqual(await inject(), { status: 429, body: "slow down" });
    assert.deepEqual(ran, ["identify", "limit"]);
  });

  it("behavior: waits for a step's promise, then goes on or refuses", async () => {
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
    const passing = await appWithGate((gate, ran) => {
      gate.add("limit", () => later(undefined).then(() => void ran.push("limit")));
      gate.add("refuse", () => void ran.push("refuse"));
    });
    assert.deepEqual(await passing.inject(), { status: 200, body: "ok" });
    assert.deepEqual(passing.ran, ["limit", "refuse", "handler"]);

    const refusing = await appWithGate((gate, ran) => {
      gate.add("limit", () => later(new ApiError("missingApiKey", "no key")));
      gate.add("refuse", () => void ran.push("refuse"));
    });
    assert.deepEqual(await refusing.inject(), { status: 401, body: "no key" });
    assert.deepEqual(refusing.ran, []);
  });

  it("error: a step's rejected promise reaches the error handler", async () => {
    const { inject, ran } = await appWithGate((gate, ran) => {
      gate.add("limit", () => Promise.reject(new Error("redis down")));
      gate.add("refuse", () => void ran.push("refuse"));
    });
    assert.deepEqual(await inject(), { status: 500, body: "redis down" });
    assert.deepEqual(ran, []);
  });

  it("behavior: one gate (and one hook) per app, however often it is asked for", async () => {
    const app = Fastify({ logger: false });
    assert.equal(requestGate(app), requestGate(app));
    assert.throws(
      () => requestGate(app).add("later" as never, () => undefined),
      /unknown request gate phase 'later'/,
    );
  });
});
