import type { FastifyInstance } from "fastify";
import { AppError } from "#server/lib/errors";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "#server/lib/json-depth";

/** JSON bodies as Fastify parses them, refused when they nest deeper than any of Hearth's own. */
export function setJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      if (jsonDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(new AppError("BAD_REQUEST", "The request body is nested too deeply"), undefined);
      }
      done(null, value);
    });
  });
}
