/**
 * The rate limit's per-route setting, declared apart from rate-limit.ts: the metrics plugin reads
 * it too, and rate-limit.ts imports the metrics' names, so declaring it there made the two import
 * each other.
 */
declare module "fastify" {
  interface FastifyContextConfig {
    /** True to leave the route out of rate limiting (rate-limit.ts). */
    rateLimitExempt?: boolean;
  }
}

export {};
