/**
 * The request gate: ONE onRequest hook that runs every per-request check of the app in a fixed
 * order, instead of one Fastify hook per check. Each Fastify hook costs its own turn through
 * Fastify's hook runner on every request; the checks themselves are a few property reads.
 *
 * Plugins add steps with a phase; steps run by phase, then in the order they were added:
 *
 *   prepare   the request id header, refusing new requests while the server closes (app.ts)
 *   route     404 / 405 before anything else judges the request (plugins/errors.ts)
 *   identify  who is calling: the API key, never refuses (plugins/auth.ts)
 *   limit     the rate limit, counting every request that reached it (plugins/rate-limit.ts)
 *   refuse    a missing or unknown key (plugins/auth.ts), after the limit counted it
 *
 * A step returns an ApiError to refuse (the remaining steps are skipped and the app's error
 * handler answers with the envelope), undefined to go on, or a promise of either (the rate
 * limit's Redis round trip). Everything runs before the body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiError } from "../errors.js";

export const GATE_PHASES = ["prepare", "route", "identify", "limit", "refuse"] as const;
export type GatePhase = (typeof GATE_PHASES)[number];

export type GateVerdict = ApiError | undefined;
export type GateStep = (
  request: FastifyRequest,
  reply: FastifyReply,
) => GateVerdict | Promise<GateVerdict>;

export interface RequestGate {
  add(phase: GatePhase, step: GateStep): void;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The app's request gate (request-gate.ts); use requestGate(app) to get or make it. */
    requestGate?: RequestGate;
  }
}

/**
 * The gate of `app`, installing its hook on first use. Call on the root instance before any
 * route is registered; steps added later still run (the hook reads the list per request).
 */
export function requestGate(app: FastifyInstance): RequestGate {
  if (app.requestGate !== undefined) return app.requestGate;
  const byPhase: GateStep[][] = GATE_PHASES.map(() => []);
  let steps: readonly GateStep[] = [];

  function run(
    request: FastifyRequest,
    reply: FastifyReply,
    from: number,
    done: (error?: Error) => void,
  ): void {
    for (let i = from; i < steps.length; i++) {
      const verdict = (steps[i] as GateStep)(request, reply);
      if (verdict instanceof Promise) {
        verdict.then((resolved) => {
          if (resolved !== undefined) done(resolved);
          else run(request, reply, i + 1, done);
        }, done);
        return;
      }
      if (verdict !== undefined) {
        done(verdict);
        return;
      }
    }
    done();
  }

  const gate: RequestGate = {
    add(phase, step) {
      const index = GATE_PHASES.indexOf(phase);
      if (index < 0) throw new Error(`unknown request gate phase '${String(phase)}'`);
      (byPhase[index] as GateStep[]).push(step);
      steps = byPhase.flat();
    },
  };
  app.decorate("requestGate", gate);
  // Callback style: an async hook costs a promise and a microtask turn per request.
  app.addHook("onRequest", (request, reply, done) => run(request, reply, 0, done));
  return gate;
}
